/**
 * Buying YES or NO shares: one transaction that locks the market, then the buyer's balance
 * (through the ledger's conditional update), prices the trade with the pure CPMM, and writes the
 * reserves, the position, the ledger rows (pred_buy, the referrer's fee), the trade and a price point.
 * The market update is published after commit.
 */
import { eq, sql } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { marketPositions, markets, trades, users } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/http/errors';
import { credit, debit } from '@/lib/ledger/ledger';
import { dec, toDecimalString, toNumber, type TDecimal } from '@/lib/money/decimal';
import { MIN_BUY, prices, quoteBuy, toPool, type TOutcome } from '../cpmm';
import { assertTradable, lockMarket, poolColumns, publishMarketUpdate, recordPricePoint } from './shared';

export type TBuyInput = { userId: string; marketId: string; outcome: TOutcome; amount: number | string };

/** Validates a trade amount: positive, at least the minimum, at most 8 decimals are kept. */
export const parseBuyAmount = (amount: number | string): TDecimal => {
  let a: TDecimal;
  try {
    a = dec(amount);
  } catch {
    throw new AppError('INVALID_TRADE_SIZE', 'Trade size must be a positive number', { provided: amount });
  }
  if (!a.isFinite() || a.lte(0)) throw new AppError('INVALID_TRADE_SIZE', 'Trade size must be positive', { provided: amount });
  if (a.lt(MIN_BUY)) {
    throw new AppError('INVALID_TRADE_SIZE', `The minimum buy is ${MIN_BUY.toFixed()}`, { provided: amount, minimum: MIN_BUY.toNumber() });
  }
  return a.toDecimalPlaces(8, 1);
};

export const buyShares = async (input: TBuyInput) => {
  const amount = parseBuyAmount(input.amount);
  // Read before the market lock is taken: the referrer never changes during a trade.
  const [buyer] = await (await getDb()).select({ referredById: users.referredById }).from(users).where(eq(users.id, input.userId));
  if (!buyer) throw new AppError('USER_NOT_FOUND', 'User not found');
  const result = await withTransaction(async (tx) => {
    const market = await lockMarket(tx, input.marketId);
    assertTradable(market);
    const quote = quoteBuy(toPool(market), input.outcome, amount, !!buyer.referredById);
    const at = now();

    const sharesStr = toDecimalString(quote.shares);
    const amountStr = toDecimalString(amount);
    const after = { ...market, ...poolColumns(quote.pool) };
    // Every write below depends only on the locked market and the quote, so they are sent
    // together (postgres.js pipelines them on the transaction's connection, in order): the
    // market lock is held for one round trip instead of seven. A refused debit throws after
    // the batch and the whole transaction rolls back.
    const [debited, , updatedRows, positionRows] = await Promise.all([
      debit(tx, {
        userId: input.userId,
        amount,
        type: 'pred_buy',
        description: `Bought ${input.outcome} in "${market.text}"`,
        reference: { type: 'market', id: market.id },
      }),
      buyer.referredById && quote.fees.referrer.gt(0)
        ? credit(tx, {
            userId: buyer.referredById,
            amount: quote.fees.referrer,
            type: 'referral_fee',
            description: 'Referral share of a trading fee',
            reference: { type: 'market', id: market.id },
          })
        : undefined,
      tx
        .update(markets)
        .set({ ...poolColumns(quote.pool), volume: sql`${markets.volume} + ${amountStr}::numeric` })
        .where(eq(markets.id, market.id))
        .returning(),
      tx
        .insert(marketPositions)
        .values({
          userId: input.userId,
          marketId: market.id,
          side: input.outcome,
          shares: sharesStr,
          costBasis: amountStr,
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoUpdate({
          target: [marketPositions.userId, marketPositions.marketId, marketPositions.side],
          set: {
            shares: sql`${marketPositions.shares} + ${sharesStr}::numeric`,
            costBasis: sql`${marketPositions.costBasis} + ${amountStr}::numeric`,
            updatedAt: at,
          },
        })
        .returning(),
      tx.insert(trades).values({
        userId: input.userId,
        marketId: market.id,
        // The position row written just before in this same batch.
        positionId: sql`(select id from ${marketPositions} where user_id = ${input.userId} and market_id = ${market.id} and side = ${input.outcome})`,
        side: input.outcome,
        action: 'buy',
        amount: amountStr,
        shares: sharesStr,
        price: quote.avgPrice.toDecimalPlaces(18).toFixed(),
        feeTotal: toDecimalString(quote.fees.total),
        feePlatform: toDecimalString(quote.fees.platform),
        feeReferrer: toDecimalString(buyer.referredById ? quote.fees.referrer : dec(0)),
        yesPriceAfter: prices(quote.pool).yes.toDecimalPlaces(18).toFixed(),
        createdAt: at,
      }),
      recordPricePoint(tx, after, 'trade'),
    ]);
    const balanceAfter = debited.balanceAfter;
    const updated = updatedRows[0];
    const position = positionRows[0];
    return { market: updated!, position: position!, quote, balanceAfter };
  });

  publishMarketUpdate(result.market);
  const { position, quote } = result;
  const totalShares = dec(position.shares);
  const avgPrice = toNumber(dec(position.costBasis).div(totalShares));
  const p = prices(quote.pool);
  return {
    position: {
      id: position.id,
      marketId: position.marketId,
      side: position.side,
      outcome: position.side,
      shares: toNumber(totalShares),
      avgPrice,
      costBasis: toNumber(position.costBasis),
    },
    shares: toNumber(quote.shares),
    avgPrice: toNumber(quote.avgPrice),
    positionId: position.id,
    newBalance: toDecimalString(result.balanceAfter),
    fees: { total: toNumber(quote.fees.total), platform: toNumber(quote.fees.platform), referrer: toNumber(quote.fees.referrer) },
    yesPrice: toNumber(p.yes),
    noPrice: toNumber(p.no),
    marketId: result.market.id,
  };
};

