-- Issue 31 (something to compete on). The standings read model gains the P&L and ROI boards:
-- the one P&L of lib/equity (equity − contributions) in total and over the day, week and season,
-- and the return on it, each with its partial index like the points boards; refreshed by
-- lib/standings (changed accounts at once, everyone in turn by the stalest first). A daily close
-- also records that P&L, so a period's result is the P&L now less the P&L at the period's close.
ALTER TABLE "standings" ADD COLUMN "pnl_all" numeric(30, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "standings" ADD COLUMN "pnl_day" numeric(30, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "standings" ADD COLUMN "pnl_week" numeric(30, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "standings" ADD COLUMN "pnl_season" numeric(30, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "standings" ADD COLUMN "roi_all" numeric(30, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "standings" ADD COLUMN "roi_day" numeric(30, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "standings" ADD COLUMN "roi_week" numeric(30, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "standings" ADD COLUMN "roi_season" numeric(30, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "standings" ADD COLUMN "equity" numeric(30, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "standings" ADD COLUMN "pnl_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "equity_snapshots" ADD COLUMN "pnl" numeric(30, 8);--> statement-breakpoint
CREATE INDEX "standings_pnl_all_idx" ON "standings" USING btree ("pnl_all" DESC NULLS LAST,"user_id") WHERE listed;--> statement-breakpoint
CREATE INDEX "standings_pnl_day_idx" ON "standings" USING btree ("pnl_day" DESC NULLS LAST,"user_id") WHERE listed;--> statement-breakpoint
CREATE INDEX "standings_pnl_week_idx" ON "standings" USING btree ("pnl_week" DESC NULLS LAST,"user_id") WHERE listed;--> statement-breakpoint
CREATE INDEX "standings_pnl_season_idx" ON "standings" USING btree ("pnl_season" DESC NULLS LAST,"user_id") WHERE listed;--> statement-breakpoint
CREATE INDEX "standings_roi_all_idx" ON "standings" USING btree ("roi_all" DESC NULLS LAST,"user_id") WHERE listed;--> statement-breakpoint
CREATE INDEX "standings_roi_day_idx" ON "standings" USING btree ("roi_day" DESC NULLS LAST,"user_id") WHERE listed;--> statement-breakpoint
CREATE INDEX "standings_roi_week_idx" ON "standings" USING btree ("roi_week" DESC NULLS LAST,"user_id") WHERE listed;--> statement-breakpoint
CREATE INDEX "standings_roi_season_idx" ON "standings" USING btree ("roi_season" DESC NULLS LAST,"user_id") WHERE listed;--> statement-breakpoint
CREATE INDEX "standings_pnl_stale_idx" ON "standings" USING btree ("pnl_at" NULLS FIRST,"user_id");
