-- Issue 29. Bounded storage: an A2A task keeps what tasks/get answers (id, context, state, method
-- and its outcome, at most a few KiB: lib/a2a/service/tasks.ts), no longer the asking message; the
-- tick prunes tasks after 24 hours and unpaid payment requests 24 hours after they expire.
ALTER TABLE "a2a_tasks" DROP COLUMN "message";--> statement-breakpoint
-- Stored answers are the exact JSON text first sent (jsonb reorders keys), so a replay and a task
-- read back are byte-identical to the first answer.
ALTER TABLE "a2a_tasks" ALTER COLUMN "outcome" SET DATA TYPE text USING "outcome"::text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ALTER COLUMN "response" SET DATA TYPE text USING "response"::text;--> statement-breakpoint
CREATE INDEX "a2a_tasks_created_idx" ON "a2a_tasks" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "a2a_payment_requests_pending_expiry_idx" ON "a2a_payment_requests" USING btree ("expires_at") WHERE status = 'pending';--> statement-breakpoint
-- Fresh standings: a new account has its standings row (registry, leaderboard, a2a.getInfo) from
-- the transaction that creates it, tick or no tick: the row the refresh would write at that moment
-- (no points history can exist yet), its reputation still to compute. The account is also marked
-- (0010), so the next refresh recomputes it like any change.
CREATE FUNCTION standings_add_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO standings (user_id, kind, listed, points, earned_points, referral_points, lifetime_pnl, refreshed_at, created_at)
  VALUES (NEW.id, CASE WHEN NEW.is_actor THEN 'actor' WHEN NEW.is_agent THEN 'agent' ELSE 'user' END,
    NOT NEW.is_banned, NEW.reputation_points, 0, 0, NEW.lifetime_pnl, NEW.created_at, NEW.created_at)
  ON CONFLICT (user_id) DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER standings_user_added AFTER INSERT ON users FOR EACH ROW WHEN (NOT NEW.is_pool_account) EXECUTE FUNCTION standings_add_user();
--> statement-breakpoint
-- Accounts that exist but were never refreshed (a server that never ticked) are listed now too;
-- their marks (0010's trigger) are still there, so the next refresh completes their rows.
INSERT INTO standings (user_id, kind, listed, points, earned_points, referral_points, lifetime_pnl, refreshed_at, created_at)
SELECT u.id, CASE WHEN u.is_actor THEN 'actor' WHEN u.is_agent THEN 'agent' ELSE 'user' END,
  NOT u.is_banned, u.reputation_points, 0, 0, u.lifetime_pnl, u.created_at, u.created_at
FROM users u
WHERE NOT u.is_pool_account
ON CONFLICT (user_id) DO NOTHING;
