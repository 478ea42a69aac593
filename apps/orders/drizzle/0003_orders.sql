CREATE TYPE "orders"."order_status" AS ENUM('awaiting-payment', 'paid', 'cancelled');--> statement-breakpoint
CREATE TABLE "orders"."order_lines" (
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"item_id" text NOT NULL,
	"name" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"line_total_cents" integer NOT NULL,
	"included_gold_months" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "order_lines_pkey" PRIMARY KEY("order_id","position"),
	CONSTRAINT "order_lines_quantity_check" CHECK ("orders"."order_lines"."quantity" >= 1),
	CONSTRAINT "order_lines_total_check" CHECK ("orders"."order_lines"."line_total_cents" = "orders"."order_lines"."quantity" * "orders"."order_lines"."unit_price_cents")
);
--> statement-breakpoint
CREATE TABLE "orders"."orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"account_id" uuid NOT NULL,
	"status" "orders"."order_status" DEFAULT 'awaiting-payment' NOT NULL,
	"total_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "orders_reference_key" UNIQUE("reference"),
	CONSTRAINT "orders_total_cents_check" CHECK ("orders"."orders"."total_cents" >= 0),
	CONSTRAINT "orders_paid_at_check" CHECK (("orders"."orders"."status" = 'paid') = ("orders"."orders"."paid_at" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "orders"."order_lines" ADD CONSTRAINT "order_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "orders"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_account_created_idx" ON "orders"."orders" USING btree ("account_id","created_at");