/**
 * A pool's manager trades with the pool's account through the same statements as any player
 * (the perps open and close, the prediction buy and sell), each inside a transaction that holds
 * the pool's row lock, so a deposit or withdrawal never prices the pool halfway through a trade.
 * A trade the engines refuse (not enough cash, a closed market) changes nothing and answers
 * `ok: false`. After commit, the moved ticker is swept for liquidations as after any trade.
 */
import 'server-only';
import { withTransaction, rowsOf } from '@/db/client';
import { isAppError } from '@/lib/errors/app-error';
import { dec, toDecimalString } from '@/lib/money/decimal';
import { buildBuyStatement } from '@/lib/markets/service/buy-shares';
import { buyThroughBook } from '@/lib/markets/orders/take';
import { sellShares } from '@/lib/markets/service/sell-shares';
import type { TOutcome } from '@/lib/markets/cpmm';
import { MIN_BUY } from '@/lib/markets/cpmm';
import { orderProblem, type TPerpSide } from '@/lib/perps/math';
import { buildCloseStatement } from '@/lib/perps/service/close-position';
import { buildOpenStatement } from '@/lib/perps/service/open-position';
import { liquidateAfterTrade } from '@/lib/perps/service/liquidate';
import { now } from '@/lib/clock/clock';
import { lockPool, poolAccountCaller } from './shared';

export type TPoolTradeResult = { ok: boolean; id: string | null };

/** `sweep: false` leaves the liquidation sweep to the caller (the tick sweeps each moved ticker once). */
export type TPoolTradeOptions = { sweep?: boolean };

export async function openPoolPerp(
  o: { poolId: string; ticker: string; side: TPerpSide; size: string; leverage: string },
  opts: TPoolTradeOptions = {},): Promise<TPoolTradeResult> {
  if (orderProblem(o)) return { ok: false, id: null };
  const size = toDecimalString(dec(o.size).toDecimalPlaces(8, 1));
  const r = await withTransaction(async (tx) => {
    const pool = await lockPool(tx, o.poolId);
    const { statement } = buildOpenStatement({ userId: pool.accountUserId, ticker: o.ticker, side: o.side, size, leverage: o.leverage, at: now() });
    const [row] = rowsOf<{ id: string | null; balance_after: string | null }>(await tx.execute(statement));
    return row?.id && row.balance_after !== null ? { ok: true, id: row.id } : { ok: false, id: null };
  });
  if (r.ok && opts.sweep !== false) await liquidateAfterTrade(o.ticker);
  return r;
}

export async function closePoolPerp(o: { poolId: string; positionId: string; ticker: string }, opts: TPoolTradeOptions = {}): Promise<TPoolTradeResult> {
  const r = await withTransaction(async (tx) => {
    const pool = await lockPool(tx, o.poolId);
    const { statement } = buildCloseStatement({ userId: pool.accountUserId, positionId: o.positionId, at: now() });
    const [row] = rowsOf<{ id: string | null }>(await tx.execute(statement));
    return row?.id ? { ok: true, id: row.id } : { ok: false, id: null };
  });
  if (r.ok && opts.sweep !== false) await liquidateAfterTrade(o.ticker);
  return r;
}

export async function buyPoolPrediction(o: { poolId: string; marketId: string; outcome: TOutcome; amount: string }): Promise<TPoolTradeResult> {
  const amount = dec(o.amount).toDecimalPlaces(8, 1);
  if (amount.lt(MIN_BUY)) return { ok: false, id: null };
  return withTransaction(async (tx) => {
    const pool = await lockPool(tx, o.poolId);
    const at = now();
    const { statement } = buildBuyStatement({ userId: pool.accountUserId, marketId: o.marketId, outcome: o.outcome, amount, referrerId: null, at });
    const [row] = rowsOf<{ position_id: string | null; balance_after: string | null; market_open: number | string; book: number | string | null }>(await tx.execute(statement));
    if (row && Number(row.market_open) > 0 && Number(row.book ?? 0) > 0) {
      // Resting orders on the other outcome: the buy goes through the matching engine, still under the pool's lock.
      try {
        // A savepoint: a refusal (the pool short of cash) undoes the engine's writes, not the pool's lock.
        const r = await tx.transaction((sp) => buyThroughBook(sp, { caller: poolAccountCaller(pool), marketId: o.marketId, outcome: o.outcome, amount, at }));
        return { ok: true, id: r.positionId };
      } catch (e) {
        if (isAppError(e)) return { ok: false, id: null };
        throw e;
      }
    }
    return row?.position_id && row.balance_after !== null ? { ok: true, id: row.position_id } : { ok: false, id: null };
  });
}

export async function sellPoolPrediction(o: { poolId: string; marketId: string; outcome: TOutcome; shares: string }): Promise<TPoolTradeResult> {
  try {
    return await withTransaction(async (tx) => {
      const pool = await lockPool(tx, o.poolId);
      const r = await sellShares({ caller: poolAccountCaller(pool), marketId: o.marketId, outcome: o.outcome, shares: o.shares, tx });
      return { ok: true, id: r.positionId };
    });
  } catch (e) {
    // A market that closed or shares already gone: the manager's plan was stale, nothing moved.
    if (isAppError(e)) return { ok: false, id: null };
    throw e;
  }
}
