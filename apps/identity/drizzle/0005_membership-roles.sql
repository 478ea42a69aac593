CREATE TABLE "identity"."memberships" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"membership" text NOT NULL,
	"version" integer NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
