ALTER TABLE "profiles"."account_facts" ADD COLUMN "business_account_id" uuid;--> statement-breakpoint
ALTER TABLE "profiles"."account_facts" ADD COLUMN "team_tel" text;--> statement-breakpoint
ALTER TABLE "profiles"."leads" ADD COLUMN "former_rep" text;--> statement-breakpoint
CREATE INDEX "profiles_business_idx" ON "profiles"."profiles" USING btree ("business_account_id");