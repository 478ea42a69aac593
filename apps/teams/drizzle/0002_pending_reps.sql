CREATE TABLE "teams"."pending_reps" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"leader_account_id" uuid NOT NULL,
	"username" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"tel" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "pending_reps_created_idx" ON "teams"."pending_reps" USING btree ("created_at");