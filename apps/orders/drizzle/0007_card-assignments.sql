CREATE TABLE "orders"."card_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"serial" text NOT NULL,
	"from_account_id" uuid,
	"to_account_id" uuid,
	"by_account_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders"."team_members" (
	"member_account_id" uuid PRIMARY KEY NOT NULL,
	"leader_account_id" uuid NOT NULL,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "orders"."cards" ADD COLUMN "assigned_account_id" uuid;--> statement-breakpoint
ALTER TABLE "orders"."card_assignments" ADD CONSTRAINT "card_assignments_serial_cards_serial_fk" FOREIGN KEY ("serial") REFERENCES "orders"."cards"("serial") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_assignments_serial_idx" ON "orders"."card_assignments" USING btree ("serial","at");--> statement-breakpoint
CREATE INDEX "team_members_leader_idx" ON "orders"."team_members" USING btree ("leader_account_id");