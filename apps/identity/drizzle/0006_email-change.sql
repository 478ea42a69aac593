ALTER TYPE "identity"."token_purpose" ADD VALUE IF NOT EXISTS 'change-email';--> statement-breakpoint
ALTER TABLE "identity"."accounts" ADD COLUMN "pending_email" text;--> statement-breakpoint
ALTER TABLE "identity"."accounts" ADD COLUMN "pending_email_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "identity"."email_tokens" ADD COLUMN "new_email" text;