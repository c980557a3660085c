/**
 * What a question is worth to a trader who knows the world's rules but not its future: the fair
 * probability of YES that NPCs and pool managers trade toward. Pure: no I/O, no rng.
 *
 * - A price question ("Will $QBIT close above 83.5 by Tue?") resolves on the organization's price
 *   at its date, and that price is a log-normal walk (lib/game/prices.ts: a move of σ·z − σ²/2 in
 *   log price per tick, plus news). So ln S_T ~ N(ln S − σ²T/2, σ²T) and
 *   P(S_T > K) = N(d2), d2 = (ln(S/K) − σ²T/2) / (σ√T), with σ per √day and T in days.
 * - An event question ("Will Nexa launch a product by Fri?") is worth the probability the world's
 *   rules give it (lib/game/outcomes.ts: a rate per day of its kind over its event window), updated
 *   by the evidence: an event that fulfils it already happened (it resolves YES), or, as its
 *   window runs out without one, less and less (a YES outcome's event comes at some moment of the
 *   window, so each quiet hour is evidence for NO). Never the outcome the world drew: nobody sees it.
 *
 * Every value is clamped to [VALUE_FLOOR, VALUE_CEIL]: nobody is ever certain enough to pay 100¢.
 */
// The world's own odds (lib/game/outcomes.ts) are what a trader who knows the rules computes.
import { eventValueAfterQuiet, lognormalAbove, TICK_MS } from '../outcomes';
import { hashName } from '@/lib/world/assets';

export const VALUE_FLOOR = 0.01;
export const VALUE_CEIL = 0.99;
/** The world ticks once per game minute (TICK_MS); an organization's `volatility` is σ per tick. */
export const TICKS_PER_DAY = 86_400_000 / TICK_MS;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** A probability kept inside [VALUE_FLOOR, VALUE_CEIL]. */
export function clampValue(p: number) {
  return clamp(Number.isFinite(p) ? p : 0.5, VALUE_FLOOR, VALUE_CEIL);
}

/** σ per √day from σ per tick (one tick a game minute: σ·√1440). */
export function dailyVolatility(perTick: number) {
  return Math.max(0, perTick) * Math.sqrt(TICKS_PER_DAY);
}

/**
 * A ticker's volatility per √day: the realized one (Σ r² of its index's log moves over the time
 * they span) when the history is long enough to trust, else the model's (σ per tick scaled to a
 * day). News jumps are part of the realized figure, and a tick cadence slower than one a game
 * minute shows in it too, which the model's figure knows nothing about. Never below half the
 * model's: a quiet stretch does not make anyone sure of a price a week away.
 */
export function volatilityPerDay(input: { perTick: number; realized?: { sumSquares: number; days: number; moves: number } | null; minMoves?: number }) {
  const model = dailyVolatility(input.perTick);
  const r = input.realized;
  if (!r || r.moves < (input.minMoves ?? 60) || !(r.days > 0) || !(r.sumSquares >= 0)) return model;
  return Math.max(Math.sqrt(r.sumSquares / r.days), model / 2);
}

/**
 * P(S_T > K) for a log-normal walk: N(d2). At T = 0 (or σ = 0) the walk has nowhere to go: 1 above
 * the strike, 0 below, ½ on it. Not clamped (the question's value is).
 */
export function probabilityAbove(spot: number, strike: number, volatility: number, days: number) {
  const sd = Math.max(0, volatility) * Math.sqrt(Math.max(0, days));
  const m = Math.log(spot / strike);
  if (!(sd > 1e-12)) return m > 0 ? 1 : m < 0 ? 0 : 0.5;
  return lognormalAbove(m, sd);
}

/**
 * The fair YES probability of "Will $T close above/below `strike` by <date>?" with the ticker at
 * `spot`, `volatility` per √day and `days` left, clamped. "Below" is 1 − "above" (a price exactly
 * on the strike has probability zero under the walk), so the two always sum to 1.
 */
export function priceQuestionValue(q: { spot: number; strike: number; comparison: 'above' | 'below'; volatility: number; days: number }) {
  if (!(q.spot > 0) || !(q.strike > 0)) return 0.5;
  const above = probabilityAbove(q.spot, q.strike, q.volatility, q.days);
  return clampValue(q.comparison === 'above' ? above : 1 - above);
}

/**
 * The fair YES probability of an event question: 0.99 once a fulfilling event happened; otherwise
 * the probability p its rule gives it (lib/game/outcomes.ts eventProbability) updated by the quiet
 * part of its event window (elapsed, 0 to 1): a YES's event falls anywhere in the window alike, so
 * P(YES | nothing yet) = p(1 − e) / (p(1 − e) + 1 − p) (outcomes.ts eventValueAfterQuiet). It
 * starts at p, only falls as time passes, and reaches the floor at the window's end.
 */
export function eventQuestionValue(q: { baseRate: number; fulfilled: boolean; elapsed: number }) {
  if (q.fulfilled) return VALUE_CEIL;
  return clampValue(eventValueAfterQuiet(Number.isFinite(q.baseRate) ? q.baseRate : 0.5, Number.isFinite(q.elapsed) ? q.elapsed : 0));
}

/** What a trader knows about a question, as the world's rules describe it. */
export type TQuestionFacts =
  | { kind: 'price'; spot: number; strike: number; comparison: 'above' | 'below'; volatility: number; days: number }
  | { kind: 'event'; baseRate: number; fulfilled: boolean; elapsed: number };

/** The fair YES probability of a question from its facts; null for a question without a rule (nothing to value it from). */
export function questionValue(facts: TQuestionFacts | null): number | null {
  if (!facts) return null;
  return facts.kind === 'price' ? priceQuestionValue(facts) : eventQuestionValue(facts);
}

/**
 * One trader's own view of a question: the fair value moved in log-odds by a fixed amount that
 * depends only on who is looking at what (a hash of the two ids, within ±spread). Views differ, so
 * markets stay two-sided, and one actor's view of a question stays put from tick to tick, so it
 * does not flip sides on noise.
 */
export function personalView(fair: number, key: string, spread: number) {
  const u = hashName(key) / 0xffffffff;
  const f = clampValue(fair);
  const logit = Math.log(f / (1 - f)) + (2 * u - 1) * spread;
  return clampValue(1 / (1 + Math.exp(-logit)));
}
