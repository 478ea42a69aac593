ALTER TABLE "profiles"."leads" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "leads_idempotency_key_idx" ON "profiles"."leads" USING btree ("idempotency_key");