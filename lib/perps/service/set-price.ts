/** The administrator's mark price: set it, record a price point, run the liquidations it makes due. */
import 'server-only';
import { getDb, withTransaction } from '@/db/client';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { dec, toDecimalString } from '@/lib/money/decimal';
import { PRICE_SCALE } from '../math';
import { liquidateTicker } from './liquidate';
import { setMarks } from './marks';
import { getTicker } from './read';

export async function setMarkPrice(input: { ticker: string; price: number | string }) {
  const price = toDecimalString(dec(input.price).toDecimalPlaces(PRICE_SCALE, 1));
  if (!dec(price).gt(0)) throw new AppError('VALIDATION_ERROR', 'price must be positive');
  const at = now();
  await withTransaction(async (tx) => {
    const set = await setMarks(tx, [{ ticker: input.ticker, markPrice: price }], at, { pricePoint: 'admin' });
    if (!set.length) throw new AppError('NOT_FOUND', `Unknown ticker ${input.ticker}`, { ticker: input.ticker });
  });
  const liquidated = await liquidateTicker(input.ticker, await getDb());
  return { ticker: await getTicker(input.ticker), liquidated: liquidated.length, liquidatedPositionIds: liquidated.map((p) => p.id) };
}
