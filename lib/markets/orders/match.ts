/**
 * The matching engine's arithmetic (issue 32), pure and exact: what a buy or a sale of one
 * outcome fills against the question's resting limit orders and its market maker, in price order.
 *
 * A resting order buys an outcome at no more than its limit q. Against a buyer of the *other*
 * outcome at e = 1 − q it mints complete pairs: each pair costs exactly 1, the order pays q and
 * the buyer e, and each gets one share of its outcome (nothing passes through the pool, no fee).
 * Against a seller of the *same* outcome it simply buys the seller's shares at q. Limits are
 * cents to 4 decimal places and order fills are whole 0.0001 shares, so q·s and e·s are exact
 * money: a fill's two payments always sum to the pairs it mints, to the last unit.
 *
 * A taker takes whichever is cheaper for it, share by share: the maker up to the price where the
 * next resting order is at least as good, then that order, and so on; a limit caps it (the maker's
 * part so that its average price with the fee stays within the limit). Orders at one price fill
 * oldest first. A taker never meets its own orders (they are skipped, not filled).
 *
 * The service (service/place-order.ts, service/take.ts) locks the market and the orders it reads,
 * runs these functions and writes what they answer; their property tests are match.test.ts.
 */
import { D, dec, type TDecimal } from '@/lib/money/decimal';
import { buyAmountToPrice, priceOf, quoteBuy, quoteSell, sellSharesToPrice, splitFee, type TOutcome, type TPool } from '../cpmm';

/** Order fills are whole ten-thousandths of a share; limits have at most 4 decimal places. */
export const ORDER_SHARE_SCALE = 4;
export const LIMIT_PRICE_SCALE = 4;
export const MIN_LIMIT_PRICE = dec('0.01');
export const MAX_LIMIT_PRICE = dec('0.99');
/** The smallest piece bought from or sold to the market maker inside a match. */
export const MIN_MAKER_PIECE = dec('0.01');
/**
 * The maker's part of a limited buy stops where its marginal price reaches limit × (1 − this):
 * its average price, fee (rounded up) included, then stays within the limit for any piece of at
 * least MIN_MAKER_PIECE (fee/gross ≤ 0.001 + 1e-6 < 0.0011).
 */
const MAKER_LIMIT_MARGIN = dec('0.0011');

export type TRestingOrder = {
  id: string;
  userId: string;
  outcome: TOutcome;
  limitPrice: TDecimal;
  /** Unfilled currency still reserved. */
  remaining: TDecimal;
};

export type TMakerFill = {
  counterparty: 'maker';
  /** Gross amount (fee included) for a buy; shares sold for a sale: see amount/shares. */
  amount: TDecimal;
  shares: TDecimal;
  fee: TDecimal;
  /** Per share, fee included (amount / shares). */
  price: TDecimal;
};

export type TOrderFill = {
  counterparty: 'order';
  orderId: string;
  ownerId: string;
  /** What the taker pays (buy) or receives (sale) per share. */
  price: TDecimal;
  shares: TDecimal;
  /** The taker's side of the fill: paid for a buy, received for a sale. */
  amount: TDecimal;
  /** What the resting order spends (from its reserve). */
  orderAmount: TDecimal;
  /** The outcome the resting order receives `shares` of. */
  orderOutcome: TOutcome;
};

export type TFill = TMakerFill | TOrderFill;

export type TMatch = {
  fills: TFill[];
  /** Buy: currency spent. Sale: shares sold. */
  used: TDecimal;
  /** Buy: shares received. Sale: proceeds after fees. */
  got: TDecimal;
  pool: TPool;
  /** Each touched order's unfilled currency after the match. */
  orderRemaining: Map<string, TDecimal>;
};

const other = (o: TOutcome): TOutcome => (o === 'YES' ? 'NO' : 'YES');
const ONE = dec(1);
const TICK = dec(1).div(10 ** ORDER_SHARE_SCALE);
const floorShares = (v: TDecimal) => v.toDecimalPlaces(ORDER_SHARE_SCALE, D.ROUND_DOWN);

/** A limit price is 0.01 to 0.99 with at most 4 decimal places. */
export function isValidLimitPrice(p: TDecimal) {
  return p.isFinite() && p.gte(MIN_LIMIT_PRICE) && p.lte(MAX_LIMIT_PRICE) && p.decimalPlaces() <= LIMIT_PRICE_SCALE;
}

/** Best first: the highest limit, then the earliest (the input's order among equal prices). */
export function sortBook(orders: readonly TRestingOrder[]) {
  return orders.map((o, i) => ({ o, i })).sort((a, b) => b.o.limitPrice.cmp(a.o.limitPrice) || a.i - b.i).map((x) => x.o);
}

/** Whether an order's remaining reserve still buys at least one tick of shares at its limit. */
export function canStillFill(o: { limitPrice: TDecimal; remaining: TDecimal }) {
  return o.remaining.gte(o.limitPrice.times(TICK));
}

/**
 * A buy of `outcome` for up to `amount`, at no more than `limit` a share (null: a market buy, as
 * the buy route's). `book` holds resting orders of either outcome; only the other outcome's can
 * fill a buy, and never the taker's own.
 */
export function matchBuy(input: {
  pool: TPool;
  outcome: TOutcome;
  amount: TDecimal;
  limit: TDecimal | null;
  takerId: string;
  book: readonly TRestingOrder[];
}): TMatch {
  const { outcome, limit, takerId } = input;
  let pool = input.pool;
  let remaining = input.amount;
  const fills: TFill[] = [];
  const left = new Map<string, TDecimal>();
  const queue = sortBook(input.book.filter((o) => o.outcome === other(outcome) && o.userId !== takerId));
  for (const o of queue) left.set(o.id, o.remaining);
  const makerCap = limit ? limit.times(ONE.minus(MAKER_LIMIT_MARGIN)) : null;
  let qi = 0;
  let shares = dec(0);

  while (remaining.gt(0)) {
    // The best order this buy may still take.
    while (qi < queue.length && !canStillFill({ limitPrice: queue[qi]!.limitPrice, remaining: left.get(queue[qi]!.id)! })) qi++;
    let best = queue[qi];
    if (best && limit && ONE.minus(best.limitPrice).gt(limit)) best = undefined;
    const offer = best ? ONE.minus(best.limitPrice) : null;

    // The maker first, while it is cheaper than the best order (and within the limit).
    const target = offer && makerCap ? D.min(offer, makerCap) : (offer ?? makerCap);
    let piece = dec(0);
    if (!target) piece = remaining;
    else if (priceOf(pool, outcome).lt(target)) piece = D.min(remaining, buyAmountToPrice(pool, outcome, target));
    if (piece.gt(0) && (piece.gte(MIN_MAKER_PIECE) || (!target && piece.eq(remaining)))) {
      const q = safeQuoteBuy(pool, outcome, piece);
      if (q && (!limit || q.avgPrice.lte(limit))) {
        fills.push({ counterparty: 'maker', amount: piece, shares: q.shares, fee: q.fees.total, price: q.avgPrice });
        pool = q.pool;
        remaining = remaining.minus(piece);
        shares = shares.plus(q.shares);
        continue;
      }
    }

    if (!best || !offer) break;
    const q = best.limitPrice;
    const orderLeft = left.get(best.id)!;
    const s = floorShares(D.min(remaining.div(offer), orderLeft.div(q)));
    if (s.lte(0)) {
      if (remaining.div(offer).lt(TICK)) break; // the taker's rest buys less than a tick
      qi++; // the order's rest buys less than a tick: it is done
      continue;
    }
    const paid = s.times(offer);
    const orderPaid = s.times(q);
    fills.push({ counterparty: 'order', orderId: best.id, ownerId: best.userId, price: offer, shares: s, amount: paid, orderAmount: orderPaid, orderOutcome: best.outcome });
    left.set(best.id, orderLeft.minus(orderPaid));
    remaining = remaining.minus(paid);
    shares = shares.plus(s);
  }
  return { fills, used: input.amount.minus(remaining), got: shares, pool, orderRemaining: touched(left, fills) };
}

/**
 * A sale of `shares` of `outcome`, as the sell route's (no limit): to resting orders that buy the
 * same outcome where they pay at least the maker's marginal price, else to the maker down to the
 * next order's price. Fees apply to the maker's part only, as on a buy.
 */
export function matchSell(input: { pool: TPool; outcome: TOutcome; shares: TDecimal; takerId: string; book: readonly TRestingOrder[] }): TMatch {
  const { outcome, takerId } = input;
  let pool = input.pool;
  let remaining = input.shares;
  const fills: TFill[] = [];
  const left = new Map<string, TDecimal>();
  const queue = sortBook(input.book.filter((o) => o.outcome === outcome && o.userId !== takerId));
  for (const o of queue) left.set(o.id, o.remaining);
  let qi = 0;
  let proceeds = dec(0);

  while (remaining.gt(0)) {
    while (qi < queue.length && !canStillFill({ limitPrice: queue[qi]!.limitPrice, remaining: left.get(queue[qi]!.id)! })) qi++;
    const best = queue[qi];
    let piece = dec(0);
    if (!best) piece = remaining;
    else if (priceOf(pool, outcome).gt(best.limitPrice)) piece = D.min(remaining, sellSharesToPrice(pool, outcome, best.limitPrice));
    if (piece.gt(0)) {
      const q = safeQuoteSell(pool, outcome, piece);
      if (q && q.proceeds.gte(0)) {
        fills.push({ counterparty: 'maker', amount: q.proceeds, shares: piece, fee: q.fees.total, price: q.proceeds.div(piece) });
        pool = q.pool;
        remaining = remaining.minus(piece);
        proceeds = proceeds.plus(q.proceeds);
        continue;
      }
      if (!best) break;
    }
    if (!best) break;
    const price = best.limitPrice;
    const orderLeft = left.get(best.id)!;
    const s = floorShares(D.min(remaining, orderLeft.div(price)));
    if (s.lte(0)) {
      if (remaining.gte(TICK)) {
        qi++; // the order's rest buys less than a tick: it is done
        continue;
      }
      // Less than a tick of shares left: the maker takes it, so the sale is whole.
      const q = safeQuoteSell(pool, outcome, remaining);
      if (!q) break;
      fills.push({ counterparty: 'maker', amount: q.proceeds, shares: remaining, fee: q.fees.total, price: q.proceeds.div(remaining) });
      pool = q.pool;
      proceeds = proceeds.plus(q.proceeds);
      remaining = dec(0);
      break;
    }
    const paid = s.times(price);
    fills.push({ counterparty: 'order', orderId: best.id, ownerId: best.userId, price, shares: s, amount: paid, orderAmount: paid, orderOutcome: outcome });
    left.set(best.id, orderLeft.minus(paid));
    remaining = remaining.minus(s);
    proceeds = proceeds.plus(paid);
  }
  return { fills, used: input.shares.minus(remaining), got: proceeds, pool, orderRemaining: touched(left, fills) };
}

function touched(left: Map<string, TDecimal>, fills: TFill[]) {
  const out = new Map<string, TDecimal>();
  for (const f of fills) if (f.counterparty === 'order') out.set(f.orderId, left.get(f.orderId)!);
  return out;
}

/** quoteBuy, or null where the piece is too small to buy anything after its fee. */
function safeQuoteBuy(pool: TPool, outcome: TOutcome, gross: TDecimal) {
  if (gross.minus(splitFee(gross).total).lte(0)) return null;
  const q = quoteBuy(pool, outcome, gross);
  return q.netAmount.gt(0) && q.shares.gt(0) ? q : null;
}

function safeQuoteSell(pool: TPool, outcome: TOutcome, shares: TDecimal) {
  const q = quoteSell(pool, outcome, shares);
  return q.grossProceeds.gt(0) ? q : null;
}
