/**
 * Arbitrage, the end of the pools step (steps/pools.ts): after the NPCs and pool managers traded,
 * before the pools' NAVs are recorded. A perp's mark that sits more than
 * ARBITRAGE_BAND away from its index (the organization's price) is brought back to the band's
 * edge, the way arbitrageurs trade the premium away on a real exchange. The band is the funding
 * formula's premium clamp (±0.05%), inside which the premium pays nothing: so the funding the
 * next period charges comes from the crowding of the book (lib/perps/math fundingRate), not from
 * the mark lagging the index, and only a premium traders make between ticks adds to it. It pulls
 * toward the index by the premium alone, never by the funding rate. One set-based update with
 * the `perp_update` announcements (lib/perps `setMarks`) in the transaction that locked the marks,
 * then the liquidation sweep (marks moved).
 * Deterministic: a function of the stored marks and prices only.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, withTransaction } from '@/db/client';
import { organizations, perpMarkets } from '@/db/schema';
import { liquidateTicker } from '@/lib/perps/service/liquidate';
import { setMarks } from '@/lib/perps/service/marks';
import { ARBITRAGE_BAND, closePremium } from '../prices';
import type { TTickContext } from '../types';

export async function runArbitrageStep(ctx: TTickContext) {
  const at = ctx.at;
  const moved = await withTransaction(async (tx) => {
    const rows = rowsOf<{ ticker: string; mark_price: string; index_price: string }>(
      await tx.execute(sql`
        select m.ticker, m.mark_price, o.current_price as index_price
        from ${perpMarkets} m join ${organizations} o on o.ticker = m.ticker
        order by m.ticker for update of m`),
    );
    const changes = rows
      .map((r) => ({ ticker: r.ticker, mark: Number(r.mark_price), next: closePremium(Number(r.mark_price), Number(r.index_price), ARBITRAGE_BAND) }))
      .filter((c) => c.next !== c.mark);
    return setMarks(
      tx,
      changes.map((c) => ({ ticker: c.ticker, markPrice: c.next.toFixed(8) })),
      at,
    );
  });
  const liquidated = moved.length ? await liquidateTicker() : [];
  return { tickers: moved.length, liquidations: liquidated.length };
}
