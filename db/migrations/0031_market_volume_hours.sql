-- A question's 24 h volume without summing every trade of the day (lib/markets/sql.ts volume24hSql):
-- each market's traded amount per hour of UTC, kept by a trigger on trades (every writer of trades
-- is covered: the buy and sale statements, the matching engine, the world's history). The read
-- sums the whole hours inside the window and, from trades, only the part of the window's first
-- hour, so its cost no longer grows with how much a market trades.
CREATE TABLE "market_volume_hours" (
	"market_id" text NOT NULL REFERENCES "markets"("id"),
	"hour" timestamp with time zone NOT NULL,
	"amount" numeric(30, 8) NOT NULL,
	CONSTRAINT "market_volume_hours_pk" PRIMARY KEY ("market_id", "hour")
);
--> statement-breakpoint
-- The tick drops hours two days old (lib/markets/volume.ts).
CREATE INDEX "market_volume_hours_hour_idx" ON "market_volume_hours" USING btree ("hour");
--> statement-breakpoint
-- Once per statement, over the rows it inserted: one upsert per market and hour. A trade's
-- statement holds its market's row lock, so two trades never race for the same hour's row.
CREATE FUNCTION market_volume_hours_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO market_volume_hours (market_id, hour, amount)
  SELECT market_id, date_trunc('hour', created_at, 'UTC'), sum(amount) FROM new_trades GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT (market_id, hour) DO UPDATE SET amount = market_volume_hours.amount + excluded.amount;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER trades_volume_hours AFTER INSERT ON trades REFERENCING NEW TABLE AS new_trades
  FOR EACH STATEMENT EXECUTE FUNCTION market_volume_hours_add();
--> statement-breakpoint
INSERT INTO market_volume_hours (market_id, hour, amount)
SELECT market_id, date_trunc('hour', created_at, 'UTC'), sum(amount) FROM trades GROUP BY 1, 2;
