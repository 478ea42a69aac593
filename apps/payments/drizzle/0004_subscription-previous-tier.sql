ALTER TABLE "payments"."subscriptions" ADD COLUMN "previous_tier" text;--> statement-breakpoint
ALTER TABLE "payments"."subscriptions" ADD COLUMN "previous_price_cents" integer;--> statement-breakpoint
ALTER TABLE "payments"."subscriptions" ADD COLUMN "tier_from" date;