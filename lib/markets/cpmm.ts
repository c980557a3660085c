/**
 * Constant-product market maker with complete-set minting (Manifold's "Maniswap", weight 0.5).
 * Pure: no I/O, exact decimals. The server's trades and the UI's trade preview both call this.
 *
 * The pool holds YES and NO outcome shares: `yesReserve` and `noReserve`, with k = yes × no.
 * - Buying YES with net amount a: a complete sets are minted (a YES + a NO), all go into the pool,
 *   then the pool pays out YES shares until yes × no = k again:
 *   shares = yesReserve + a − k / (noReserve + a).
 * - Selling s YES shares is the exact inverse: the shares go into the pool and the pool burns
 *   a complete sets for a such that (yesReserve + s − a)(noReserve − a) = k.
 * - The probability of YES is noReserve / (yesReserve + noReserve): buying YES drains YES
 *   shares, so YES becomes scarcer and dearer.
 *
 * The specification's public fields are weights, not reserves: its yesPrice is
 * yesShares / (yesShares + noShares), so the public `yesShares` is the NO reserve and the public
 * `noShares` is the YES reserve (lib/markets/README.md has a worked example).
 *
 * Rounding always favours the pool (shares paid out and proceeds are rounded down), so the
 * product never falls and no sequence of trades creates money.
 */
import { D, dec, type TDecimal, type TDecimalInput } from '@/lib/money/decimal';
import { referralShare, type TReferralParties } from '@/lib/referrals/share';

export type TOutcome = 'YES' | 'NO';

/** Pool reserves of outcome shares. */
export type TPool = { yesReserve: TDecimal; noReserve: TDecimal };

/** The public (specification) view: weights whose ratio is the price. */
export type TPublicPool = { yesShares: TDecimal; noShares: TDecimal };

/** Shares are kept to 18 places, money to 8. */
export const SHARE_SCALE = 18;
export const MONEY_SCALE = 8;
/** 0.1% of each buy amount and of each sale's proceeds. */
export const FEE_RATE = dec('0.001');
export const MIN_BUY = dec(1);

const floorShares = (d: TDecimal) => d.toDecimalPlaces(SHARE_SCALE, D.ROUND_DOWN);
const floorMoney = (d: TDecimal) => d.toDecimalPlaces(MONEY_SCALE, D.ROUND_DOWN);

export function toPool(p: { yesShares: TDecimalInput; noShares: TDecimalInput }): TPool {
  return {
  yesReserve: dec(p.noShares),
  noReserve: dec(p.yesShares),
};
}

export function toPublic(pool: TPool): TPublicPool {
  return { yesShares: pool.noReserve, noShares: pool.yesReserve };
}

/** A pool for a new market at probability 0.5 (each reserve = liquidity); refuses empty reserves. */
export function createPool(liquidity: TDecimalInput): TPool {
  const l = dec(liquidity);
  if (!l.isFinite() || l.lte(0)) throw new Error('cpmm: a market needs positive liquidity');
  return { yesReserve: l, noReserve: l };
}

/** How far from 0 and 1 a market may open: a question is never born settled. */
export const OPENING_PROBABILITY_BOUND = 0.02;

/**
 * A pool of `liquidity` that opens at YES price `probability` (held within the bound): reserves
 * L·√((1−p)/p) YES and L·√(p/(1−p)) NO, so the YES price no / (yes + no) is p and the product is
 * L², the depth of a pool opened at 50 % (createPool).
 */
export function createPoolAt(liquidity: TDecimalInput, probability: number): TPool {
  const l = dec(liquidity);
  if (!l.isFinite() || l.lte(0)) throw new Error('cpmm: a market needs positive liquidity');
  if (!Number.isFinite(probability)) throw new Error('cpmm: an opening probability must be a number');
  const p = dec(Math.min(1 - OPENING_PROBABILITY_BOUND, Math.max(OPENING_PROBABILITY_BOUND, probability)));
  const odds = p.div(dec(1).minus(p));
  return { yesReserve: l.div(odds.sqrt()), noReserve: l.times(odds.sqrt()) };
}

export function product(pool: TPool) {
  return pool.yesReserve.times(pool.noReserve);
}

/** Price of YES and of NO; both in (0, 1), summing to 1. */
export function prices(pool: TPool) {
  const total = pool.yesReserve.plus(pool.noReserve);
  const yes = pool.noReserve.div(total);
  return { yes, no: dec(1).minus(yes) };
}

export function priceOf(pool: TPool, outcome: TOutcome) {
  return (outcome === 'YES' ? prices(pool).yes : prices(pool).no);
}

const reserves = (pool: TPool, outcome: TOutcome) =>
  outcome === 'YES' ? { same: pool.yesReserve, other: pool.noReserve } : { same: pool.noReserve, other: pool.yesReserve };

const withReserves = (outcome: TOutcome, same: TDecimal, other: TDecimal): TPool =>
  outcome === 'YES' ? { yesReserve: same, noReserve: other } : { yesReserve: other, noReserve: same };

/** Shares of `outcome` bought with net amount `amount` (after fees), and the pool after. */
export function buyShares(pool: TPool, outcome: TOutcome, amount: TDecimalInput) {
  const a = dec(amount);
  if (!a.isFinite() || a.lte(0)) throw new Error('cpmm: buy amount must be positive');
  const { same, other } = reserves(pool, outcome);
  const k = same.times(other);
  const shares = floorShares(same.plus(a).minus(k.div(other.plus(a))));
  return { shares, pool: withReserves(outcome, same.plus(a).minus(shares), other.plus(a)) };
}

/** Amount paid out (before fees) for selling `shares` of `outcome`, and the pool after. */
export function sellShares(pool: TPool, outcome: TOutcome, shares: TDecimalInput) {
  const s = dec(shares);
  if (!s.isFinite() || s.lte(0)) throw new Error('cpmm: sold shares must be positive');
  const { same, other } = reserves(pool, outcome);
  // a² − a(same + s + other) + s·other = 0, the smaller root.
  const b = same.plus(s).plus(other);
  const exact = b.minus(b.times(b).minus(s.times(other).times(4)).sqrt()).div(2);
  const amount = floorMoney(exact);
  return { amount, pool: withReserves(outcome, same.plus(s).minus(amount), other.minus(amount)) };
}

/**
 * The fee of a gross amount, split by the referral rule (lib/referrals/share.ts): half to the
 * payer's referrer when there is one (never to the payer), the rest to the platform. Without
 * `parties` (a preview, a backfill) nobody is referred.
 */
export function splitFee(gross: TDecimalInput, parties?: TReferralParties) {
  const total = dec(gross).times(FEE_RATE).toDecimalPlaces(MONEY_SCALE, D.ROUND_UP);
  const { share: referrer, rest: platform } = parties ? referralShare(total, parties) : { share: dec(0), rest: total };
  return { total, referrer, platform };
}

export type TBuyQuote = {
  amount: TDecimal;
  fees: { total: TDecimal; platform: TDecimal; referrer: TDecimal };
  netAmount: TDecimal;
  shares: TDecimal;
  avgPrice: TDecimal;
  /** What the shares pay if the outcome wins (1 each). */
  maxPayout: TDecimal;
  priceBefore: TDecimal;
  priceAfter: TDecimal;
  pool: TPool;
};

/** A full buy: fee off the top, the rest into the pool. Used by the server and the UI preview. */
export function quoteBuy(pool: TPool, outcome: TOutcome, amount: TDecimalInput, parties?: TReferralParties): TBuyQuote {
  const gross = dec(amount);
  const fees = splitFee(gross, parties);
  const netAmount = gross.minus(fees.total);
  const { shares, pool: after } = buyShares(pool, outcome, netAmount);
  return {
    amount: gross,
    fees,
    netAmount,
    shares,
    avgPrice: gross.div(shares),
    maxPayout: shares,
    priceBefore: priceOf(pool, outcome),
    priceAfter: priceOf(after, outcome),
    pool: after,
  };
}

export type TSellQuote = {
  shares: TDecimal;
  grossProceeds: TDecimal;
  fees: { total: TDecimal; platform: TDecimal; referrer: TDecimal };
  proceeds: TDecimal;
  avgPrice: TDecimal;
  priceBefore: TDecimal;
  priceAfter: TDecimal;
  pool: TPool;
};

/** A full sale: the pool pays out, the fee comes off the proceeds. */
export function quoteSell(pool: TPool, outcome: TOutcome, shares: TDecimalInput, parties?: TReferralParties): TSellQuote {
  const s = dec(shares);
  const { amount, pool: after } = sellShares(pool, outcome, s);
  const fees = splitFee(amount, parties);
  const proceeds = amount.minus(fees.total);
  return {
    shares: s,
    grossProceeds: amount,
    fees,
    proceeds,
    avgPrice: amount.div(s),
    priceBefore: priceOf(pool, outcome),
    priceAfter: priceOf(after, outcome),
    pool: after,
  };
}

/** What a position pays at resolution: 1 per winning share, rounded down to money. */
export function payoutFor(outcome: TOutcome, winner: TOutcome, shares: TDecimalInput) {
  return outcome === winner ? floorMoney(dec(shares)) : dec(0);
}

/**
 * The reserves on this pool's curve (same product k) at which `outcome` costs `price`:
 * other² = k·price / (1 − price), same = k / other. Every trade moves a pool along this curve, so
 * it tells how much a trade must buy or sell to reach a price (a trader sizing to the depth).
 */
const reservesAtPrice = (pool: TPool, outcome: TOutcome, price: TDecimal) => {
  const k = product(pool);
  const other = k.times(price).div(dec(1).minus(price)).sqrt();
  return { same: k.div(other), other };
};

const checkTarget = (target: TDecimalInput) => {
  const t = dec(target);
  if (!t.isFinite() || t.lte(0) || t.gte(1)) throw new Error('cpmm: a target price lies strictly between 0 and 1');
  return t;
};

/**
 * The gross amount (fee included, rounded down to the cent) whose buy of `outcome` takes its price
 * up to `target` at most; 0 when the price is already there or above. Buying net a adds a to the
 * other reserve (buyShares), so a = other(target) − other.
 */
export function buyAmountToPrice(pool: TPool, outcome: TOutcome, target: TDecimalInput): TDecimal {
  const t = checkTarget(target);
  if (priceOf(pool, outcome).gte(t)) return dec(0);
  const net = reservesAtPrice(pool, outcome, t).other.minus(reserves(pool, outcome).other);
  // The fee is rounded up, so the net that reaches the pool is at most gross × (1 − fee): never past the target.
  return net.div(dec(1).minus(FEE_RATE)).toDecimalPlaces(2, D.ROUND_DOWN);
}

/**
 * The shares of `outcome` whose sale takes its price down to `target` at most (rounded down to 8
 * places); 0 when the price is already there or below. A sale of s pays out a with
 * same + s − a = same(target) and other − a = other(target).
 */
export function sellSharesToPrice(pool: TPool, outcome: TOutcome, target: TDecimalInput): TDecimal {
  const t = checkTarget(target);
  if (priceOf(pool, outcome).lte(t)) return dec(0);
  const now = reserves(pool, outcome);
  const at = reservesAtPrice(pool, outcome, t);
  const paid = now.other.minus(at.other);
  let shares = at.same.minus(now.same).plus(paid).toDecimalPlaces(8, D.ROUND_DOWN);
  // The sale's payout is rounded down to money, which can leave the price a hair past the target
  // (about 1e-12): step back a share unit at a time until it is not (one step in practice).
  for (let i = 0; i < 100 && shares.gt(0) && priceOf(sellShares(pool, outcome, shares).pool, outcome).lt(t); i++) shares = shares.minus(SHARE_UNIT);
  return D.max(shares, 0);
}

/** The smallest number of shares sellSharesToPrice steps by (it answers 8 places). */
const SHARE_UNIT = dec('0.00000001');
