CREATE TABLE "profiles"."card_serials" (
	"serial" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"assigned_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "card_serials_account_idx" ON "profiles"."card_serials" USING btree ("account_id");