-- The tick's steps cost what changed since the last tick, not the number of players or positions.
--
-- Liquidation warnings: the mark (less the funding index's shift) at which an open perp's margin
-- buffer is down to a quarter (liquidation_warn_key) or back above half (liquidation_reset_key),
-- free of the index as liquidation_key is, so the alerts step reads one index range per ticker and
-- side. A position without a buffer at open gets ±1e18: always due for a warning, never reset.
-- Funding notices: funding_noticed_index is the ticker's index at the holder's last funding notice
-- (null: none since the position opened); funding_notice_hi/lo are the indexes at which what the
-- position paid or received since then reaches 5% of its collateral (a holder's threshold is at
-- least that share of their collateral, so one of their positions crosses its own first).
-- Both are generated columns: they follow every write of the columns they read.
ALTER TABLE "perp_positions" ADD COLUMN "funding_noticed_index" numeric(38, 18);--> statement-breakpoint
ALTER TABLE "perp_positions" ADD COLUMN "liquidation_warn_key" numeric(38, 18) GENERATED ALWAYS AS (case when margin - 0.005 * size <= 0 or units <= 0 then (case when side = 'long' then 1e18 else -1e18 end) else liquidation_price - trunc(case when side = 'long' then funding_index_entry::numeric(80, 40) / (1 - 0.005) else funding_index_entry::numeric(80, 40) / (1 + 0.005) end, 18) + (case when side = 'long' then trunc((0.25 * (margin - 0.005 * size))::numeric(80, 40) / (units * (1 - 0.005)), 18) else -trunc((0.25 * (margin - 0.005 * size))::numeric(80, 40) / (units * (1 + 0.005)), 18) end) end) STORED;--> statement-breakpoint
ALTER TABLE "perp_positions" ADD COLUMN "liquidation_reset_key" numeric(38, 18) GENERATED ALWAYS AS (case when margin - 0.005 * size <= 0 or units <= 0 then (case when side = 'long' then 1e18 else -1e18 end) else liquidation_price - trunc(case when side = 'long' then funding_index_entry::numeric(80, 40) / (1 - 0.005) else funding_index_entry::numeric(80, 40) / (1 + 0.005) end, 18) + (case when side = 'long' then trunc((0.5 * (margin - 0.005 * size))::numeric(80, 40) / (units * (1 - 0.005)), 18) else -trunc((0.5 * (margin - 0.005 * size))::numeric(80, 40) / (units * (1 + 0.005)), 18) end) end) STORED;--> statement-breakpoint
ALTER TABLE "perp_positions" ADD COLUMN "funding_notice_hi" numeric(38, 18) GENERATED ALWAYS AS (case when units > 0 then coalesce(funding_noticed_index, funding_index_entry) + trunc((0.05 * greatest(collateral, 0))::numeric(80, 40) / units, 18) end) STORED;--> statement-breakpoint
ALTER TABLE "perp_positions" ADD COLUMN "funding_notice_lo" numeric(38, 18) GENERATED ALWAYS AS (case when units > 0 then coalesce(funding_noticed_index, funding_index_entry) - trunc((0.05 * greatest(collateral, 0))::numeric(80, 40) / units, 18) end) STORED;--> statement-breakpoint
CREATE INDEX "perp_positions_warn_idx" ON "perp_positions" USING btree ("ticker","side","liquidation_warn_key") WHERE status = 'open' and liquidation_warned_at is null;--> statement-breakpoint
CREATE INDEX "perp_positions_reset_idx" ON "perp_positions" USING btree ("ticker","side","liquidation_reset_key") WHERE status = 'open' and liquidation_warned_at is not null;--> statement-breakpoint
CREATE INDEX "perp_positions_funding_hi_idx" ON "perp_positions" USING btree ("ticker","funding_notice_hi") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "perp_positions_funding_lo_idx" ON "perp_positions" USING btree ("ticker","funding_notice_lo") WHERE status = 'open';--> statement-breakpoint
-- Backfill: the index of each open position's last funding notice, as the notice's statement read
-- it (the period its holder's last notice on the ticker was dated, when after the position opened).
UPDATE "perp_positions" pp SET "funding_noticed_index" = fr."cumulative_index"
FROM "perp_funding_rates" fr
WHERE pp."status" = 'open' AND fr."ticker" = pp."ticker"
  AND fr."period_start" = (
    SELECT n."created_at" FROM "notifications" n
    WHERE n."user_id" = pp."user_id" AND n."kind" = 'funding' AND n."link" = '/perps/' || pp."ticker"
    ORDER BY n."created_at" DESC LIMIT 1)
  AND fr."period_start" > pp."opened_at";--> statement-breakpoint
-- The self-dealing detector's watermark: trades up to trades_through were looked at. No row: the
-- next run reads its whole windows (as every run did before), then records it.
CREATE TABLE "detector_state" (
	"id" text PRIMARY KEY NOT NULL,
	"trades_through" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- The daily league close, in batches across the day's first ticks: the last account closed
-- (accounts in id order) and whether the day is complete. A day already closed is complete.
CREATE TABLE "league_close_progress" (
	"day" date PRIMARY KEY NOT NULL,
	"after_user_id" text,
	"done" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
INSERT INTO "league_close_progress" ("day", "after_user_id", "done", "started_at", "finished_at")
SELECT "day", NULL, true, max("created_at"), max("created_at") FROM "equity_snapshots" GROUP BY "day"
ON CONFLICT DO NOTHING;
