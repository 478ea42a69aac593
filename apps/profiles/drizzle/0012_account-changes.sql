ALTER TABLE "profiles"."account_facts" ADD COLUMN "account_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles"."account_facts" ADD COLUMN "account" jsonb;