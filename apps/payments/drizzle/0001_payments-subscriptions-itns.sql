CREATE TABLE "payments"."itns" (
	"id" uuid PRIMARY KEY NOT NULL,
	"raw_body" text NOT NULL,
	"source_ip" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verdict" text,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payments"."membership_versions" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"version" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments"."payment_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"order_id" uuid,
	"subscription_id" uuid,
	"amount_cents" integer NOT NULL,
	"item_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments"."payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"pf_payment_id" text NOT NULL,
	"payment_request_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"order_id" uuid,
	"subscription_id" uuid,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"description" text NOT NULL,
	"billing_date" date,
	"itn_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments"."subscriptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"tier" text NOT NULL,
	"status" text NOT NULL,
	"token" text,
	"monthly_price_cents" integer NOT NULL,
	"paid_until" timestamp with time zone,
	"next_billing_date" date,
	"grace_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "itns_unprocessed_idx" ON "payments"."itns" USING btree ("next_attempt_at") WHERE processed_at IS NULL;--> statement-breakpoint
CREATE INDEX "payment_requests_account_idx" ON "payments"."payment_requests" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_pf_payment_id_idx" ON "payments"."payments" USING btree ("pf_payment_id");--> statement-breakpoint
CREATE INDEX "payments_account_idx" ON "payments"."payments" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "subscriptions_account_idx" ON "payments"."subscriptions" USING btree ("account_id","status");