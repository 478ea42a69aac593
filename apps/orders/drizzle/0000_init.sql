CREATE SCHEMA "orders";
--> statement-breakpoint
CREATE TYPE "orders"."enquiry_kind" AS ENUM('call-back', 'message');--> statement-breakpoint
CREATE TABLE "orders"."enquiries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" "orders"."enquiry_kind" NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders"."outbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "orders"."processed_messages" (
	"consumer" text NOT NULL,
	"message_id" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processed_messages_consumer_message_id_pk" PRIMARY KEY("consumer","message_id")
);
--> statement-breakpoint
CREATE INDEX "enquiries_created_at_idx" ON "orders"."enquiries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "outbox_unsent_idx" ON "orders"."outbox" USING btree ("created_at") WHERE sent_at IS NULL;