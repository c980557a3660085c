-- The tick's price-move alerts read what changed since their last run, not every holder of every
-- moved market each minute (lib/notifications/trading.ts). A holder becomes due for a market only
-- when the market starts moving, their position changes (a trades row), their last notice turns a
-- day old, or they turn the kind back on; the last run's time is detector_state's row 'price_moves'.
-- The markets that had moved at the last run, since when. Empty (and no watermark): the next run
-- reads every holder, as every run did before, then records both.
CREATE TABLE "price_move_markets" (
	"market_id" text PRIMARY KEY NOT NULL,
	"since" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- The price_move notices turning a day old since the last run.
CREATE INDEX "notifications_price_move_created_idx" ON "notifications" USING btree ("created_at") WHERE kind = 'price_move';--> statement-breakpoint
-- The price_move choices changed since the last run (a holder who turned the kind back on).
CREATE INDEX "notification_preferences_price_move_updated_idx" ON "notification_preferences" USING btree ("updated_at") WHERE kind = 'price_move';
