CREATE SCHEMA "notifications";
--> statement-breakpoint
CREATE TYPE "notifications"."mail_status" AS ENUM('sent', 'failed');--> statement-breakpoint
CREATE TABLE "notifications"."mail_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" text NOT NULL,
	"template" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"status" "notifications"."mail_status" NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"smtp_message_id" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications"."outbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "notifications"."processed_messages" (
	"consumer" text NOT NULL,
	"message_id" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processed_messages_consumer_message_id_pk" PRIMARY KEY("consumer","message_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mail_log_job_id_idx" ON "notifications"."mail_log" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "outbox_unsent_idx" ON "notifications"."outbox" USING btree ("created_at") WHERE sent_at IS NULL;