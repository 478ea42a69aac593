CREATE TABLE "teams"."members" (
	"member_account_id" uuid PRIMARY KEY NOT NULL,
	"leader_account_id" uuid NOT NULL,
	"username" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"tel" text NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "members_leader_idx" ON "teams"."members" USING btree ("leader_account_id","added_at");