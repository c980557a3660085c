/**
 * The questions' price history (`market_price_points`, the charts): one point when a question is
 * created, traded (the sell here; the buy writes its own inside its one statement) or resolved,
 * and one per active question on every game tick, so charts move even without trades.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx, type Tx } from '@/db/client';
import { marketPricePoints, markets, type TMarketRow } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { marketPrices } from '../dto';
import { storedYesPriceSql } from '../sql';

/** One point for `m` as it stands, in the caller's transaction. */
export async function recordPricePoint(tx: Tx, m: TMarketRow, source: 'create' | 'trade' | 'tick' | 'resolve') {
  await tx.insert(marketPricePoints).values({
    marketId: m.id,
    yesPrice: marketPrices(m).yes.toDecimalPlaces(18).toFixed(),
    yesShares: m.yesShares,
    noShares: m.noShares,
    source,
    createdAt: now(),
  });
}

/** The tick's point for every active question as of `at`, in one statement; returns how many. */
export async function recordMarketTickPoints(db: DbOrTx, at: Date): Promise<number> {
  const ts = sql`${at.toISOString()}::timestamptz`;
  return rowsOf(
    await db.execute(sql`
      insert into ${marketPricePoints} (id, market_id, yes_price, yes_shares, no_shares, source, created_at)
      select gen_random_uuid()::text, m.id, ${storedYesPriceSql('m')}, m.yes_shares, m.no_shares, 'tick', ${ts}
      from ${markets} m where m.status = 'active'
      returning id`),
  ).length;
}
