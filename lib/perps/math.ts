/**
 * Perpetual futures arithmetic. Pure: no I/O, exact decimals. The server (whose SQL in
 * lib/perps/service/sql.ts mirrors these formulas digit for digit; a property test checks it)
 * and the UI's order preview both call this. Conventions in lib/perps/README.md:
 *
 * - size is notional in currency at the fill price; units = size / entry.
 * - margin = size / leverage; fee = 0.1% of notional on open and on close.
 * - A trade fills at the price after its own impact (size / depth, capped), paid by the trader:
 *   buying (open long, close short) fills above the mark, selling below. So opening and closing
 *   at once always loses the impact twice plus both fees.
 * - Isolated margin, maintenance 0.5% of notional at the mark. The liquidation price is where
 *   collateral + unrealized PnL = maintenance. With collateral = margin this is
 *   entry·(1 − 1/L)/(1 − m) for a long and entry·(1 + 1/L)/(1 + m) for a short.
 * - Funding per 8-hour period follows crowding, as on perpetual exchanges (fundingRate below):
 *     premium   P = (mark − index) / index
 *     premium part = P + clamp(I − P, ±0.05%)          (Hyperliquid's formula; interest I = 0 here)
 *     crowding part = 0.05% × (L − S) / (L + S)        (L, S: long and short open interest at the mark)
 *     rate = clamp(trunc(premium part + crowding part, 18), ±0.1%)
 *   A balanced book with the mark inside ±0.05% of the index pays nothing; the crowded side pays
 *   the other; a premium beyond the clamp adds to it. A position pays units × mark × rate (a long
 *   pays when the rate is positive, a short receives the same). It is kept as a cumulative
 *   funding index per ticker (Σ mark × rate over the periods paid, per unit): a position's funding
 *   is units × (index − its entry index), settled on close and on liquidation; meanwhile its
 *   effective collateral and liquidation price add that accrual. When the book is unbalanced the
 *   crowded side pays more than the other side receives: the house, counterparty of the net
 *   position (every perp here is house-banked), keeps (L − S) × rate, as a trader on the
 *   uncrowded side would (lib/perps/README.md, "Funding from crowding").
 *
 * Rounding: prices and units are truncated to 18 places, money computed here to 8 places
 * (truncation, as PostgreSQL's trunc). Margin and the opening fee are rounded half-even.
 */
import { D, dec, toMoney, type TDecimal, type TDecimalInput } from '@/lib/money/decimal';

export type TPerpSide = 'long' | 'short';

export const PRICE_SCALE = 18;
export const MONEY_SCALE = 8;
export const PERP_FEE_RATE = dec('0.001');
export const MAINTENANCE_RATE = dec('0.005');
export const MIN_LEVERAGE = 1;
export const MAX_LEVERAGE = 100;
/** Above this leverage the order panel warns. */
export const HIGH_LEVERAGE = 25;
export const MIN_SIZE = dec(1);
export const MAX_SIZE = dec('1000000000');
/** The largest move a single trade makes to the mark (1%). */
export const MAX_IMPACT = dec('0.01');
/**
 * The interest component of funding per 8 hours. Zero: cash earns no interest in this game, and a
 * standing rate would pay whoever always holds one side whatever the book (Hyperliquid uses 0.01%).
 */
export const FUNDING_INTEREST_RATE = dec(0);
/** How far the rate may sit from the premium before the premium counts: Hyperliquid's clamp, ±0.05% per 8 h. */
export const FUNDING_PREMIUM_CLAMP = dec('0.0005');
/** The crowding part per 8 h of a one-sided book: it is this times the imbalance (L − S) / (L + S). */
export const FUNDING_IMBALANCE_RATE = dec('0.0005');
/** The rate is within ±0.1% per 8 hours (about ±110% a year). */
export const FUNDING_RATE_CAP = dec('0.001');
export const FUNDING_PERIOD_MS = 8 * 60 * 60 * 1000;
/** Three 8-hour periods a day: an 8-hour rate times this is its simple annual rate. */
export const FUNDING_PERIODS_PER_YEAR = 3 * 365;
/** Default market depth: a notional of this size would move the mark by 100% (before the cap). */
export const DEFAULT_DEPTH = dec('5000000');

const floorPrice = (d: TDecimal) => d.toDecimalPlaces(PRICE_SCALE, D.ROUND_DOWN);
const floorMoney = (d: TDecimal) => d.toDecimalPlaces(MONEY_SCALE, D.ROUND_DOWN);
const direction = (side: TPerpSide) => (side === 'long' ? 1 : -1);
const max0 = (d: TDecimal) => (d.isNegative() ? dec(0) : d);

/** A trade's own price impact: size / depth, at most MAX_IMPACT. */
export function impactOf(notional: TDecimalInput, depth: TDecimalInput): TDecimal {
  const i = floorPrice(dec(notional).div(depth));
  return i.gt(MAX_IMPACT) ? MAX_IMPACT : i;
}

/** Whether a trade buys (opening a long, closing a short) and so fills above the mark. */
export function isBuy(side: TPerpSide, action: 'open' | 'close') {
  return (side === 'long') === (action === 'open');
}

/** The fill price: the mark moved by the trade's impact, against the trader. Also the new mark. */
export function fillPrice(mark: TDecimalInput, side: TPerpSide, action: 'open' | 'close', notional: TDecimalInput, depth: TDecimalInput) {
  const i = impactOf(notional, depth);
  return floorPrice(dec(mark).times(isBuy(side, action) ? dec(1).plus(i) : dec(1).minus(i)));
}

/**
 * Where collateral + unrealized PnL falls to the maintenance margin (MAINTENANCE_RATE of the
 * notional at that price). Never below 0 (a 1x long cannot be liquidated).
 */
export function liquidationPrice(p: { side: TPerpSide; entryPrice: TDecimalInput; units: TDecimalInput; collateral: TDecimalInput }) {
  const perUnit = dec(p.collateral).div(p.units);
  const entry = dec(p.entryPrice);
  const price =
    p.side === 'long'
      ? entry.minus(perUnit).div(dec(1).minus(MAINTENANCE_RATE))
      : entry.plus(perUnit).div(dec(1).plus(MAINTENANCE_RATE));
  return max0(floorPrice(price));
}

/** Whether a mark has reached a position's liquidation price. */
export function isLiquidatable(side: TPerpSide, mark: TDecimalInput, liqPrice: TDecimalInput) {
  return side === 'long' ? dec(mark).lte(liqPrice) : dec(mark).gte(liqPrice);
}

export type TOpenInput = {
  side: TPerpSide;
  size: TDecimalInput;
  leverage: TDecimalInput;
  markPrice: TDecimalInput;
  depth: TDecimalInput;
};

/** Checks an order's size and leverage; returns a message for the first problem, or null. */
export function orderProblem(o: { size: TDecimalInput; leverage: TDecimalInput }): string | null {
  let size: TDecimal;
  let lev: TDecimal;
  try {
    size = dec(o.size);
    lev = dec(o.leverage);
  } catch {
    return 'size and leverage must be numbers';
  }
  if (!size.isFinite() || size.lt(MIN_SIZE)) return `size must be at least ${MIN_SIZE.toFixed()}`;
  if (size.gt(MAX_SIZE)) return `size must be at most ${MAX_SIZE.toFixed()}`;
  if (!lev.isFinite() || lev.lt(MIN_LEVERAGE) || lev.gt(MAX_LEVERAGE)) return `leverage must be between ${MIN_LEVERAGE} and ${MAX_LEVERAGE}`;
  if (!lev.equals(lev.toDecimalPlaces(4))) return 'leverage has at most 4 decimal places';
  return null;
}

/** An opening order: what it costs and where it fills. Assumes orderProblem(...) is null. */
export function quoteOpen(o: TOpenInput) {
  const size = toMoney(o.size);
  const leverage = dec(o.leverage);
  const margin = toMoney(size.div(leverage));
  const fee = toMoney(size.times(PERP_FEE_RATE));
  const entryPrice = fillPrice(o.markPrice, o.side, 'open', size, o.depth);
  const units = floorPrice(size.div(entryPrice));
  return {
    size,
    leverage,
    margin,
    fee,
    /** Debited from the balance: margin plus fee. */
    cost: margin.plus(fee),
    entryPrice,
    units,
    impact: impactOf(size, o.depth),
    /** The mark after the fill. */
    markAfter: entryPrice,
    liquidationPrice: liquidationPrice({ side: o.side, entryPrice, units, collateral: margin }),
  };
}

/** Price PnL of `units` from entry to `price`, signed by side. */
export function pricePnL(side: TPerpSide, units: TDecimalInput, entryPrice: TDecimalInput, price: TDecimalInput) {
  return floorMoney(dec(units).times(dec(price).minus(entryPrice)).times(direction(side)));
}

export type TPositionState = {
  side: TPerpSide;
  units: TDecimalInput;
  entryPrice: TDecimalInput;
  margin: TDecimalInput;
  collateral: TDecimalInput;
  openFee: TDecimalInput;
};

/** Mark-to-market: unrealized PnL at the mark and the equity it leaves. */
export function markToMarket(p: TPositionState, mark: TDecimalInput) {
  const unrealizedPnL = pricePnL(p.side, p.units, p.entryPrice, mark);
  return { unrealizedPnL, equity: dec(p.collateral).plus(unrealizedPnL), notional: floorMoney(dec(p.units).times(mark)) };
}

/**
 * Closing at the mark: the fill after impact, the price PnL, the closing fee, and the credit in
 * two ledger legs: `closeCredit` = max(0, margin + PnL − fee) as perp_close and the funding
 * settlement `fundingCredit` so that together they pay max(0, collateral + PnL − fee).
 */
export function quoteClose(p: TPositionState, markPrice: TDecimalInput, depth: TDecimalInput) {
  const notional = floorMoney(dec(p.units).times(markPrice));
  const exitPrice = fillPrice(markPrice, p.side, 'close', notional, depth);
  const realizedPnL = pricePnL(p.side, p.units, p.entryPrice, exitPrice);
  const fee = floorMoney(dec(p.units).times(exitPrice).times(PERP_FEE_RATE));
  const closeCredit = max0(dec(p.margin).plus(realizedPnL).minus(fee));
  const total = max0(dec(p.collateral).plus(realizedPnL).minus(fee));
  return {
    exitPrice,
    notional,
    realizedPnL,
    fee,
    closeCredit,
    fundingCredit: total.minus(closeCredit),
    total,
    fundingPaid: dec(p.margin).minus(p.collateral),
    netPnL: total.minus(p.margin).minus(p.openFee),
  };
}

export type TFundingInput = {
  markPrice: TDecimalInput;
  indexPrice: TDecimalInput;
  /** Long and short open interest: notional at the mark (units would do: the ratio is the same). */
  openInterestLong: TDecimalInput;
  openInterestShort: TDecimalInput;
};

/** The open-interest imbalance (L − S) / (L + S), in [−1, 1]: positive when longs are crowded, 0 for an empty book. */
export function openInterestImbalance(openInterestLong: TDecimalInput, openInterestShort: TDecimalInput) {
  const total = dec(openInterestLong).plus(openInterestShort);
  return total.isZero() ? dec(0) : dec(openInterestLong).minus(openInterestShort).div(total);
}

/**
 * The funding rate of an 8-hour period (positive: longs pay shorts). The premium part is
 * Hyperliquid's P + clamp(I − P, ±0.05%), written clamp(I, P − 0.05%, P + 0.05%): with I = 0 a
 * premium within ±0.05% counts for nothing and a wider one counts beyond that band. The crowding
 * part is 0.05% × the open-interest imbalance: the crowded side pays. Their sum is truncated to 18
 * places and held within ±0.1%. Monotonic in the imbalance and in the premium.
 */
export function fundingRate(f: TFundingInput) {
  const premium = dec(f.markPrice).minus(f.indexPrice).div(f.indexPrice);
  const lo = premium.minus(FUNDING_PREMIUM_CLAMP);
  const hi = premium.plus(FUNDING_PREMIUM_CLAMP);
  const premiumPart = FUNDING_INTEREST_RATE.lt(lo) ? lo : FUNDING_INTEREST_RATE.gt(hi) ? hi : FUNDING_INTEREST_RATE;
  const crowdingPart = FUNDING_IMBALANCE_RATE.times(openInterestImbalance(f.openInterestLong, f.openInterestShort));
  const r = floorPrice(premiumPart.plus(crowdingPart));
  if (r.isZero()) return dec(0); // never −0 (a JSON number −0 would read as "−0.0000%")
  if (r.gt(FUNDING_RATE_CAP)) return FUNDING_RATE_CAP;
  if (r.lt(FUNDING_RATE_CAP.negated())) return FUNDING_RATE_CAP.negated();
  return r;
}

/** An 8-hour rate as a simple annual one: rate × 3 × 365 (no compounding, as venues quote APR). */
export function annualizedFundingRate(rate: TDecimalInput) {
  return dec(rate).times(FUNDING_PERIODS_PER_YEAR);
}

/**
 * What a position would pay for one period on its own (negative: receives); longs and shorts
 * mirror exactly. The funding index replaces these per-period payments (accruedFunding): this is
 * the reference the tests hold the index to.
 */
export function fundingPayment(side: TPerpSide, units: TDecimalInput, markPrice: TDecimalInput, rate: TDecimalInput) {
  return floorMoney(dec(units).times(markPrice).times(rate)).times(direction(side));
}

/** A position after settling `payment` of funding: less collateral, a moved liquidation price. */
export function applyFunding(p: TPositionState & { fundingPaid: TDecimalInput }, payment: TDecimalInput) {
  const collateral = dec(p.collateral).minus(payment);
  return {
    collateral,
    fundingPaid: dec(p.fundingPaid).plus(payment),
    liquidationPrice: liquidationPrice({ side: p.side, entryPrice: p.entryPrice, units: p.units, collateral }),
  };
}

/** One period's step of a ticker's funding index: mark × rate per unit (18 places). */
export function fundingIndexStep(markPrice: TDecimalInput, rate: TDecimalInput) {
  return floorPrice(dec(markPrice).times(rate));
}

/**
 * The funding a position has accrued since its entry index (positive: it pays, negative: it
 * receives): units × (index − entry), truncated to 8 places and signed by side, so a long and a
 * short of equal units accrue exactly opposite amounts. Equals the sum of the per-period
 * fundingPayment()s to within their truncation (at most 10⁻⁸ per period).
 */
export function accruedFunding(side: TPerpSide, units: TDecimalInput, index: TDecimalInput, entryIndex: TDecimalInput) {
  return floorMoney(dec(units).times(dec(index).minus(entryIndex))).times(direction(side));
}

/**
 * How far the funding index moves the liquidation price: index / (1 − m) for a long and
 * index / (1 + m) for a short, truncated to 18 places. From liquidationPrice(): collateral less
 * units × ΔI moves (entry ∓ collateral/units)/(1 ∓ m) up by ΔI/(1 ∓ m) on both sides (a long
 * that pays nears the mark from below, a short that receives moves away above it).
 */
export function liquidationShift(side: TPerpSide, index: TDecimalInput) {
  return floorPrice(dec(index).div(side === 'long' ? dec(1).minus(MAINTENANCE_RATE) : dec(1).plus(MAINTENANCE_RATE)));
}

/**
 * The stored, index-free form of a position's liquidation price (perp_positions.liquidation_key,
 * a generated column): the stored price less the shift of its entry index. The sweep compares
 * it with mark − liquidationShift(index), so one B-tree range per ticker and side finds every
 * position the mark and the funding have reached.
 */
export function liquidationKey(side: TPerpSide, storedLiquidationPrice: TDecimalInput, entryIndex: TDecimalInput) {
  return dec(storedLiquidationPrice).minus(liquidationShift(side, entryIndex));
}

/**
 * The liquidation price with the accrued funding: key + shift(index), never below 0. Equals
 * liquidationPrice() recomputed from the funded collateral to within the accrual's truncation
 * (10⁻⁸ / units / (1 ∓ m)) and a few units of the 18th place; exactly the stored one when nothing
 * accrued. isLiquidatable(side, mark, this) is the sweep's condition.
 */
export function effectiveLiquidationPrice(
  p: { side: TPerpSide; liquidationPrice: TDecimalInput; fundingIndexEntry: TDecimalInput },
  index: TDecimalInput,) {
  return max0(liquidationKey(p.side, p.liquidationPrice, p.fundingIndexEntry).plus(liquidationShift(p.side, index)));
}

export type TFundedPosition = {
  side: TPerpSide;
  units: TDecimalInput;
  collateral: TDecimalInput;
  fundingPaid: TDecimalInput;
  liquidationPrice: TDecimalInput;
  fundingIndexEntry: TDecimalInput;
};

/**
 * An open position as of the ticker's funding index `index`: the stored collateral, funding paid
 * and liquidation price (as of its entry index, or its last settlement) plus the accrual. What
 * every reader shows and values; closing and liquidation store exactly this.
 */
export function withAccruedFunding(p: TFundedPosition, index: TDecimalInput) {
  const accrued = accruedFunding(p.side, p.units, index, p.fundingIndexEntry);
  return {
    accrued,
    collateral: dec(p.collateral).minus(accrued),
    fundingPaid: dec(p.fundingPaid).plus(accrued),
    liquidationPrice: effectiveLiquidationPrice(p, index),
  };
}

/** Start of the 8-hour funding period containing `at` (00:00, 08:00, 16:00 UTC). */
export function fundingPeriodStart(at: Date) {
  return new Date(Math.floor(at.getTime() / FUNDING_PERIOD_MS) * FUNDING_PERIOD_MS);
}

/** The period boundaries in (after, upTo]: each one whose funding is now due. */
export function duePeriods(after: Date, upTo: Date): Date[] {
  const out: Date[] = [];
  for (let t = fundingPeriodStart(after).getTime() + FUNDING_PERIOD_MS; t <= upTo.getTime(); t += FUNDING_PERIOD_MS) out.push(new Date(t));
  return out;
}

/** Percentage change from `from` to `to` (0 when there is no earlier price). */
export function changePercent(from: TDecimalInput | null | undefined, to: TDecimalInput) {
  return from === null || from === undefined || dec(from).isZero() ? dec(0) : dec(to).minus(from).div(from).times(100);
}
