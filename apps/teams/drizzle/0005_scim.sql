CREATE TABLE "teams"."scim_audit" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"leader_account_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"outcome" text NOT NULL,
	"member_account_id" uuid,
	"user_name" text
);
--> statement-breakpoint
CREATE TABLE "teams"."scim_tokens" (
	"leader_account_id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "scim_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "teams"."members" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "teams"."members" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "teams"."members" ADD COLUMN "title" text;--> statement-breakpoint
CREATE INDEX "scim_audit_leader_idx" ON "teams"."scim_audit" USING btree ("leader_account_id","at","id");