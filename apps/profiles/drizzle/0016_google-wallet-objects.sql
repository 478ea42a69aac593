CREATE TABLE "profiles"."google_wallet_objects" (
	"object_suffix" text PRIMARY KEY NOT NULL,
	"account_id" uuid,
	"class_id" text NOT NULL,
	"content_hash" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"writes_queued_for" integer DEFAULT 0 NOT NULL,
	"voided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "google_wallet_objects_account_idx" ON "profiles"."google_wallet_objects" USING btree ("account_id","class_id") WHERE voided_at IS NULL;