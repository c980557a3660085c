-- Funding as a cumulative index per ticker (issue 20): perp_markets.funding_index starts at 0 and
-- open positions enter at 0, which is right for them: the per-position payments made before were
-- applied to their collateral, funding_paid and liquidation price then. liquidation_key is a
-- generated column, so adding it computes it for every existing row (= liquidation_price at entry 0).
-- Earlier perp_funding_rates rows get cumulative_index 0 (the index after them, on this scale).
DROP INDEX "perp_positions_liquidation_idx";--> statement-breakpoint
ALTER TABLE "perp_funding_rates" ADD COLUMN "cumulative_index" numeric(38, 18) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "perp_markets" ADD COLUMN "funding_index" numeric(38, 18) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "perp_positions" ADD COLUMN "funding_index_entry" numeric(38, 18) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "perp_positions" ADD COLUMN "liquidation_key" numeric(38, 18) GENERATED ALWAYS AS (liquidation_price - trunc(case when side = 'long' then funding_index_entry::numeric(80, 40) / (1 - 0.005) else funding_index_entry::numeric(80, 40) / (1 + 0.005) end, 18)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "perp_positions_open_opened_idx" ON "perp_positions" USING btree ("ticker","opened_at") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "perp_positions_liquidation_idx" ON "perp_positions" USING btree ("ticker","side","liquidation_key") WHERE status = 'open';