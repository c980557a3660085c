/**
 * A question's order book (GET /api/markets/predictions/{id}/orders): open, unexpired limit orders
 * summed by outcome and price, best (highest) price first, each level's unfilled currency. One
 * statement over the book index; at most BOOK_LEVELS levels a side.
 */
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { markets, predictionOrders } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { toNumber } from '@/lib/money/decimal';

export const BOOK_LEVELS = 50;

export async function readBook(marketId: string) {
  const db = await getDb();
  const [market] = await db.select({ id: markets.id }).from(markets).where(eq(markets.id, marketId));
  if (!market) throw new AppError('MARKET_NOT_FOUND', 'Market not found', { marketId });
  const rows = rowsOf<{ outcome: 'YES' | 'NO'; price: string; amount: string }>(
    await db.execute(sql`
      select outcome, price, amount from (
        select outcome, limit_price as price, sum(amount - filled_amount) as amount,
          row_number() over (partition by outcome order by limit_price desc) as level
        from ${predictionOrders}
        where market_id = ${marketId} and status in ('open', 'partially_filled')
          and (expires_at is null or expires_at > ${now().toISOString()}::timestamptz)
        group by outcome, limit_price
      ) l
      where level <= ${BOOK_LEVELS}
      order by outcome, price desc`),
  );
  const side = (o: 'YES' | 'NO') => rows.filter((r) => r.outcome === o).map((r) => ({ price: toNumber(r.price), amount: toNumber(r.amount) }));
  return { book: { YES: side('YES'), NO: side('NO') } };
}
