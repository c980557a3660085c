DROP INDEX "standings_reputation_at_idx";--> statement-breakpoint
DROP INDEX "standings_refreshed_idx";--> statement-breakpoint
ALTER TABLE "league_members" ADD COLUMN "days" integer;--> statement-breakpoint
ALTER TABLE "standings" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "standings_reputation_stale_idx" ON "standings" USING btree ("reputation_at" NULLS FIRST,"user_id");--> statement-breakpoint
CREATE INDEX "standings_created_idx" ON "standings" USING btree ("created_at");