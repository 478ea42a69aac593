CREATE TYPE "profiles"."lead_kind" AS ENUM('lead', 'exchange', 'own-profile');--> statement-breakpoint
CREATE TYPE "profiles"."media_purpose" AS ENUM('profileImage', 'profileBackground', 'businessLogo', 'gallery', 'product');--> statement-breakpoint
CREATE TYPE "profiles"."view_source" AS ENUM('link', 'qr', 'nfc');--> statement-breakpoint
CREATE TABLE "profiles"."leads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" "profiles"."lead_kind" NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles"."media" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"purpose" "profiles"."media_purpose" NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles"."profile_views" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"source" "profiles"."view_source" NOT NULL,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles"."vanity_paths" (
	"path" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "leads_account_idx" ON "profiles"."leads" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "media_account_idx" ON "profiles"."media" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "profile_views_account_idx" ON "profiles"."profile_views" USING btree ("account_id","viewed_at");