ALTER TYPE "orders"."enquiry_kind" ADD VALUE 'quote';--> statement-breakpoint
ALTER TABLE "orders"."enquiries" ADD COLUMN "company" text;--> statement-breakpoint
ALTER TABLE "orders"."enquiries" ADD COLUMN "team_size" integer;