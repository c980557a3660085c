/**
 * Trading leagues, pure: the season calendar, placement by size, the risk-adjusted score, the
 * divisions and the season's outcome (promotion and relegation). No I/O; lib/leagues/service
 * reads equity and writes results.
 *
 * The score (explained on the league page): from a player's equity at the close of each game day
 * E₀…Eₙ and the money that came in otherwise than by trading on each day F₁…Fₙ,
 *   daily return  rᵢ = (Eᵢ − Eᵢ₋₁ − Fᵢ) / Eᵢ₋₁
 *   season return R  = (1 + r₁)…(1 + rₙ) − 1
 *   volatility    σ  = standard deviation of the rᵢ × √n   (the season's, not a day's)
 *   risk          s  = max(σ, 1 %) / 1 %                  (1 for a nearly flat curve)
 *   score            = 100 × R / s   when R ≥ 0
 *                      100 × R × s   when R < 0
 * so doubling every amount changes nothing (scale-invariant), and of two players with the same
 * return the steadier one ranks higher, gains and losses alike (dividing a loss by the risk would
 * reward the wilder of two equal losses). A player qualifies with MIN_TRADES trades and MIN_DAYS
 * daily returns in the season; others are listed but not ranked, and neither promoted nor
 * relegated.
 */
import { dec, type TDecimalInput } from '@/lib/money/decimal';

export const TIERS = ['bronze', 'silver', 'gold', 'platinum', 'diamond'] as const;
export type TTier = (typeof TIERS)[number];
export const TOP_TIER = TIERS.length - 1;

/** Players per division at most: a tier's players are split by size into divisions of about this many. */
export const DIVISION_SIZE = 30;
/** The share of a division's qualified players promoted (top) and relegated (bottom) at season end. */
export const PROMOTE_SHARE = 0.2;
export const RELEGATE_SHARE = 0.2;
export const MIN_TRADES = 3;
export const MIN_DAYS = 3;
/** The volatility floor: a nearly flat equity curve does not divide by almost nothing. */
export const VOLATILITY_FLOOR = 0.01;

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/** The ISO week (UTC) holding `at`: id 2026-W48, from Monday 00:00 to the next Monday 00:00. */
export function seasonOf(at: Date) {
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const startsAt = new Date(day - weekday * DAY_MS);
  // The ISO year is the year of the week's Thursday; week 1 holds the year's first Thursday.
  const thursday = new Date(startsAt.getTime() + 3 * DAY_MS);
  const isoYear = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(isoYear, 0, 1)) / WEEK_MS);
  return { id: `${isoYear}-W${String(week).padStart(2, '0')}`, startsAt, endsAt: new Date(startsAt.getTime() + WEEK_MS) };
}

/** The game day (UTC date) whose close a snapshot taken at `at` records: the day before `at`'s. */
export function closedDayOf(at: Date) {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) - DAY_MS).toISOString().slice(0, 10);
}

/**
 * A newcomer's tier by size: the highest whose multiple of the starting balance their equity
 * reaches (under 1× bronze, 1× silver, 2× gold, 5× platinum, 20× diamond), compared exactly.
 * After that, only results move a player. The season's seating applies the same table in SQL
 * (lib/leagues/service/seasons.ts).
 */
export const PLACEMENT_MULTIPLES: readonly { times: number; tier: number }[] = [
  { times: 20, tier: 4 },
  { times: 5, tier: 3 },
  { times: 2, tier: 2 },
  { times: 1, tier: 1 },
];

export function placementTier(equity: TDecimalInput, startingBalance: TDecimalInput): number {
  const start = dec(startingBalance);
  if (start.lte(0)) return 0;
  const e = dec(equity);
  return PLACEMENT_MULTIPLES.find((p) => e.gte(start.times(p.times)))?.tier ?? 0;
}

/**
 * An NPC's first tier: NPCs are dealt round the tiers in turn (the `n`-th NPC seated in a season
 * goes to tier n mod 5), not placed by size, so every tier (and the division a newcomer lands in)
 * has NPCs to compete with once five are seated. After that results move it, as anyone.
 */
export function spreadTier(n: number): number {
  return ((n % TIERS.length) + TIERS.length) % TIERS.length;
}

export type TDay = { equity: TDecimalInput; flows: TDecimalInput };

/** Daily returns of consecutive closes; a day that starts with no equity has no return. */
export function dailyReturns(days: readonly TDay[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < days.length; i++) {
    const prev = dec(days[i - 1]!.equity);
    if (prev.lte(0)) continue;
    out.push(dec(days[i]!.equity).minus(prev).minus(days[i]!.flows).div(prev).toNumber());
  }
  return out;
}

/** Rounds away float noise so equal inputs give equal, comparable scores. */
const round8 = (x: number) => Math.round(x * 1e8) / 1e8;

export function riskAdjusted(returns: readonly number[]) {
  const n = returns.length;
  if (n === 0) return { seasonReturn: 0, volatility: 0, score: 0, days: 0 };
  const seasonReturn = returns.reduce((g, r) => g * (1 + r), 1) - 1;
  const mean = returns.reduce((s, r) => s + r, 0) / n;
  const variance = returns.reduce((s, r) => s + (r - mean) ** 2, 0) / n;
  const volatility = Math.sqrt(variance) * Math.sqrt(n);
  const risk = Math.max(volatility, VOLATILITY_FLOOR) / VOLATILITY_FLOOR;
  const score = seasonReturn >= 0 ? (100 * seasonReturn) / risk : 100 * seasonReturn * risk;
  return { seasonReturn: round8(seasonReturn), volatility: round8(volatility), score: round8(score), days: n };
}

export function qualifies(trades: number, days: number) {
  return trades >= MIN_TRADES && days >= MIN_DAYS;
}

/**
 * Splits a tier's players by size into divisions of at most DIVISION_SIZE, as evenly as possible:
 * smallest first (start equity, then user id). Answers each player's division, 1-based.
 */
export function divisionsOf<T extends { userId: string; startEquity: TDecimalInput }>(members: readonly T[]) {
  // Each amount parsed once (a sort compares n·log n times).
  const sorted = members
    .map((m) => ({ m, equity: dec(m.startEquity) }))
    .sort((a, b) => a.equity.cmp(b.equity) || (a.m.userId < b.m.userId ? -1 : a.m.userId > b.m.userId ? 1 : 0))
    .map((x) => x.m);
  const count = Math.max(1, Math.ceil(sorted.length / DIVISION_SIZE));
  const out = new Map<string, number>();
  sorted.forEach((m, i) => out.set(m.userId, 1 + Math.floor((i * count) / sorted.length)));
  return { divisions: count, divisionOf: out };
}

export type TScored = { userId: string; tier: number; score: number; qualified: boolean };
export type TOutcome = 'promoted' | 'relegated' | 'stayed';

/** How many of `qualified` players move up and down (never the same player both ways). */
export function zoneSizes(qualified: number) {
  const up = Math.floor(qualified * PROMOTE_SHARE);
  const down = Math.min(Math.floor(qualified * RELEGATE_SHARE), qualified - up);
  return { up, down };
}

/**
 * Ranks one division: qualified players by score (ties share a rank; user id orders them), then
 * the unqualified, unranked. The top zone is promoted (unless already in the top tier), the
 * bottom zone relegated (unless in the bottom tier); a tie straddling a zone's edge moves with
 * the better outcome (nobody is relegated below someone with the same score who stays).
 */
export function rankDivision<T extends TScored>(members: readonly T[]) {
  const qualified = members.filter((m) => m.qualified).sort((a, b) => b.score - a.score || (a.userId < b.userId ? -1 : 1));
  const rest = members.filter((m) => !m.qualified).sort((a, b) => (a.userId < b.userId ? -1 : 1));
  const { up, down } = zoneSizes(qualified.length);
  const ranks: number[] = [];
  qualified.forEach((m, i) => ranks.push(i > 0 && m.score === qualified[i - 1]!.score ? ranks[i - 1]! : i + 1));
  const promoteCut = up > 0 ? qualified[up - 1]!.score : Infinity;
  // The lowest score that stays: the bottom zone's players scoring as much stay with it.
  const firstDown = qualified.length - down;
  const staysAt = firstDown > 0 ? qualified[firstDown - 1]!.score : Infinity;
  const ranked = qualified.map((m, i) => {
    let outcome: TOutcome = 'stayed';
    if (m.score >= promoteCut) outcome = m.tier < TOP_TIER ? 'promoted' : 'stayed';
    else if (down > 0 && i >= firstDown && m.score < staysAt) outcome = m.tier > 0 ? 'relegated' : 'stayed';
    return { member: m, rank: ranks[i]!, outcome };
  });
  return [...ranked, ...rest.map((m) => ({ member: m, rank: null as number | null, outcome: 'stayed' as TOutcome }))];
}

export function nextTier(tier: number, outcome: TOutcome) {
  return outcome === 'promoted' ? Math.min(TOP_TIER, tier + 1) : outcome === 'relegated' ? Math.max(0, tier - 1) : tier;
}
