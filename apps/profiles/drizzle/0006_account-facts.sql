CREATE TABLE "profiles"."account_facts" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"verified_at" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
