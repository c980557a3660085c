/**
 * P&L over time (README "P&L over time"): GET /api/users/{userId}/pnl-history and
 * a2a.getPnlHistory. The daily closes of equity_snapshots in the range (from the last close on or
 * before its start) plus a live "now" point from readAccountNumbers, summarized by series.ts.
 * Reads only: one statement for the closes, one for the account's numbers.
 *
 * Who sees what: P&L is public wherever it is shown (the track record, the P&L boards: no setting
 * hides it), so the series is too; equity is the owner's (lib/equity's `account` is owner and
 * administrators only), so for anyone else the equity figures are null. A banned account is not
 * listed on any board: its series is USER_NOT_FOUND to everyone but itself and administrators.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, rowsOf, type DbOrTx } from '@/db/client';
import { equitySnapshots } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { findUserByIdentifier } from '@/lib/users/queries';
import { rangeStartDay, summarizePnlSeries, type TPnlPoint, type TPnlRange, type TPnlSummary } from './series';
import { readAccountNumbers } from './service';

/** At most this many closes in a series (newest kept): about three years of days. */
export const MAX_CLOSES = 1000;

export type TPnlHistoryPoint = Omit<TPnlPoint, 'equity'> & { equity: string | null; isLive: boolean };
export type TPnlHistory = {
  userId: string;
  range: TPnlRange;
  /** Whether equity figures are shown (the owner and administrators). */
  showsEquity: boolean;
  points: TPnlHistoryPoint[];
  summary: Omit<TPnlSummary, 'startEquity' | 'endEquity' | 'maxDrawdown'> & {
    startEquity: string | null;
    endEquity: string | null;
    maxDrawdown: { fraction: string; amount: string | null };
  };
};

type TCloseRow = { at: string | Date; equity: string; pnl: string; pnl_predictions: string | null; pnl_perps: string | null; pnl_pools: string | null };

/** The account's closes from the last one on or before `startDay` (all when null), oldest first: one statement. */
export async function readCloses(db: DbOrTx, userId: string, startDay: string | null): Promise<TPnlPoint[]> {
  const from = startDay
    ? sql`and es.day >= coalesce((select max(x.day) from ${equitySnapshots} x where x.user_id = ${userId} and x.day <= ${startDay}::date), ${startDay}::date)`
    : sql``;
  const rows = rowsOf<TCloseRow>(
    await db.execute(sql`
      select * from (
        select es.day, es.created_at as at, es.equity::text as equity, coalesce(es.pnl, es.lifetime_pnl)::text as pnl,
          es.pnl_predictions::text as pnl_predictions, es.pnl_perps::text as pnl_perps, es.pnl_pools::text as pnl_pools
        from ${equitySnapshots} es where es.user_id = ${userId} ${from}
        order by es.day desc limit ${MAX_CLOSES}
      ) c order by c.day asc`),
  );
  return rows.map((r) => ({
    at: new Date(r.at).toISOString(),
    equity: r.equity,
    pnl: r.pnl,
    pnlPredictions: r.pnl_predictions,
    pnlPerps: r.pnl_perps,
    pnlPools: r.pnl_pools,
  }));
}

/** GET /api/users/{userId}/pnl-history: `userId` may be an id, a username or a shown wallet address. */
export async function getPnlHistory(input: { caller: TCaller | null; userId: string; range: TPnlRange }): Promise<TPnlHistory> {
  const db = await getDb();
  const user = await findUserByIdentifier(db, input.userId);
  const privileged = !!user && !!input.caller && (input.caller.userId === user.id || input.caller.isAdmin);
  if (!user || (user.isBanned && !privileged)) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: input.userId });
  const at = now();
  const [closes, account] = await Promise.all([readCloses(db, user.id, rangeStartDay(input.range, at)), readAccountNumbers(user.id, db)]);
  const points: TPnlPoint[] = [...closes];
  if (account) {
    points.push({
      at: at.toISOString(),
      equity: account.equity,
      pnl: account.pnl,
      pnlPredictions: account.products.predictions.pnl,
      pnlPerps: account.products.perps.pnl,
      pnlPools: account.products.pools.pnl,
    });
  }
  const summary = summarizePnlSeries(points, { fromOrigin: input.range === 'all' });
  const live = account ? points.length - 1 : -1;
  return {
    userId: user.id,
    range: input.range,
    showsEquity: privileged,
    points: points.map((p, i) => ({ ...p, equity: privileged ? p.equity : null, isLive: i === live })),
    summary: privileged
      ? summary
      : { ...summary, startEquity: null, endEquity: null, maxDrawdown: { fraction: summary.maxDrawdown.fraction, amount: null } },
  };
}
