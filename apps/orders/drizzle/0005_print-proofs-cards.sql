CREATE TYPE "orders"."material" AS ENUM('PVC', 'Bamboo', 'Stainless steel');--> statement-breakpoint
CREATE TYPE "orders"."order_actor" AS ENUM('system', 'owner', 'print');--> statement-breakpoint
CREATE TYPE "orders"."proof_status" AS ENUM('rendering', 'ready', 'failed');--> statement-breakpoint
ALTER TYPE "orders"."order_status" ADD VALUE 'proof-ready';--> statement-breakpoint
ALTER TYPE "orders"."order_status" ADD VALUE 'changes-requested';--> statement-breakpoint
ALTER TYPE "orders"."order_status" ADD VALUE 'approved';--> statement-breakpoint
ALTER TYPE "orders"."order_status" ADD VALUE 'printing';--> statement-breakpoint
ALTER TYPE "orders"."order_status" ADD VALUE 'nfc-encoded';--> statement-breakpoint
ALTER TYPE "orders"."order_status" ADD VALUE 'shipped';--> statement-breakpoint
ALTER TYPE "orders"."order_status" ADD VALUE 'delivered';--> statement-breakpoint
ALTER TYPE "orders"."order_status" ADD VALUE 'refunded';--> statement-breakpoint
CREATE TABLE "orders"."cards" (
	"serial" text PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"item_id" text NOT NULL,
	"material" "orders"."material" NOT NULL,
	"colour" text NOT NULL,
	"nfc_uid" text,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders"."customers" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"name" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders"."order_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"from_status" "orders"."order_status",
	"to_status" "orders"."order_status" NOT NULL,
	"actor" "orders"."order_actor" NOT NULL,
	"actor_account_id" uuid,
	"note" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders"."proofs" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"status" "orders"."proof_status" DEFAULT 'rendering' NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"pdf" "bytea",
	"png" "bytea",
	"rendered_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders"."orders" DROP CONSTRAINT "orders_paid_at_check";--> statement-breakpoint
ALTER TABLE "orders"."orders" ADD COLUMN "courier" text;--> statement-breakpoint
ALTER TABLE "orders"."orders" ADD COLUMN "tracking_number" text;--> statement-breakpoint
ALTER TABLE "orders"."orders" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "orders"."cards" ADD CONSTRAINT "cards_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "orders"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders"."order_history" ADD CONSTRAINT "order_history_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "orders"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders"."proofs" ADD CONSTRAINT "proofs_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "orders"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cards_order_position_key" ON "orders"."cards" USING btree ("order_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "cards_nfc_uid_key" ON "orders"."cards" USING btree ("nfc_uid");--> statement-breakpoint
CREATE INDEX "cards_account_idx" ON "orders"."cards" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "order_history_order_idx" ON "orders"."order_history" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders"."orders" USING btree ("status");--> statement-breakpoint
ALTER TABLE "orders"."orders" ADD CONSTRAINT "orders_shipment_check" CHECK (("orders"."orders"."courier" IS NULL) = ("orders"."orders"."tracking_number" IS NULL));--> statement-breakpoint
ALTER TABLE "orders"."orders" ADD CONSTRAINT "orders_paid_at_check" CHECK (CASE WHEN "orders"."orders"."status"::text = 'awaiting-payment' THEN "orders"."orders"."paid_at" IS NULL WHEN "orders"."orders"."status"::text = 'cancelled' THEN true ELSE "orders"."orders"."paid_at" IS NOT NULL END);