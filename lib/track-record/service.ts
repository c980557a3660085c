/**
 * A user's public track record (GET /api/users/{userId}/track-record) and trade history (GET
 * /api/users/{userId}/trades): open positions of both kinds (there is no setting hiding them:
 * the specification's positions endpoint already answers them for any user), P&L by lib/equity's
 * one definition (realized and unrealized, per product),
 * trade counts and calibration over resolved questions.
 *
 * Reuses rather than recomputes: open positions are lib/markets' getUserPositions, the history
 * is lib/markets' listTrades, and the Brier score and its count are lib/reputation's accuracy
 * inputs (loadReputationInputs). Only the chart's per-question forecasts are read here, with
 * the same definition (the amount-weighted mean of what each buy implied), and a test checks
 * their mean squared error equals reputation's Brier score. Reads only.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, rowsOf, type DbOrTx } from '@/db/client';
import { marketPositions, markets, perpPositions, perpTrades, trades } from '@/db/schema';
import { readAccountNumbers } from '@/lib/equity/service';
import { AppError } from '@/lib/errors/app-error';
import { getUserPositions, listTrades } from '@/lib/markets/service/read-markets';
import { toNumber } from '@/lib/money/decimal';
import { loadReputationInputs } from '@/lib/reputation/inputs';
import { findUserByIdentifier } from '@/lib/users/queries';
import { calibrationBuckets, type TForecast } from './calibration';

const findUserOrThrow = async (db: DbOrTx, ident: string) => {
  const user = await findUserByIdentifier(db, ident);
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: ident });
  return user;
};

/** Per resolved question the user bought in: the forecast their buys implied and the outcome. */
const findForecasts = async (db: DbOrTx, userId: string): Promise<TForecast[]> =>
  rowsOf<{ p: string; o: number | string }>(
    await db.execute(sql`
      select q.p, q.o from (
        select sum(t.amount * case when t.side = 'YES' then (1 + t.price) / 2 else (1 - t.price) / 2 end) / nullif(sum(t.amount), 0) as p,
               max(case when m.resolved_outcome = 'YES' then 1 else 0 end) as o
        from ${trades} t join ${markets} m on m.id = t.market_id
        where t.user_id = ${userId} and t.action = 'buy' and m.status = 'resolved'
        group by t.market_id
      ) q where q.p is not null`),
  ).map((r) => ({ p: Number(r.p), o: Number(r.o) === 1 ? 1 : 0 }));

type TTotalsRow = {
  pred_trades: number | string;
  perp_trades: number | string;
  resolved_markets: number | string;
  closed: number | string;
  wins: number | string;
};

/** Counts in one statement (indexed lookups per user). */
const findTotals = async (db: DbOrTx, userId: string) => {
  const [r] = rowsOf<TTotalsRow>(
    await db.execute(sql`
      select
        (select count(*) from ${trades} t where t.user_id = ${userId}) as pred_trades,
        (select count(*) from ${perpTrades} pt where pt.user_id = ${userId}) as perp_trades,
        (select count(distinct mp.market_id) from ${marketPositions} mp where mp.user_id = ${userId} and mp.settled_at is not null) as resolved_markets,
        (select count(*) from ${marketPositions} mp where mp.user_id = ${userId} and mp.settled_at is not null)
          + (select count(*) from ${perpPositions} pp where pp.user_id = ${userId} and pp.status <> 'open') as closed,
        (select count(*) from ${marketPositions} mp where mp.user_id = ${userId} and mp.settled_at is not null and mp.realized_pnl > 0)
          + (select count(*) from ${perpPositions} pp where pp.user_id = ${userId} and pp.status <> 'open' and pp.net_pnl > 0) as wins`),
  );
  const closed = Number(r!.closed);
  const wins = Number(r!.wins);
  return {
    trades: { total: Number(r!.pred_trades) + Number(r!.perp_trades), predictions: Number(r!.pred_trades), perps: Number(r!.perp_trades) },
    closedPositions: closed,
    winningPositions: wins,
    winRate: closed ? wins / closed : 0,
    resolvedMarkets: Number(r!.resolved_markets),
  };
};

/** GET /api/users/{userId}/track-record: `userId` may be an id, a username or a wallet address. */
export async function getTrackRecord(input: { userId: string }) {
  const db = await getDb();
  const user = await findUserOrThrow(db, input.userId);
  const [positions, totals, inputs, forecasts, account] = await Promise.all([
    getUserPositions(user.id),
    findTotals(db, user.id),
    loadReputationInputs(db, [user.id]),
    findForecasts(db, user.id),
    readAccountNumbers(user.id, db),
  ]);
  const accuracy = inputs.get(user.id);
  // P&L by the one definition (lib/equity): realized + unrealized per product, fees and pools included.
  const n = account!;
  const num = (v: string) => toNumber(v);
  return {
    userId: user.id,
    username: user.username,
    openPositions: { predictions: positions.predictions, perps: positions.perps },
    ...totals,
    unrealizedPnL: num(n.unrealizedPnL),
    realizedPnL: {
      total: num(n.realizedPnL),
      predictions: num(n.products.predictions.realized),
      perps: num(n.products.perps.realized),
      pools: num(n.products.pools.realized),
    },
    pnl: {
      total: num(n.pnl),
      predictions: num(n.products.predictions.pnl),
      perps: num(n.products.perps.pnl),
      pools: num(n.products.pools.pnl),
    },
    calibration: {
      brier: accuracy?.brier ?? null,
      resolvedForecasts: accuracy?.resolvedForecasts ?? 0,
      buckets: calibrationBuckets(forecasts),
    },
  };
}

/** GET /api/users/{userId}/trades: the user's trades of both kinds, newest first, by page. */
export async function listUserTrades(input: { userId: string; page: number; limit: number; type: 'all' | 'prediction' | 'perp' }) {
  const user = await findUserOrThrow(await getDb(), input.userId);
  const res = await listTrades({ limit: input.limit, offset: (input.page - 1) * input.limit, userId: user.id, type: input.type });
  return {
    trades: res.trades,
    pagination: { page: input.page, limit: input.limit, total: res.total, pages: Math.ceil(res.total / input.limit) },
  };
}
