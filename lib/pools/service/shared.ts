/**
 * What the pool operations share: the pool's row lock (every change of a pool's shares or cash
 * by this domain holds it, so deposits, withdrawals and the manager's trades on one pool run one
 * at a time and each sees an exact NAV), NAV points and the pool_update event.
 */
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/db/client';
import { poolNavPoints, pools, type TPoolRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { emitEvents } from '@/lib/events/outbox';
import { AppError } from '@/lib/errors/app-error';
import { toDecimalString, toNumber, type TDecimal } from '@/lib/money/decimal';
import { sharePriceOf, SHARE_SCALE } from '../math';

/** Locks a pool's row for the rest of the transaction; NOT_FOUND when there is no such pool. */
export const lockPool = async (tx: Tx, poolId: string): Promise<TPoolRow> => {
  const [pool] = await tx.select().from(pools).where(eq(pools.id, poolId)).for('update');
  if (!pool) throw new AppError('NOT_FOUND', 'Pool not found', { poolId });
  return pool;
};

/** The pool's own account as the caller of the trading services (never an admin, no referrer). */
export const poolAccountCaller = (pool: Pick<TPoolRow, 'accountUserId' | 'id'>): TCaller => ({
  userId: pool.accountUserId,
  username: `pool:${pool.id}`,
  isAdmin: false,
  isAgent: false,
  referredById: null,
});

export type TNavSnapshot = { poolId: string; nav: TDecimal; totalShares: TDecimal };

/**
 * Stores the pools' NAV (a point each for the chart, and the pool row's last-known value) and
 * announces it on `markets` as pool_update, in the caller's transaction.
 */
export const recordNav = async (db: DbOrTx, snapshots: readonly TNavSnapshot[], source: 'seed' | 'tick' | 'deposit' | 'withdraw' | 'trade', at: Date) => {
  if (snapshots.length === 0) return;
  const rows = snapshots.map((s) => {
    const price = sharePriceOf({ nav: s.nav, totalShares: s.totalShares }).toDecimalPlaces(SHARE_SCALE, 1);
    return { s, price };
  });
  await db.insert(poolNavPoints).values(
    rows.map(({ s, price }) => ({
      poolId: s.poolId,
      totalValue: toDecimalString(s.nav),
      totalShares: toDecimalString(s.totalShares),
      sharePrice: toDecimalString(price),
      source,
      createdAt: at,
    })),
  );
  const values = sql.join(
    rows.map(({ s }) => sql`(${s.poolId}, ${toDecimalString(s.nav)}::numeric)`),
    sql`, `,
  );
  await db.execute(sql`update ${pools} p set total_value = v.nav from (values ${values}) as v(id, nav) where p.id = v.id`);
  await emitEvents(
    db,
    'markets',
    rows.map(({ s, price }) => ({
      type: 'pool_update',
      data: {
        poolId: s.poolId,
        totalValue: toNumber(s.nav),
        sharePrice: toNumber(price),
        totalShares: toNumber(s.totalShares),
        timestamp: at.toISOString(),
      },
    })),
  );
};
