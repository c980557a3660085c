-- A perps ticker's open interest and 24 h volume without reading every open position and every
-- trade of the day (lib/perps/service/read.ts tickerStats, on every /perps page and ticker read).
-- Both are kept by statement-level triggers, so every writer is covered (open, close, liquidation,
-- stops and take-profits, limit fills, the NPCs, the world's history):
--   perp_markets.open_units_long / open_units_short: the units of the ticker's open positions per
--   side (open interest is units × mark, as before);
--   perp_volume_hours: each ticker's traded notional per UTC hour, as market_volume_hours (0031)
--   keeps a question's.
-- Each trigger first locks the tickers its statement touched, in ticker order: a trade's own
-- statement already holds its ticker's row, and a statement over several tickers (the tick's
-- sweep) takes them in one order before any hour row, so no two statements wait on each other.
ALTER TABLE "perp_markets" ADD COLUMN "open_units_long" numeric(50, 18) DEFAULT '0' NOT NULL;
--> statement-breakpoint
ALTER TABLE "perp_markets" ADD COLUMN "open_units_short" numeric(50, 18) DEFAULT '0' NOT NULL;
--> statement-breakpoint
CREATE TABLE "perp_volume_hours" (
	"ticker" text NOT NULL REFERENCES "perp_markets"("ticker"),
	"hour" timestamp with time zone NOT NULL,
	"amount" numeric(30, 8) NOT NULL,
	CONSTRAINT "perp_volume_hours_pk" PRIMARY KEY ("ticker", "hour")
);
--> statement-breakpoint
-- The tick drops hours two days old (lib/perps/volume.ts).
CREATE INDEX "perp_volume_hours_hour_idx" ON "perp_volume_hours" USING btree ("hour");
--> statement-breakpoint
-- Once per statement, over the rows it changed: the open units each ticker gained or lost. An
-- update that leaves units, side, status and ticker alone (funding notices, say) nets to zero, and
-- locks and writes nothing.
CREATE FUNCTION perp_open_units_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM 1 FROM perp_markets WHERE ticker IN (SELECT ticker FROM new_rows WHERE status = 'open') ORDER BY ticker FOR UPDATE;
    UPDATE perp_markets m SET open_units_long = m.open_units_long + d.long_units, open_units_short = m.open_units_short + d.short_units
    FROM (SELECT ticker, coalesce(sum(units) FILTER (WHERE side = 'long'), 0) AS long_units, coalesce(sum(units) FILTER (WHERE side = 'short'), 0) AS short_units
      FROM new_rows WHERE status = 'open' GROUP BY ticker) d
    WHERE m.ticker = d.ticker;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM 1 FROM perp_markets WHERE ticker IN (
      SELECT ticker FROM (SELECT ticker, side, units FROM new_rows WHERE status = 'open'
        UNION ALL SELECT ticker, side, -units FROM old_rows WHERE status = 'open') c
      GROUP BY ticker HAVING sum(units) FILTER (WHERE side = 'long') <> 0 OR sum(units) FILTER (WHERE side = 'short') <> 0
    ) ORDER BY ticker FOR UPDATE;
    UPDATE perp_markets m SET open_units_long = m.open_units_long + d.long_units, open_units_short = m.open_units_short + d.short_units
    FROM (SELECT ticker, coalesce(sum(units) FILTER (WHERE side = 'long'), 0) AS long_units, coalesce(sum(units) FILTER (WHERE side = 'short'), 0) AS short_units
      FROM (SELECT ticker, side, units FROM new_rows WHERE status = 'open'
        UNION ALL SELECT ticker, side, -units FROM old_rows WHERE status = 'open') c
      GROUP BY ticker) d
    WHERE m.ticker = d.ticker AND (d.long_units <> 0 OR d.short_units <> 0);
  ELSE
    PERFORM 1 FROM perp_markets WHERE ticker IN (SELECT ticker FROM old_rows WHERE status = 'open') ORDER BY ticker FOR UPDATE;
    UPDATE perp_markets m SET open_units_long = m.open_units_long - d.long_units, open_units_short = m.open_units_short - d.short_units
    FROM (SELECT ticker, coalesce(sum(units) FILTER (WHERE side = 'long'), 0) AS long_units, coalesce(sum(units) FILTER (WHERE side = 'short'), 0) AS short_units
      FROM old_rows WHERE status = 'open' GROUP BY ticker) d
    WHERE m.ticker = d.ticker;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER perp_positions_open_units_insert AFTER INSERT ON perp_positions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION perp_open_units_apply();
--> statement-breakpoint
CREATE TRIGGER perp_positions_open_units_update AFTER UPDATE ON perp_positions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION perp_open_units_apply();
--> statement-breakpoint
CREATE TRIGGER perp_positions_open_units_delete AFTER DELETE ON perp_positions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION perp_open_units_apply();
--> statement-breakpoint
CREATE FUNCTION perp_volume_hours_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM perp_markets WHERE ticker IN (SELECT ticker FROM new_trades) ORDER BY ticker FOR UPDATE;
  INSERT INTO perp_volume_hours (ticker, hour, amount)
  SELECT ticker, date_trunc('hour', created_at, 'UTC'), sum(size) FROM new_trades GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT (ticker, hour) DO UPDATE SET amount = perp_volume_hours.amount + excluded.amount;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER perp_trades_volume_hours AFTER INSERT ON perp_trades REFERENCING NEW TABLE AS new_trades
  FOR EACH STATEMENT EXECUTE FUNCTION perp_volume_hours_add();
--> statement-breakpoint
UPDATE perp_markets m SET
  open_units_long = coalesce((SELECT sum(units) FROM perp_positions p WHERE p.ticker = m.ticker AND p.status = 'open' AND p.side = 'long'), 0),
  open_units_short = coalesce((SELECT sum(units) FROM perp_positions p WHERE p.ticker = m.ticker AND p.status = 'open' AND p.side = 'short'), 0);
--> statement-breakpoint
INSERT INTO perp_volume_hours (ticker, hour, amount)
SELECT ticker, date_trunc('hour', created_at, 'UTC'), sum(size) FROM perp_trades GROUP BY 1, 2;
