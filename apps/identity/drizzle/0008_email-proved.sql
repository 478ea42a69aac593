ALTER TABLE "identity"."accounts" ADD COLUMN "email_proved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "identity"."email_tokens" ADD COLUMN "sent_to" text;--> statement-breakpoint
-- Accounts that proved their address before this column: verified sign-ups (user, teamLeader), whose only way to
-- verified is a link sent to the address (verification or email change). Not team reps (verified on their leader's
-- word) nor staff and print accounts (the staff command's word), also once staff took such a role away (audited):
-- they prove theirs with the next link they follow.
UPDATE "identity"."accounts" AS a SET "email_proved_at" = a."verified_at"
WHERE a."is_verified" AND a."verified_at" IS NOT NULL AND a."role"::text IN ('user', 'teamLeader')
  AND NOT EXISTS (
    SELECT 1 FROM "identity"."staff_audit" AS s
    WHERE s."account_id" = a."id" AND s."change" = 'role' AND (s."before" #>> '{}') NOT IN ('user', 'teamLeader')
  );--> statement-breakpoint
-- Live links issued before the address was recorded: an email change's went to its new address; the others went to the
-- account's address, which is still the one they went to unless a leader changed a rep's since (a change of the
-- account after the link was made: those prove nothing, a new link does). Enums compared as text: drizzle runs every
-- pending migration in one transaction, where a value added by an earlier one (change-email) cannot be used yet.
UPDATE "identity"."email_tokens" SET "sent_to" = "new_email" WHERE "sent_to" IS NULL AND "purpose"::text = 'change-email';--> statement-breakpoint
UPDATE "identity"."email_tokens" AS t SET "sent_to" = a."email"
FROM "identity"."accounts" AS a
WHERE t."account_id" = a."id" AND t."sent_to" IS NULL AND t."used_at" IS NULL AND t."purpose"::text <> 'change-email'
  AND (a."role"::text <> 'teamMember' OR a."updated_at" <= t."created_at");
