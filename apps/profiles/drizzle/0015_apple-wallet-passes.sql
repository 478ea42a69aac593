CREATE TABLE "profiles"."apple_pass_registrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_library_identifier" text NOT NULL,
	"serial_number" text NOT NULL,
	"push_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles"."apple_passes" (
	"serial_number" text PRIMARY KEY NOT NULL,
	"account_id" uuid,
	"pass_type_identifier" text NOT NULL,
	"authentication_token" text NOT NULL,
	"content_hash" text NOT NULL,
	"updated_at" integer NOT NULL,
	"pushes_queued_for" integer DEFAULT 0 NOT NULL,
	"voided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "profiles"."apple_pass_registrations" ADD CONSTRAINT "apple_pass_registrations_pass_fk" FOREIGN KEY ("serial_number") REFERENCES "profiles"."apple_passes"("serial_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "apple_pass_registrations_device_pass_idx" ON "profiles"."apple_pass_registrations" USING btree ("device_library_identifier","serial_number");--> statement-breakpoint
CREATE INDEX "apple_pass_registrations_pass_idx" ON "profiles"."apple_pass_registrations" USING btree ("serial_number");--> statement-breakpoint
CREATE UNIQUE INDEX "apple_passes_account_idx" ON "profiles"."apple_passes" USING btree ("account_id","pass_type_identifier") WHERE voided_at IS NULL;