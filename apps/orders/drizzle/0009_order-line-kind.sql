ALTER TABLE "orders"."order_lines" ADD COLUMN "kind" "orders"."catalogue_kind" DEFAULT 'accessory' NOT NULL;--> statement-breakpoint
UPDATE "orders"."order_lines" SET "kind" = "catalogue_items"."kind" FROM "orders"."catalogue_items" WHERE "catalogue_items"."id" = "order_lines"."item_id";
