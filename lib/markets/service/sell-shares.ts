/**
 * Selling shares back to the pool: one transaction that locks the market, then the position,
 * checks the shares are there (INSUFFICIENT_SHARES otherwise), prices the sale with the pure
 * CPMM, and writes the reserves, the position (its cost basis shrinks in proportion), the ledger
 * rows (pred_sell with the realised PnL, the referrer's fee), the trade and a price point.
 */
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { withTransaction, type Tx } from '@/db/client';
import { marketPositions, markets, trades } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { credit } from '@/lib/ledger/ledger';
import { parseAmount } from '@/lib/money/amount';
import { recordReferralFee } from '@/lib/referrals/fees';
import { referralEarner } from '@/lib/referrals/share';
import { dec, toDecimalString, toMoney, toNumber, type TDecimal } from '@/lib/money/decimal';
import { SHARE_SCALE, prices, quoteSell, toPool, type TOutcome } from '../cpmm';
import { sellThroughBook } from '../orders/take';
import { recordPricePoint } from './price-points';
import { assertTradable, lockMarket, poolColumns, emitMarketUpdate } from './shared';

/** The caller sells; their referrer (caller.referredById) earns half the fee. */
export type TSellInput = {
  caller: TCaller;
  marketId: string;
  shares: number | string;
  /** The main form names the position; the variant names the side. */
  positionId?: string;
  outcome?: TOutcome;
  /** Run inside this transaction instead of a new one (a pool's manager sells under the pool's lock). */
  tx?: Tx;
};

const parseShares = (shares: number | string): TDecimal => parseAmount(shares, { code: 'INVALID_TRADE_SIZE', label: 'Shares', scale: SHARE_SCALE });

const SELL_ALL_DUST = dec('1e-9');

export async function sellShares(input: TSellInput) {
  const { caller } = input;
  let shares = parseShares(input.shares);
  const run = async (tx: Tx) => {
    const market = await lockMarket(tx, input.marketId);
    const where = input.positionId
      ? and(eq(marketPositions.id, input.positionId), eq(marketPositions.userId, caller.userId), eq(marketPositions.marketId, market.id))
      : and(eq(marketPositions.userId, caller.userId), eq(marketPositions.marketId, market.id), eq(marketPositions.side, input.outcome!));
    const [position] = await tx.select().from(marketPositions).where(where).for('update');
    if (!position) {
      if (input.positionId) throw new AppError('NOT_FOUND', 'Position not found', { positionId: input.positionId });
      throw new AppError('INSUFFICIENT_SHARES', 'You hold no shares of this outcome', { requested: shares.toNumber(), available: 0 });
    }
    const held = dec(position.shares);
    // JSON numbers carry ~16 significant digits, positions 18 decimals: a request within dust of
    // the whole position means the whole position.
    if (shares.minus(held).abs().lte(SELL_ALL_DUST)) shares = held;
    if (shares.gt(held)) {
      throw new AppError('INSUFFICIENT_SHARES', 'Not enough shares to sell', { requested: shares.toNumber(), available: held.toNumber() });
    }
    assertTradable(market);
    // Resting orders buying this outcome: the sale runs through the matching engine.
    if ((position.side === 'YES' ? market.openYesOrders : market.openNoOrders) > 0) {
      return sellThroughBook(tx, { caller, market, position, shares, at: now() });
    }
    const parties = { payerId: caller.userId, referrerId: caller.referredById };
    const referrerId = referralEarner(parties);
    const side = position.side as TOutcome;
    const quote = quoteSell(toPool(market), side, shares, parties);
    if (quote.proceeds.lte(0)) {
      throw new AppError('INVALID_TRADE_SIZE', 'This sale is too small to pay anything out', { shares: shares.toNumber() });
    }
    const at = now();
    const cost = dec(position.costBasis);
    const removedCost = shares.eq(held) ? cost : toMoney(cost.times(shares).div(held));
    const realizedPnL = quote.proceeds.minus(removedCost);

    const { balanceAfter } = await credit(tx, {
      userId: caller.userId,
      amount: quote.proceeds,
      type: 'pred_sell',
      description: `Sold ${side} in "${market.text}"`,
      reference: { type: 'market', id: market.id },
      realizedPnL,
    });
    if (referrerId && quote.fees.referrer.gt(0)) {
      const paid = await credit(tx, {
        userId: referrerId,
        amount: quote.fees.referrer,
        type: 'referral_fee',
        description: 'Referral share of a trading fee',
        reference: { type: 'market', id: market.id },
      });
      await recordReferralFee(tx, {
        referrerId,
        referredUserId: caller.userId,
        source: 'predictions',
        amount: quote.fees.referrer,
        transactionId: paid.transactionId,
        at,
      });
    }
    const [updated] = await tx
      .update(markets)
      .set({ ...poolColumns(quote.pool), volume: sql`${markets.volume} + ${toDecimalString(quote.grossProceeds)}::numeric` })
      .where(eq(markets.id, market.id))
      .returning();
    const remaining = held.minus(shares);
    const [after] = await tx
      .update(marketPositions)
      .set({
        shares: toDecimalString(remaining),
        costBasis: toDecimalString(cost.minus(removedCost)),
        realizedPnL: sql`${marketPositions.realizedPnL} + ${toDecimalString(toMoney(realizedPnL))}::numeric`,
        updatedAt: at,
      })
      .where(eq(marketPositions.id, position.id))
      .returning();
    await tx.insert(trades).values({
      userId: caller.userId,
      marketId: market.id,
      positionId: position.id,
      side,
      action: 'sell',
      amount: toDecimalString(quote.grossProceeds),
      shares: toDecimalString(shares),
      price: quote.avgPrice.toDecimalPlaces(18).toFixed(),
      feeTotal: toDecimalString(quote.fees.total),
      feePlatform: toDecimalString(quote.fees.platform),
      feeReferrer: toDecimalString(quote.fees.referrer),
      yesPriceAfter: prices(quote.pool).yes.toDecimalPlaces(18).toFixed(),
      apiKeyId: caller.apiKeyId ?? null,
      createdAt: at,
    });
    await recordPricePoint(tx, updated!, 'trade');
    await emitMarketUpdate(tx, updated!);
    return { market: updated!, position: after!, quote, balanceAfter, realizedPnL };
  };
  const result = input.tx ? await run(input.tx) : await withTransaction(run);

  const p = prices(result.quote.pool);
  return {
    proceeds: toNumber(result.quote.proceeds),
    realizedPnL: toNumber(toMoney(result.realizedPnL)),
    remainingShares: toNumber(result.position.shares),
    newBalance: toDecimalString(result.balanceAfter),
    positionId: result.position.id,
    side: result.position.side,
    outcome: result.position.side,
    sharesSold: toNumber(result.quote.shares),
    avgPrice: toNumber(result.quote.avgPrice),
    fees: {
      total: toNumber(result.quote.fees.total),
      platform: toNumber(result.quote.fees.platform),
      referrer: toNumber(result.quote.fees.referrer),
    },
    yesPrice: toNumber(p.yes),
    noPrice: toNumber(p.no),
    marketId: result.market.id,
  };
}
