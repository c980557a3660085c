/**
 * A ticker's recent-trades tape: opens, closes and liquidations, newest first, anonymous (side,
 * action, notional, price, time), with `isMine` for the caller's own. Reads only.
 */
import 'server-only';
import { desc, eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { perpTrades } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { toNumber } from '@/lib/money/decimal';
import type { TPerpTapeTrade } from '../dto';
import { getTicker } from './read';

/** GET /api/markets/perps/tickers/{ticker}/trades: the newest `limit` trades of a ticker. */
export async function listTickerTrades({ ticker, limit, caller }: { ticker: string; limit: number; caller: TCaller | null }) {
  const t = await getTicker(ticker);
  const db = await getDb();
  const rows = await db
    .select({ trade: perpTrades })
    .from(perpTrades)
    .where(eq(perpTrades.ticker, t.ticker))
    .orderBy(desc(perpTrades.createdAt), desc(perpTrades.id))
    .limit(limit);
  const trades: TPerpTapeTrade[] = rows.map(({ trade: r }) => ({
    id: r.id,
    side: r.side,
    action: r.action,
    size: toNumber(r.size),
    price: toNumber(r.price),
    createdAt: r.createdAt.toISOString(),
    timestamp: r.createdAt.toISOString(),
    isMine: caller !== null && caller.userId === r.userId,
  }));
  return { ticker: t.ticker, trades };
}
