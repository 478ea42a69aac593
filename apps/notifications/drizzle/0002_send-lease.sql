ALTER TYPE "notifications"."mail_status" ADD VALUE 'queued' BEFORE 'sent';--> statement-breakpoint
ALTER TYPE "notifications"."mail_status" ADD VALUE 'sending' BEFORE 'sent';--> statement-breakpoint
ALTER TABLE "notifications"."mail_log" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications"."mail_log" ADD COLUMN "job" jsonb;--> statement-breakpoint
CREATE INDEX "mail_log_owed_idx" ON "notifications"."mail_log" USING btree ("updated_at") WHERE status <> 'sent' AND job IS NOT NULL;