/**
 * Marks set from outside a trade, and the marks' history. `setMarks` is the one writer of a mark
 * that no trade made: the administrator's price (set-price.ts), the tick's price step and its
 * arbitrage (lib/game/steps/prices.ts, arbitrage.ts). Trades move the mark inside their own
 * statement (open-position.ts, close-position.ts). `recordPerpTickPoints` is the tick's price
 * point per ticker, so charts move even without trades.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { organizations, perpMarkets, perpPricePoints } from '@/db/schema';
import { emitPerpUpdates } from './events';

export type TMark = {
  ticker: string;
  /** The new mark, a decimal string: what is stored, and (as a number) what `perp_update` says. */
  markPrice: string;
  /** The index announced with the mark (the tick's price step sends the organization's new price). */
  indexPrice?: number;
};

/**
 * Sets every given ticker's mark in ONE statement, records a price point per ticker set when
 * `pricePoint` names its source (its index price is the organization's current price), and
 * announces `perp_update` once per ticker set, in input order, all in the caller's transaction.
 * Returns the tickers set: a ticker without a perp market is left out, so the caller can refuse
 * it. The liquidation sweep the new marks may make due is the caller's, after its transaction
 * (liquidate.ts `liquidateTicker`).
 */
export async function setMarks(tx: DbOrTx, marks: readonly TMark[], at: Date, opts: { pricePoint?: 'admin' } = {}): Promise<string[]> {
  if (marks.length === 0) return [];
  if (new Set(marks.map((m) => m.ticker)).size !== marks.length) throw new Error('setMarks: a ticker is given twice');
  const ts = sql`${at.toISOString()}::timestamptz`;
  const values = sql.join(marks.map((m) => sql`(${m.ticker}, ${m.markPrice}::numeric)`), sql`, `);
  const point = opts.pricePoint
    ? sql`,
    point as (
      insert into ${perpPricePoints} (id, ticker, mark_price, index_price, source, created_at)
      select gen_random_uuid()::text, s.ticker, s.mark_price, o.current_price, ${opts.pricePoint}, ${ts}
      from moved s join ${organizations} o on o.ticker = s.ticker
    )`
    : sql``;
  const set = new Set(
    rowsOf<{ ticker: string }>(
      await tx.execute(sql`
        with moved as (
          update ${perpMarkets} p set mark_price = v.mark, updated_at = ${ts}
          from (values ${values}) as v(ticker, mark) where p.ticker = v.ticker
          returning p.ticker, p.mark_price
        )${point}
        select ticker from moved`),
    ).map((r) => r.ticker),
  );
  const moved = marks.filter((m) => set.has(m.ticker));
  await emitPerpUpdates(tx, moved.map((m) => ({ ticker: m.ticker, markPrice: Number(m.markPrice), indexPrice: m.indexPrice })), at);
  return moved.map((m) => m.ticker);
}

/** The tick's price point for every ticker at its current mark and index as of `at`, in one statement; returns how many. */
export async function recordPerpTickPoints(db: DbOrTx, at: Date): Promise<number> {
  const ts = sql`${at.toISOString()}::timestamptz`;
  return rowsOf(
    await db.execute(sql`
      insert into ${perpPricePoints} (id, ticker, mark_price, index_price, source, created_at)
      select gen_random_uuid()::text, m.ticker, m.mark_price, o.current_price, 'tick', ${ts}
      from ${perpMarkets} m join ${organizations} o on o.ticker = m.ticker
      returning id`),
  ).length;
}
