-- The colour the buyer chose for each line. Lines placed before colours were chosen get their item's first colour:
-- the colour their cards were given when they were paid (orders.cards keeps it as printed).
ALTER TABLE "orders"."order_lines" ADD COLUMN "colour" text;--> statement-breakpoint
UPDATE "orders"."order_lines" AS l SET "colour" = COALESCE(i."colors"->>0, 'White') FROM "orders"."catalogue_items" AS i WHERE i."id" = l."item_id";--> statement-breakpoint
UPDATE "orders"."order_lines" SET "colour" = 'White' WHERE "colour" IS NULL;--> statement-breakpoint
ALTER TABLE "orders"."order_lines" ALTER COLUMN "colour" SET NOT NULL;
