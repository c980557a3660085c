/**
 * A market buy that meets resting orders (issue 32: limit orders add liquidity). The buy statement
 * (service/buy-shares.ts) reads the other outcome's open-order count from the market row it locks
 * and does nothing when there are orders; the buy then runs here, in one transaction under the
 * same lock: the match (match.ts, no limit) takes each order where it is cheaper than the maker,
 * and the buyer pays what the fills cost (at most the amount: a rest too small to buy anything
 * stays with the buyer). The answer has the buy route's shape.
 */
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '@/db/client';
import { marketPositions, trades, type TMarketPositionRow, type TMarketRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { type TBalanceChange } from '@/lib/ledger/ledger';
import { dec, toDecimalString, toMoney, toNumber, type TDecimal } from '@/lib/money/decimal';
import { recordReferralFee } from '@/lib/referrals/fees';
import { referralEarner, referralShare } from '@/lib/referrals/share';
import { prices, toPool, type TOutcome } from '../cpmm';
import { assertTradable, lockMarket } from '../service/shared';
import { creditAll, matchWithBook, settleMatch, settleTakerBuy } from './engine';
import { matchBuy, matchSell } from './match';

export async function buyThroughBook(tx: Tx, o: { caller: TCaller; marketId: string; outcome: TOutcome; amount: TDecimal; at: Date }) {
  const { caller, outcome, amount, at } = o;
  const market = await lockMarket(tx, o.marketId);
  assertTradable(market);
  const opposite: TOutcome = outcome === 'YES' ? 'NO' : 'YES';
  const { match } = await matchWithBook(tx, { marketId: market.id, outcome: opposite, at }, (book) =>
    matchBuy({ pool: toPool(market), outcome, amount, limit: null, takerId: caller.userId, book }),
  );
  if (match.used.lte(0) || match.got.lte(0)) throw new AppError('INVALID_TRADE_SIZE', 'This buy is too small to buy anything', { amount: amount.toFixed() });
  const orderAmounts = match.fills.reduce((s, f) => (f.counterparty === 'order' ? s.plus(f.orderAmount) : s), dec(0));
  const settled = await settleMatch(tx, { market, match, volume: match.used.plus(orderAmounts), at, text: market.text });
  const taken = await settleTakerBuy(tx, { caller, marketId: market.id, outcome, match, settled, at, description: `Bought ${outcome} in a prediction market` });
  const positionId = taken.positionId!;
  const fee = taken.fee;
  const [position] = rowsOf<{ shares: string; cost_basis: string }>(await tx.execute(sql`select shares, cost_basis from ${marketPositions} where id = ${positionId}`));
  const p = prices(toPool(settled.market));
  const positionShares = dec(position!.shares);
  return {
    position: {
      id: positionId,
      marketId: market.id,
      side: outcome,
      outcome,
      shares: toNumber(positionShares),
      avgPrice: toNumber(dec(position!.cost_basis).div(positionShares)),
      costBasis: toNumber(position!.cost_basis),
    },
    shares: toNumber(match.got),
    avgPrice: toNumber(match.used.div(match.got)),
    positionId,
    newBalance: toDecimalString(taken.balanceAfter!),
    fees: { total: toNumber(settled.makerFee), platform: toNumber(fee.rest), referrer: toNumber(fee.share) },
    yesPrice: toNumber(p.yes),
    noPrice: toNumber(p.no),
    marketId: market.id,
  };
}

/**
 * A sale that meets resting orders buying the same outcome (service/sell-shares.ts calls it under
 * its market and position locks when that outcome has open orders): each order pays its limit
 * where that beats the maker, the maker takes the rest. Answers what the sale route's own path
 * answers: the market after, the position after, a quote of the whole sale, the balance and P&L.
 */
export async function sellThroughBook(
  tx: Tx,
  o: {
    caller: TCaller;
    market: TMarketRow;
    position: TMarketPositionRow;
    shares: TDecimal;
    at: Date;
  },
) {
  const { caller, market, position, at } = o;
  const side = position.side as TOutcome;
  const { match } = await matchWithBook(tx, { marketId: market.id, outcome: side, at }, (book) =>
    matchSell({ pool: toPool(market), outcome: side, shares: o.shares, takerId: caller.userId, book }),
  );
  if (match.used.lte(0) || match.got.lte(0)) throw new AppError('INVALID_TRADE_SIZE', 'This sale is too small to pay anything out', { shares: toNumber(o.shares) });
  const gross = match.fills.reduce((s, f) => s.plus(f.counterparty === 'maker' ? f.amount.plus(f.fee) : f.amount), dec(0));
  const settled = await settleMatch(tx, { market, match, volume: gross, at, text: market.text });
  const parties = { payerId: caller.userId, referrerId: caller.referredById };
  const fee = referralShare(settled.makerFee, parties);
  const referrerId = referralEarner(parties);
  const sold = match.used;
  const held = dec(position.shares);
  const cost = dec(position.costBasis);
  const removedCost = sold.eq(held) ? cost : toMoney(cost.times(sold).div(held));
  const proceeds = match.got;
  const realizedPnL = proceeds.minus(removedCost);

  const changes: TBalanceChange[] = [
    ...settled.changes,
    { userId: caller.userId, amount: proceeds, type: 'pred_sell', description: `Sold ${side} in "${market.text}"`, reference: { type: 'market', id: market.id }, realizedPnL },
  ];
  const takerIdx = changes.length - 1;
  const referralIdx = referrerId && fee.share.gt(0) ? changes.length : -1;
  if (referralIdx >= 0) changes.push({ userId: referrerId!, amount: fee.share, type: 'referral_fee', description: 'Referral share of a trading fee', reference: { type: 'market', id: market.id } });
  const results = await creditAll(tx, changes);
  if (referralIdx >= 0) {
    await recordReferralFee(tx, { referrerId: referrerId!, referredUserId: caller.userId, source: 'predictions', amount: fee.share, transactionId: results[referralIdx]!.transactionId, at });
  }
  const [after] = await tx
    .update(marketPositions)
    .set({
      shares: toDecimalString(held.minus(sold)),
      costBasis: toDecimalString(cost.minus(removedCost)),
      realizedPnL: sql`${marketPositions.realizedPnL} + ${toDecimalString(toMoney(realizedPnL))}::numeric`,
      updatedAt: at,
    })
    .where(eq(marketPositions.id, position.id))
    .returning();
  const pool = toPool(settled.market);
  await tx.insert(trades).values({
    userId: caller.userId,
    marketId: market.id,
    positionId: position.id,
    side,
    action: 'sell',
    amount: toDecimalString(gross),
    shares: toDecimalString(sold),
    price: gross.div(sold).toDecimalPlaces(18).toFixed(),
    feeTotal: toDecimalString(settled.makerFee),
    feePlatform: toDecimalString(fee.rest),
    feeReferrer: toDecimalString(fee.share),
    yesPriceAfter: prices(pool).yes.toDecimalPlaces(18).toFixed(),
    apiKeyId: caller.apiKeyId ?? null,
    createdAt: at,
  });
  return {
    market: settled.market,
    position: after!,
    quote: { shares: sold, proceeds, avgPrice: gross.div(sold), fees: { total: settled.makerFee, platform: fee.rest, referrer: fee.share }, pool },
    balanceAfter: results[takerIdx]!.balanceAfter,
    realizedPnL,
  };
}
