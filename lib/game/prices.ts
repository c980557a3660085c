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

/**
 * Fundamentals. Every ticker has a fundamental value (organizations.fundamental_value): what the
 * company is worth. Value-moving news (VALUE_NEWS_KINDS) and storyline beats move it for good; the
 * fair value walks around it and is pulled back toward it in log space (Ornstein–Uhlenbeck), the
 * pull growing with the game minutes a tick spans: 1 − 2^(−minutes / FUNDAMENTAL_HALF_LIFE_MINUTES).
 * Other news (and market biases) move only the fair value, which the pull then takes back.
 */
export const FUNDAMENTAL_HALF_LIFE_MINUTES = 2 * 24 * 60;
/** News kinds whose impact changes what the company is worth (the rest are noise on the fair value). */
export const VALUE_NEWS_KINDS: ReadonlySet<string> = new Set([
  'earnings_beat',
  'earnings_miss',
  'scandal',
  'regulatory_probe',
  'contract_win',
  'partnership',
  'product_launch',
]);

/**
 * The share of a news item's impact that reaches the price. The world draws about a dozen news items
 * a ticker a day at a one-minute cadence (world-rules NEWS_CHANCE), each ±1–8%: at full weight
 * they alone moved a ticker ~15% a day. At this weight news adds ~1.4% a day, so with the walk a
 * day's σ is ~2–3% (a real mid-cap). The news's own `impact` (shown, and the biases it sets) is unchanged.
 */
export const NEWS_PRICE_WEIGHT = 0.08;
/** The same for a market bias's push on its question's organization, which repeats every tick while it lasts. */
export const BIAS_PRICE_WEIGHT = 0.05;

/** Share of the log gap to the fundamental a tick of `minutes` closes: in [0, 1), 0 for no time. */
export function pullShare(minutes: number, halfLifeMinutes = FUNDAMENTAL_HALF_LIFE_MINUTES): number {
  if (!(minutes > 0) || !(halfLifeMinutes > 0)) return 0;
  return 1 - 2 ** (-minutes / halfLifeMinutes);
}

/** `fair` moved toward `fundamental` by pullShare(minutes) of their log gap (never past it). */
export function pullToward(fair: number, fundamental: number, minutes: number, halfLifeMinutes = FUNDAMENTAL_HALF_LIFE_MINUTES): number {
  if (!(fair > 0) || !(fundamental > 0)) return fair;
  return fair * Math.exp(Math.log(fundamental / fair) * pullShare(minutes, halfLifeMinutes));
}

/**
 * One tick of a ticker: the fundamental moves by `valuePush` (value-moving news), the fair value is
 * pulled toward the new fundamental for `minutes`, then takes its random-walk step (σ per tick,
 * whatever the tick's length: the walk counts ticks, lib/game/npc/value.ts) pushed by all news
 * and biases (`push`, which includes `valuePush`). Deterministic given the rng.
 */
export function stepTicker(
  input: { fairValue: number; fundamental: number; volatility: number; push: number; valuePush: number; minutes: number },
  rng: TRng,
): { fair: number; fundamental: number } {
  const fundamental = Math.max(MIN_PRICE, round(input.fundamental * (1 + clampPush(input.valuePush)), 4));
  const pulled = pullToward(input.fairValue, fundamental, input.minutes);
  const fair = stepFairValue({ fairValue: pulled, volatility: input.volatility, push: input.push }, rng);
  return { fair, fundamental };
}
