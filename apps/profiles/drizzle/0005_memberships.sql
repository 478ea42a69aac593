CREATE TABLE "profiles"."memberships" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"membership" text NOT NULL,
	"paid_until" timestamp with time zone,
	"version" integer NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
