CREATE TABLE "profiles"."analytics_daily" (
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"metric" text NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "analytics_daily_account_id_day_metric_key_pk" PRIMARY KEY("account_id","day","metric","key")
);
--> statement-breakpoint
CREATE TABLE "profiles"."analytics_visitors" (
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "analytics_visitors_account_id_day_hash_pk" PRIMARY KEY("account_id","day","hash")
);
--> statement-breakpoint
ALTER TABLE "profiles"."leads" ADD COLUMN "consent_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles"."leads" ADD COLUMN "consent_at" timestamp with time zone;--> statement-breakpoint
INSERT INTO "profiles"."analytics_daily" ("account_id", "day", "metric", "key", "count")
SELECT "account_id", ("viewed_at" AT TIME ZONE 'Africa/Johannesburg')::date, 'view', "source"::text, count(*)::integer
FROM "profiles"."profile_views" GROUP BY 1, 2, 4
ON CONFLICT DO NOTHING;
