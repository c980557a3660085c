/**
 * Resolution (admin, and later the game tick): one transaction locks the market, marks it
 * resolved and settles every open position: each winning share pays 1 (pred_payout, realised PnL
 * booked), losing positions book their cost as a loss; open limit orders are cancelled and refunded
 * first. Idempotent: a market that is already
 * resolved is returned as it is and pays nothing again (concurrent calls queue on the lock).
 */
import 'server-only';
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import { withTransaction, type Tx } from '@/db/client';
import { marketPositions, markets } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { credit, recordRealizedPnL } from '@/lib/ledger/ledger';
import { dec, toDecimalString } from '@/lib/money/decimal';
import { payoutFor, type TOutcome } from '../cpmm';
import { toMarketDto } from '../dto';
import { cancelMarketOrders } from '../orders/close-orders';
import { notifyMarketResolved } from './notices';
import { recordPricePoint } from './price-points';
import { lockMarket, emitMarketUpdate } from './shared';

/**
 * Resolves a market; with `tx`, inside the caller's transaction (the game tick resolves due
 * questions in its own), otherwise in a transaction of its own.
 */
export async function resolveMarket(input: { marketId: string; outcome: TOutcome; tx?: Tx }) {
  const run = async (tx: Tx) => {
    const market = await lockMarket(tx, input.marketId);
    if (market.status === 'resolved') return { market, alreadyResolved: true, paid: 0, totalPayout: dec(0) };
    const at = now();
    // Open limit orders are cancelled and refunded before anything pays out.
    await cancelMarketOrders(tx, market, at);
    const [resolved] = await tx
      .update(markets)
      .set({ status: 'resolved', resolvedOutcome: input.outcome, resolvedAt: at })
      .where(eq(markets.id, market.id))
      .returning();
    // Positions in user order: the same order every settling writer uses.
    const open = await tx
      .select()
      .from(marketPositions)
      .where(and(eq(marketPositions.marketId, market.id), gt(marketPositions.shares, '0'), isNull(marketPositions.settledAt)))
      .orderBy(asc(marketPositions.userId), asc(marketPositions.side))
      .for('update');
    let paid = 0;
    let totalPayout = dec(0);
    for (const p of open) {
      const payout = payoutFor(p.side as TOutcome, input.outcome, p.shares);
      const pnl = payout.minus(p.costBasis);
      if (payout.gt(0)) {
        await credit(tx, {
          userId: p.userId,
          amount: payout,
          type: 'pred_payout',
          description: `${input.outcome} won: "${market.text}"`,
          reference: { type: 'market', id: market.id },
          realizedPnL: pnl,
        });
        paid++;
        totalPayout = totalPayout.plus(payout);
      } else {
        await recordRealizedPnL(tx, p.userId, pnl);
      }
      await tx
        .update(marketPositions)
        .set({
          payout: toDecimalString(payout),
          settledAt: at,
          realizedPnL: toDecimalString(dec(p.realizedPnL).plus(pnl)),
          updatedAt: at,
        })
        .where(eq(marketPositions.id, p.id));
    }
    // One `payout` or `resolution` notification per holder, set-based, in this transaction.
    await notifyMarketResolved(tx, { marketId: market.id, at });
    await recordPricePoint(tx, resolved!, 'resolve');
    await emitMarketUpdate(tx, resolved!);
    return { market: resolved!, alreadyResolved: false, paid, totalPayout };
  };
  const result = input.tx ? await run(input.tx) : await withTransaction(run);
  return {
    market: toMarketDto(result.market),
    alreadyResolved: result.alreadyResolved,
    positionsPaid: result.paid,
    totalPayout: result.totalPayout.toNumber(),
  };
}
