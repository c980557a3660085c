/**
 * Pool accounting: pure, exact decimals, no I/O. The server's deposits and withdrawals and the
 * UI's deposit and withdraw previews call these same functions.
 *
 * A pool is a fund: its net asset value (NAV, `totalValue`) is its cash plus its positions marked
 * at current prices, split into `totalShares`. One share is worth `sharePrice = NAV / totalShares`.
 *
 * - A deposit buys shares at the share price: shares = amount × totalShares / NAV, rounded DOWN,
 *   so the deposit never lowers the share price of those already in (it can only nudge it up by
 *   less than one share unit's worth).
 * - A withdrawal sells shares back at the share price: value = shares × NAV / totalShares, rounded
 *   DOWN to the money scale, so those who stay never pay for someone else's rounding.
 * - Fees are charged on profit only, at exit, per share: fee = rate × max(0, value − cost), where
 *   cost is the withdrawn shares' part of their lot's cost basis. A lot's high-water mark is the
 *   share price it bought at (cost / shares); fees are never crystallised while a lot stays in, so a
 *   share pays once, on its own gain, when it leaves. A lot that lost money pays nothing, and a
 *   partial withdrawal cannot make the rest pay again for the same gain (the remaining shares keep
 *   their own, untouched cost).
 * - The manager's own seed lot pays no fee (it would pay itself).
 */
import type Decimal from 'decimal.js';
import { D, dec, type TDecimal, type TDecimalInput } from '@/lib/money/decimal';

/** Shares are kept to 18 places, money to 8 (as prediction shares and balances). */
export const SHARE_SCALE = 18;
export const MONEY_SCALE = 8;
/** The share price of an empty pool: the first lot (the manager's seed) buys one share per unit. */
export const INITIAL_SHARE_PRICE = dec(1);
/** The smallest deposit, and the smallest amount an NPC-invest withdrawal asks for. */
export const MIN_DEPOSIT = dec(1);
export const MAX_DEPOSIT = dec('1000000000000');
/** A request within this many shares of the whole lot means the whole lot (JSON numbers carry ~16 digits). */
export const WHOLE_LOT_DUST = dec('1e-9');

const floorShares = (d: TDecimal) => d.toDecimalPlaces(SHARE_SCALE, D.ROUND_DOWN);

/**
 * a × b / c rounded to `places` by `rounding`, exact up to that rounding. D keeps 40 significant
 * digits, and the product of an 18-place share count and an 8-place amount has up to 44: rounded,
 * it could move the last kept place of the quotient (a property test met one in a few thousand
 * deposits), while the SQL twins multiply exactly and divide in numeric(80, 40). So the product
 * and the quotient are taken at 90 digits and only the result is rounded, once.
 */
const WIDE = D.clone({ precision: 90 });
const mulDiv = (a: TDecimal, b: TDecimal, c: TDecimal, places: number, rounding: Decimal.Rounding) =>
  dec(new WIDE(a).times(b).div(c).toDecimalPlaces(places, rounding).toFixed());
const floorMoney = (d: TDecimal) => d.toDecimalPlaces(MONEY_SCALE, D.ROUND_DOWN);
const roundMoney = (d: TDecimal) => d.toDecimalPlaces(MONEY_SCALE, D.ROUND_HALF_EVEN);

/** What the accounting needs to know about a pool at one instant. */
export type TPoolState = { nav: TDecimalInput; totalShares: TDecimalInput };

/** NAV per share; INITIAL_SHARE_PRICE while no shares exist. */
export function sharePriceOf(p: TPoolState): TDecimal {
  const shares = dec(p.totalShares);
  if (shares.lte(0)) return INITIAL_SHARE_PRICE;
  return dec(p.nav).div(shares);
}

/**
 * A pool's value from its parts: cash, each perpetual's equity at the mark (collateral, with the
 * funding accrued since it opened, plus price PnL, never below zero: a position cannot owe more
 * than its collateral, it is liquidated first) and each prediction holding at the current price of
 * its side.
 */
export function navOf(parts: {
  cash: TDecimalInput;
  perps: readonly { collateral: TDecimalInput; pricePnL: TDecimalInput }[];
  predictions: readonly { shares: TDecimalInput; price: TDecimalInput }[];
}): TDecimal {
  let nav = dec(parts.cash);
  for (const p of parts.perps) nav = nav.plus(D.max(0, dec(p.collateral).plus(p.pricePnL)));
  for (const h of parts.predictions) nav = nav.plus(dec(h.shares).times(h.price));
  return floorMoney(nav);
}

export type TDepositQuote = {
  amount: TDecimal;
  shares: TDecimal;
  /** The price the shares were bought at (before the deposit; unchanged by it). */
  sharePrice: TDecimal;
  navAfter: TDecimal;
  totalSharesAfter: TDecimal;
};

/** Why a deposit of `amount` cannot be made into this pool, or null. */
export function depositProblem(p: TPoolState, amount: TDecimalInput): string | null {
  const a = dec(amount);
  if (!a.isFinite() || a.lt(MIN_DEPOSIT)) return `The minimum deposit is ${MIN_DEPOSIT.toFixed()}`;
  if (a.gt(MAX_DEPOSIT)) return `The maximum deposit is ${MAX_DEPOSIT.toFixed()}`;
  if (dec(p.totalShares).gt(0) && dec(p.nav).lte(0)) return 'This pool has lost its value and takes no deposits';
  return null;
}

export function quoteDeposit(p: TPoolState, amount: TDecimalInput): TDepositQuote {
  const a = roundMoney(dec(amount));
  const totalShares = dec(p.totalShares);
  const nav = dec(p.nav);
  const sharePrice = sharePriceOf(p);
  const shares = totalShares.lte(0) ? floorShares(a.div(INITIAL_SHARE_PRICE)) : mulDiv(a, totalShares, nav, SHARE_SCALE, D.ROUND_DOWN);
  return { amount: a, shares, sharePrice, navAfter: nav.plus(a), totalSharesAfter: totalShares.plus(shares) };
}

/** One lot: what a deposit bought and still holds. */
export type TLot = {
  /** Shares the lot still holds. */
  shares: TDecimalInput;
  /** What those shares cost (withdrawals remove their proportional part). */
  costBasis: TDecimalInput;
};

export type TWithdrawQuote = {
  shares: TDecimal;
  sharePrice: TDecimal;
  /** Gross value of the shares at the share price. */
  value: TDecimal;
  /** The withdrawn shares' part of the lot's cost basis. */
  cost: TDecimal;
  /** value − cost: the lot's profit (negative: loss) on these shares. */
  pnl: TDecimal;
  performanceFee: TDecimal;
  /** What the withdrawer receives: value − fee. */
  net: TDecimal;
  /** The lot afterwards. */
  remainingShares: TDecimal;
  remainingCost: TDecimal;
  navAfter: TDecimal;
  totalSharesAfter: TDecimal;
};

/** Why `shares` cannot be withdrawn from `lot`, or null. */
export function withdrawProblem(lot: TLot, shares: TDecimalInput): string | null {
  const s = dec(shares);
  const held = dec(lot.shares);
  if (!s.isFinite() || s.lte(0)) return 'Shares must be positive';
  if (held.lte(0)) return 'This deposit has been withdrawn in full';
  if (s.minus(held).gt(WHOLE_LOT_DUST)) return 'Not enough shares in this deposit';
  return null;
}

/** The shares a request means: within dust of the whole lot means the whole lot. */
export function sharesToWithdraw(lot: TLot, shares: TDecimalInput): TDecimal {
  const s = floorShares(dec(shares));
  const held = dec(lot.shares);
  return s.minus(held).abs().lte(WHOLE_LOT_DUST) ? held : s;
}

export function quoteWithdraw(
  p: TPoolState,
  lot: TLot,
  sharesRequested: TDecimalInput,
  opts: { feeRate: TDecimalInput; isManager?: boolean },): TWithdrawQuote {
  const shares = sharesToWithdraw(lot, sharesRequested);
  const held = dec(lot.shares);
  const basis = dec(lot.costBasis);
  const totalShares = dec(p.totalShares);
  const nav = dec(p.nav);
  const sharePrice = sharePriceOf(p);
  // The last shares of the pool take all of it; otherwise the pro-rata value, rounded down.
  const value = shares.gte(totalShares) ? floorMoney(nav) : mulDiv(shares, nav, totalShares, MONEY_SCALE, D.ROUND_DOWN);
  const whole = shares.eq(held);
  const cost = whole ? basis : mulDiv(basis, shares, held, MONEY_SCALE, D.ROUND_HALF_EVEN);
  const pnl = value.minus(cost);
  const performanceFee = opts.isManager ? dec(0) : floorMoney(dec(opts.feeRate).times(D.max(0, pnl)));
  return {
    shares,
    sharePrice,
    value,
    cost,
    pnl,
    performanceFee,
    net: value.minus(performanceFee),
    remainingShares: held.minus(shares),
    remainingCost: basis.minus(cost),
    navAfter: nav.minus(value),
    totalSharesAfter: totalShares.minus(shares),
  };
}

/** A lot as the FIFO planner sees it. */
export type TOwnedLot = TLot & { id: string };

/**
 * Withdrawing an amount rather than shares (NPC invest): takes shares from the caller's lots
 * oldest first until their value reaches `amount`. The shares are rounded UP so the withdrawer
 * gets at least what they asked for (never more than the lots hold); null when the lots are worth
 * less than `amount`.
 */
export function planWithdrawByAmount(p: TPoolState, lots: readonly TOwnedLot[], amount: TDecimalInput): { id: string; shares: TDecimal }[] | null {
  const price = sharePriceOf(p);
  if (price.lte(0)) return null;
  let needed = dec(amount).div(price).toDecimalPlaces(SHARE_SCALE, D.ROUND_UP);
  const held = lots.reduce((s, l) => s.plus(l.shares), dec(0));
  if (needed.gt(held)) {
    // Rounding up may ask for a hair more than everything: within dust, everything it is.
    if (needed.minus(held).gt(WHOLE_LOT_DUST) || floorMoney(held.times(price)).lt(dec(amount).minus('0.00000001'))) return null;
    needed = held;
  }
  const plan: { id: string; shares: TDecimal }[] = [];
  for (const lot of lots) {
    if (needed.lte(0)) break;
    const s = D.min(dec(lot.shares), needed);
    if (s.lte(0)) continue;
    plan.push({ id: lot.id, shares: s });
    needed = needed.minus(s);
  }
  return plan;
}
