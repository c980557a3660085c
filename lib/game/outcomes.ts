/**
 * The odds a question is born with and the outcome the world draws for it (issue 31, "Fair
 * outcomes"). Pure: no I/O, no clock; every draw comes from the rng passed in, so the same seed and
 * game time give the same odds and outcomes.
 *
 * - A price question ("Will $T close above K by <date>?") resolves on the ticker's price at its
 *   date, and that price is the tick's log-normal walk (prices.ts stepFairValue: a move of
 *   σ·z − σ²/2 in log price per tick, one tick a game minute). So ln S_T ~ N(ln S − σ²T/2, σ²T)
 *   and P(S_T > K) = N((ln(S/K) − σ²T/2) / (σ√T)), T in ticks. Its outcome is not drawn: the
 *   ticker's price decides it (news moves that price both ways, which this leaves out).
 * - An event question ("Will <org> launch a new product by <date>?") happens at a rate per day of
 *   its kind (EVENT_RATE_PER_DAY), scaled by how eventful the organization is (its volatility
 *   against REFERENCE_VOLATILITY): p = 1 − e^(−λ·days) over its event window, which ends
 *   EVENT_MARGIN_MS before the date so the news can run (and the question resolve) before it.
 *   Its outcome is drawn at creation, YES with probability p; a YES comes with the moment its
 *   event happens, uniform over the window. A trader who knows these rules but not the draw values
 *   the question at p·(1 − e) / (p·(1 − e) + 1 − p) after a quiet fraction e of the window
 *   (eventValueAfterQuiet), so the draw is fair to whoever prices it from the rules.
 *
 * The draw and the event's moment are kept with the question's rule (question_rules
 * drawn_outcome and event_at, written by lib/game/steps/questions.ts) and read only by the tick's
 * news and resolution steps: no API answer, event or NPC sees them.
 */
import type { TEventKind } from '@/db/schema/world-values';
import type { TRng } from './rng';
import type { TQuestionRule } from './world-rules';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The world ticks once per game minute; an organization's `volatility` is σ per tick. */
export const TICK_MS = MINUTE;
/** An event question's event happens at least this long before its date (news first, then the payout). */
export const EVENT_MARGIN_MS = 3_600_000;
/** A probability as stored (question_rules.probability: 6 places), never exactly 0 or 1 for a drawn question. */
export const PROBABILITY_PLACES = 6;
export const EVENT_PROBABILITY_FLOOR = 0.02;
export const EVENT_PROBABILITY_CEIL = 0.98;

/**
 * How often news of each kind happens to one organization, per day, for a question that asks about
 * it. A statement question names its speaker, and executives talk a lot; scandals are rare.
 */
export const EVENT_RATE_PER_DAY: Record<TEventKind, number> = {
  earnings_beat: 0.12,
  earnings_miss: 0.12,
  product_launch: 0.15,
  partnership: 0.12,
  contract_win: 0.1,
  scandal: 0.06,
  regulatory_probe: 0.08,
  executive_statement: 0.25,
};

/** The volatility (σ per tick, a one-minute tick: ~2.3% a day) of a company with an ordinary news flow. */
export const REFERENCE_VOLATILITY = 0.0006;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const roundProbability = (p: number) => Math.round(p * 10 ** PROBABILITY_PLACES) / 10 ** PROBABILITY_PLACES;

/** The standard normal distribution function (Abramowitz–Stegun 7.1.26, error below 1.5e-7); Φ(−z) = 1 − Φ(z) exactly. */
export function normalCdf(z: number) {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const tail = (poly * Math.exp(-x * x)) / 2;
  return z > 0 ? 1 - tail : z < 0 ? tail : 0.5;
}

/**
 * P(S_T > K) of a log-normal walk whose log moves total `sd` (> 0) by then, with m = ln(S/K):
 * N(d2) with the walk's drift of −sd²/2. The one formula behind the world's odds and the NPCs'.
 */
export function lognormalAbove(m: number, sd: number) {
  return normalCdf((m - (sd * sd) / 2) / sd);
}

/**
 * P(YES) of a price question with the ticker at `price`, σ per tick `volatility` and `ms` of game
 * time left. With no time or no volatility left the walk has nowhere to go: 1 or 0 by the strict
 * comparison (a price exactly on the threshold is NO either way). "Below" is 1 − "above" otherwise.
 * Without a positive price or threshold there is nothing to measure: ½.
 */
export function priceProbability(q: { price: number; threshold: number; comparison: 'above' | 'below'; volatility: number; ms: number }) {
  if (!(q.price > 0) || !(q.threshold > 0)) return 0.5;
  const sd = Math.max(0, q.volatility) * Math.sqrt(Math.max(0, q.ms) / TICK_MS);
  const m = Math.log(q.price / q.threshold);
  if (!(sd > 1e-12)) return q.comparison === 'above' ? (m > 0 ? 1 : 0) : m < 0 ? 1 : 0;
  const above = lognormalAbove(m, sd);
  return q.comparison === 'above' ? above : 1 - above;
}

/** How eventful an organization is against an ordinary one: √(σ / REFERENCE_VOLATILITY), between ½ and 2. */
export function activityFactor(volatility: number) {
  const r = Number.isFinite(volatility) && volatility > 0 ? volatility / REFERENCE_VOLATILITY : 1;
  return clamp(Math.sqrt(r), 0.5, 2);
}

/** The span in which an event question's event may happen: from its creation to EVENT_MARGIN_MS before its date (half the span when shorter). */
export function eventWindow(createdAt: Date, resolutionDate: Date) {
  const span = Math.max(0, resolutionDate.getTime() - createdAt.getTime());
  const length = span > 2 * EVENT_MARGIN_MS ? span - EVENT_MARGIN_MS : span / 2;
  return { start: createdAt, end: new Date(createdAt.getTime() + length) };
}

/** P(YES) of an event question of `eventKind` about an organization of σ `volatility` over its window. */
export function eventProbability(q: { eventKind: TEventKind; volatility: number; createdAt: Date; resolutionDate: Date }) {
  const w = eventWindow(q.createdAt, q.resolutionDate);
  const days = (w.end.getTime() - w.start.getTime()) / DAY;
  const rate = (EVENT_RATE_PER_DAY[q.eventKind] ?? 0.1) * activityFactor(q.volatility);
  return clamp(roundProbability(1 - Math.exp(-rate * days)), EVENT_PROBABILITY_FLOOR, EVENT_PROBABILITY_CEIL);
}

/**
 * What an event question born with probability `p` is worth to someone who knows the rules and
 * not the draw, once a fraction `quiet` of its window passed without its event: a YES's event
 * falls anywhere in the window alike, so P(YES | nothing yet) = p(1 − e) / (p(1 − e) + 1 − p).
 */
export function eventValueAfterQuiet(p: number, quiet: number) {
  const left = 1 - clamp(quiet, 0, 1);
  const yes = clamp(p, 0, 1) * left;
  const total = yes + 1 - clamp(p, 0, 1);
  return total > 0 ? yes / total : 0;
}

export type TQuestionOdds = {
  /** P(YES) the world gives the question at creation, from its rule (6 places). */
  probability: number;
  /** The drawn outcome of an event question; null for a price question (its ticker's price decides). */
  outcome: 'YES' | 'NO' | null;
  /** When a drawn-YES event question's event happens (inside its window); null otherwise. */
  eventAt: Date | null;
};

/**
 * The odds and outcome of a new question. `org` is the organization its rule is about, as the
 * world has it at `createdAt`. Two draws from `rng` for every question (the outcome, the moment),
 * so what follows never depends on the outcome.
 */
export function planOutcome(
  rng: TRng,
  q: { rule: TQuestionRule; org: { price: number; volatility: number }; createdAt: Date; resolutionDate: Date },): TQuestionOdds {
  const u = rng.next();
  const v = rng.next();
  if (q.rule.kind === 'price') {
    const p = priceProbability({
      price: q.org.price,
      threshold: q.rule.threshold,
      comparison: q.rule.comparison,
      volatility: q.org.volatility,
      ms: q.resolutionDate.getTime() - q.createdAt.getTime(),
    });
    return { probability: roundProbability(p), outcome: null, eventAt: null };
  }
  const probability = eventProbability({ eventKind: q.rule.eventKind, volatility: q.org.volatility, createdAt: q.createdAt, resolutionDate: q.resolutionDate });
  if (u >= probability) return { probability, outcome: 'NO', eventAt: null };
  const w = eventWindow(q.createdAt, q.resolutionDate);
  // Strictly after the question is asked (a tick's news never fulfils a question of the same tick), on a whole second.
  const length = w.end.getTime() - w.start.getTime();
  const offset = clamp(Math.floor((v * length) / 1000) * 1000, Math.min(MINUTE, length), length);
  return { probability, outcome: 'YES', eventAt: new Date(w.start.getTime() + offset) };
}
