/** The administrator's mark price: set it, record a price point, run the liquidations it makes due. */
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { organizations, perpMarkets, perpPricePoints } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { dec, toDecimalString } from '@/lib/money/decimal';
import { PRICE_SCALE } from '../math';
import { emitPerpUpdate } from './events';
import { liquidateTicker } from './liquidate';
import { getTicker } from './read';

export const setMarkPrice = async (input: { ticker: string; price: number | string }) => {
  const price = toDecimalString(dec(input.price).toDecimalPlaces(PRICE_SCALE, 1));
  if (!dec(price).gt(0)) throw new AppError('VALIDATION_ERROR', 'price must be positive');
  const at = now();
  await withTransaction(async (tx) => {
    const [m] = await tx
      .update(perpMarkets)
      .set({ markPrice: price, updatedAt: at })
      .where(eq(perpMarkets.ticker, input.ticker))
      .returning({ ticker: perpMarkets.ticker });
    if (!m) throw new AppError('NOT_FOUND', `Unknown ticker ${input.ticker}`, { ticker: input.ticker });
    await tx.execute(sql`
      insert into ${perpPricePoints} (id, ticker, mark_price, index_price, source, created_at)
      select ${crypto.randomUUID()}, ${input.ticker}, ${price}::numeric, o.current_price, 'admin', ${at.toISOString()}::timestamptz
      from ${organizations} o where o.ticker = ${input.ticker}`);
    await emitPerpUpdate(tx, input.ticker, price, at);
  });
  const liquidated = await liquidateTicker(input.ticker, await getDb());
  return { ticker: await getTicker(input.ticker), liquidated: liquidated.length, liquidatedPositionIds: liquidated.map((p) => p.id) };
};
