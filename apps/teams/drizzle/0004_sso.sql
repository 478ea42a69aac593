CREATE TABLE "teams"."sso_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"leader_account_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "teams"."sso_providers" (
	"leader_account_id" uuid PRIMARY KEY NOT NULL,
	"team_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_ciphertext" text NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_providers_team_id_unique" UNIQUE("team_id")
);
--> statement-breakpoint
ALTER TABLE "teams"."sso_domains" ADD CONSTRAINT "sso_domains_leader_account_id_sso_providers_leader_account_id_fk" FOREIGN KEY ("leader_account_id") REFERENCES "teams"."sso_providers"("leader_account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_domains_leader_idx" ON "teams"."sso_domains" USING btree ("leader_account_id");