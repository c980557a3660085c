-- Each account's ledger totals, kept as the ledger grows instead of summed on every read: what
-- every account's numbers (lib/equity accountNumbersSql: contributions and each product's flows)
-- and the stats' trade count (lib/users statsCountFields) read. Before, GET /api/users/me, the
-- portfolio, profiles and the standings refresh summed every ledger row of the account: an agent
-- with 2,000 trades cost PostgreSQL 1.7 ms a read, growing with every trade.
--   ledger_type_classes: each ledger type's class (lib/ledger/account-numbers.ts LEDGER_CLASS) and
--   whether it is a trade (lib/users TRADE_TYPES); test/api/account-totals holds it equal to both.
--   account_totals: per account, Σ amount of the contribution types and of each product's types,
--   and the count of its trades; kept by a statement-level trigger on balance_transactions, so
--   every writer of the ledger (lib/ledger's functions and its statements' CTEs) is covered.
-- The ledger is append-only (nothing updates or deletes its rows), so the trigger is on insert.
-- A statement that writes ledger rows of an account already holds that account's users row (the
-- ledger changes the balance with the row), so the totals rows it takes add no new lock order;
-- they are taken in user order all the same.
CREATE TABLE "ledger_type_classes" (
	"type" text PRIMARY KEY NOT NULL,
	"class" text NOT NULL,
	"is_trade" boolean NOT NULL
);
--> statement-breakpoint
INSERT INTO "ledger_type_classes" ("type", "class", "is_trade") VALUES
  ('bonus', 'contribution', false),
  ('deposit', 'contribution', false),
  ('fee', 'perps', false),
  ('funding_paid', 'perps', false),
  ('funding_received', 'perps', false),
  ('order_refund', 'predictions', false),
  ('order_reserve', 'predictions', false),
  ('perp_close', 'perps', true),
  ('perp_open', 'perps', true),
  ('perp_order_refund', 'perps', false),
  ('perp_order_reserve', 'perps', false),
  ('pool_deposit', 'pools', false),
  ('pool_performance_fee', 'pools', false),
  ('pool_withdraw', 'pools', false),
  ('pred_buy', 'predictions', true),
  ('pred_payout', 'predictions', false),
  ('pred_sell', 'predictions', true),
  ('referral_fee', 'contribution', false),
  ('transfer_in', 'contribution', false),
  ('transfer_out', 'contribution', false),
  ('withdrawal', 'contribution', false);
--> statement-breakpoint
CREATE TABLE "account_totals" (
	"user_id" text PRIMARY KEY NOT NULL REFERENCES "users"("id"),
	"trades" bigint DEFAULT 0 NOT NULL,
	"contributions" numeric(30, 8) DEFAULT '0' NOT NULL,
	"flow_predictions" numeric(30, 8) DEFAULT '0' NOT NULL,
	"flow_perps" numeric(30, 8) DEFAULT '0' NOT NULL,
	"flow_pools" numeric(30, 8) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION account_totals_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_totals AS t (user_id, trades, contributions, flow_predictions, flow_perps, flow_pools)
  SELECT n.user_id,
    count(*) FILTER (WHERE c.is_trade),
    coalesce(sum(n.amount) FILTER (WHERE c.class = 'contribution'), 0),
    coalesce(sum(n.amount) FILTER (WHERE c.class = 'predictions'), 0),
    coalesce(sum(n.amount) FILTER (WHERE c.class = 'perps'), 0),
    coalesce(sum(n.amount) FILTER (WHERE c.class = 'pools'), 0)
  FROM new_rows n JOIN ledger_type_classes c ON c.type = n.type
  GROUP BY n.user_id
  ORDER BY n.user_id
  ON CONFLICT (user_id) DO UPDATE SET
    trades = t.trades + excluded.trades,
    contributions = t.contributions + excluded.contributions,
    flow_predictions = t.flow_predictions + excluded.flow_predictions,
    flow_perps = t.flow_perps + excluded.flow_perps,
    flow_pools = t.flow_pools + excluded.flow_pools;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER balance_transactions_totals AFTER INSERT ON balance_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION account_totals_add();
--> statement-breakpoint
-- The ledger written so far.
INSERT INTO account_totals (user_id, trades, contributions, flow_predictions, flow_perps, flow_pools)
SELECT n.user_id,
  count(*) FILTER (WHERE c.is_trade),
  coalesce(sum(n.amount) FILTER (WHERE c.class = 'contribution'), 0),
  coalesce(sum(n.amount) FILTER (WHERE c.class = 'predictions'), 0),
  coalesce(sum(n.amount) FILTER (WHERE c.class = 'perps'), 0),
  coalesce(sum(n.amount) FILTER (WHERE c.class = 'pools'), 0)
FROM balance_transactions n JOIN ledger_type_classes c ON c.type = n.type
GROUP BY n.user_id;
