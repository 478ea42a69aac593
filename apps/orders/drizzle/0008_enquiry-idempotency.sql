ALTER TABLE "orders"."enquiries" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "enquiries_idempotency_key_idx" ON "orders"."enquiries" USING btree ("idempotency_key");