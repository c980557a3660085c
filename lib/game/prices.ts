/**
 * Pure price dynamics of the game world: the fair-value random walk, the mark's drift toward it,
 * and how market biases decay. No I/O. Prices here are game quantities, not balances: the walk
 * uses floats and rounds what it stores (money never passes through this file).
 * Invariants: every price is at least MIN_PRICE; a bias's strength only falls, reaching zero.
 */
import { FUNDING_PREMIUM_CLAMP } from '@/lib/perps/math';
import type { TRng } from './rng';

/** No organization is ever worth less than a cent (a walk can approach zero, never reach it). */
export const MIN_PRICE = 0.01;
/** Share of the gap between mark and fair value the mark closes each tick. */
export const MARK_DRIFT = 0.25;
/** The largest push one tick applies, either way (news and biases together). */
export const MAX_PUSH = 0.5;
/** A bias weaker than this does nothing and is removed. */
export const MIN_BIAS_STRENGTH = 0.001;
/** A bias from news lasts this long (steps/news.ts writes it; the backfill's traders follow news as long). */
export const NEWS_BIAS_HOURS = 6;
/** Bias trades per tick at most beyond the news's own (the strongest biases go first; steps/prices.ts). */
export const MAX_BIAS_TRADES = 1;

const round = (x: number, places: number) => {
  const f = 10 ** places;
  return Math.round(x * f) / f;
};

export function clampPush(push: number) {
  return Math.max(-MAX_PUSH, Math.min(MAX_PUSH, Number.isFinite(push) ? push : 0));
}

/**
 * One step of an organization's fair value: a log-normal move with its own volatility (σ per tick;
 * −σ²/2 keeps the expected value unchanged), times (1 + push) for news and biases. exp() of any
 * draw is positive, so only rounding could reach zero; MIN_PRICE guards that.
 */
export function stepFairValue(input: { fairValue: number; volatility: number; push: number }, rng: TRng): number {
  const sigma = Math.max(0, input.volatility);
  const z = rng.normal();
  const next = input.fairValue * Math.exp(sigma * z - (sigma * sigma) / 2) * (1 + clampPush(input.push));
  return Math.max(MIN_PRICE, round(next, 4));
}

/**
 * Arbitrage (lib/game/steps/arbitrage.ts): at the end of each tick, a premium of the mark over the
 * index (or a discount) wider than this is traded away. It is the funding formula's premium clamp
 * (lib/perps/math FUNDING_PREMIUM_CLAMP, ±0.05%): a premium beyond it earns funding, which is what
 * arbitrageurs trade, and inside it the premium pays nothing, so the tick's own lag of the mark
 * behind the index does not set the funding: the crowding of the book does.
 */
export const ARBITRAGE_BAND = FUNDING_PREMIUM_CLAMP.toNumber();

/**
 * `x` to 8 places, rounded toward `up` (ceil) or down (floor), so a band edge stays inside the
 * band; a value within float noise of an 8-place one is that value.
 */
const roundToward = (x: number, up: boolean) => {
  const s = x * 1e8;
  const near = Math.round(s);
  return (Math.abs(s - near) < 1e-4 ? near : up ? Math.ceil(s) : Math.floor(s)) / 1e8;
};

/** The mark brought to within `band` of the index (unchanged when already inside it), the edge rounded inward. */
export function closePremium(mark: number, index: number, band = ARBITRAGE_BAND): number {
  if (!(index > 0)) return mark;
  const lo = index * (1 - band);
  const hi = index * (1 + band);
  return mark < lo ? Math.max(MIN_PRICE, roundToward(lo, true)) : mark > hi ? roundToward(hi, false) : mark;
}

/** The mark closes MARK_DRIFT of its gap to fair value (trades move it too, between ticks). */
export function driftMark(mark: number, fairValue: number, rate = MARK_DRIFT): number {
  return Math.max(MIN_PRICE, round(mark + (fairValue - mark) * rate, 4));
}

export type TBias = {
  direction: 'YES' | 'NO';
  /** Initial strength, 0..1. */
  adjustment: number;
  /** Fraction of the strength lost per hour, 0..1. */
  decayRate: number;
  createdAt: Date;
  expiresAt: Date;
};

/**
 * What is left of a bias at `at`: adjustment × (1 − decayRate)^hours since creation, zero once
 * expired or below MIN_BIAS_STRENGTH. Computed from the creation time rather than stored, so ticks
 * at any cadence (or a test clock jumping days) see the same curve.
 */
export function biasStrength(b: TBias, at: Date): number {
  if (at.getTime() >= b.expiresAt.getTime()) return 0;
  const hours = Math.max(0, (at.getTime() - b.createdAt.getTime()) / 3_600_000);
  const rate = Math.min(1, Math.max(0, b.decayRate));
  const s = Math.max(0, Math.min(1, b.adjustment)) * (1 - rate) ** hours;
  return s < MIN_BIAS_STRENGTH ? 0 : s;
}

/**
 * A bias's push on the fair value of the organization its question is about: a YES bias on
 * "above" pushes up, on "below" pushes down (NO the other way), scaled by priceImpact.
 */
export function biasPush(strength: number, direction: 'YES' | 'NO', comparison: 'above' | 'below', priceImpact: number) {
  return strength * priceImpact * (direction === 'YES' ? 1 : -1) * (comparison === 'above' ? 1 : -1);
}

/** Amount an NPC spends per tick buying the side a bias favours (moves the question's price). */
export function biasTradeAmount(strength: number) {
  return (strength <= 0 ? 0 : Math.max(1, round(strength * 40, 2)));
}
