-- Profiles keeps which page each card opens (`orders.cards.assigned`, issue 28 item 3) to count views through a card
-- only on its own page. Cards made before that event existed are announced once here, through the outbox (the relay
-- publishes them as it does any event), in parts of at most 500 cards: each card with the page it opens now (the rep
-- it is assigned to, else its buyer). Later moves are later events and win over these.
INSERT INTO "orders"."outbox" ("id", "subject", "payload")
SELECT e."id", 'orders.cards.assigned',
  jsonb_build_object(
    'id', e."id",
    'type', 'orders.cards.assigned',
    'occurredAt', e."at",
    'data', jsonb_build_object('cards', e."cards", 'at', e."at")
  )
FROM (
  SELECT gen_random_uuid() AS "id",
    to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "at",
    jsonb_agg(jsonb_build_object('serial', c."serial", 'accountId', coalesce(c."assigned_account_id", c."account_id")) ORDER BY c."serial") AS "cards"
  FROM (
    SELECT *, (row_number() OVER (ORDER BY "serial") - 1) / 500 AS "part"
    FROM "orders"."cards"
    WHERE "serial" ~ '^[23456789ABCDEFGHJKMNPQRSTVWXYZ]{8}$'
  ) AS c
  GROUP BY c."part"
) AS e;
