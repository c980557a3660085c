/** Pieces every market write shares: the market lock, the tradable check, pool columns, events (price points: price-points.ts). */
import 'server-only';
import { eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/db/client';
import { markets, type TMarketRow } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { emitEvent } from '@/lib/events/outbox';
import { AppError } from '@/lib/errors/app-error';
import { toDecimalString, toNumber } from '@/lib/money/decimal';
import { toPublic, type TPool } from '../cpmm';
import { marketPrices } from '../dto';

/**
 * Locks the market row for the rest of the transaction. Every market write takes this lock first
 * (then user rows, then positions), so writers of one market queue up and never deadlock.
 */
export async function lockMarket(tx: Tx, marketId: string): Promise<TMarketRow> {
  const [m] = await tx.select().from(markets).where(eq(markets.id, marketId)).for('update');
  if (!m) throw new AppError('NOT_FOUND', 'Market not found', { marketId });
  return m;
}

/** Resolved markets and markets past their resolution date take no more trades. */
export function assertTradable(m: TMarketRow) {
  if (m.status === 'resolved') {
    throw new AppError('MARKET_CLOSED', 'This market is resolved and no longer trades', {
      marketId: m.id,
      status: m.status,
      outcome: m.resolvedOutcome,
    });
  }
  if (m.resolutionDate.getTime() <= now().getTime()) {
    throw new AppError('MARKET_CLOSED', 'This market has passed its resolution date and no longer trades', {
      marketId: m.id,
      resolutionDate: m.resolutionDate.toISOString(),
    });
  }
}

/** Writes the pool's new public weights onto the market row. */
export function poolColumns(pool: TPool) {
  const pub = toPublic(pool);
  return { yesShares: toDecimalString(pub.yesShares), noShares: toDecimalString(pub.noShares) };
}

/** Announces a market's new state on the markets channel, in the transaction that changed it. */
export async function emitMarketUpdate(tx: DbOrTx, m: Pick<TMarketRow, 'id' | 'yesShares' | 'noShares' | 'status' | 'resolvedOutcome'>) {
  const p = marketPrices(m);
  await emitEvent(tx, 'markets', {
    type: 'market_update',
    data: {
      marketId: m.id,
      yesPrice: toNumber(p.yes),
      noPrice: toNumber(p.no),
      yesShares: toNumber(m.yesShares),
      noShares: toNumber(m.noShares),
      timestamp: now().toISOString(),
    },
  });
}
