DROP TABLE "profiles"."profile_views" CASCADE;--> statement-breakpoint
DROP TYPE "profiles"."view_source";