/**
 * Reputation, pure: a score from 0 to 1000 made of weighted parts, each a value in [0, 1] computed
 * from raw figures, minus penalties. Deterministic and explainable: the breakdown route answers
 * each part's weight, raw figures, value and contribution, and these add up to the score.
 *
 *   trading    35 %  win rate of closed positions (shrunk towards 0 while there are few), volume
 *                    traded (log scale), and the latest league score
 *   accuracy   25 %  1 − Brier score of one's forecasts on resolved questions, shrunk while few
 *   social     20 %  followers and engagement received (likes, comments, shares), log scale
 *   community  20 %  points and referrals, log scale
 *   penalties        40 per upheld report against one (at most 400); 500 for a ban
 *
 * Log scales saturate at a target (1,000 followers, 10,000 engagements, 1,000,000 traded,
 * 2,000 points, 50 referrals), so no single figure buys the whole score.
 */
export const MAX_REPUTATION = 1000;

export const LEVELS = [
  { level: 'newcomer', min: 0 },
  { level: 'contributor', min: 200 },
  { level: 'trusted', min: 400 },
  { level: 'respected', min: 600 },
  { level: 'legendary', min: 800 },
] as const;
export type TLevel = (typeof LEVELS)[number]['level'];

export const WEIGHTS = { trading: 0.35, accuracy: 0.25, social: 0.2, community: 0.2 } as const;
export const REPORT_PENALTY = 40;
export const MAX_REPORT_PENALTY = 400;
export const BAN_PENALTY = 500;

export type TReputationInputs = {
  /** Closed perp positions and settled prediction positions, and how many made money. */
  closedPositions: number;
  winningPositions: number;
  /** Traded amount, all time (predictions and perps, gross). */
  volume: number;
  /** The newest league score (lib/leagues/math riskAdjusted), if the player was ranked in one. */
  leagueScore: number | null;
  /** Resolved questions one forecast on, and the mean Brier score of those forecasts. */
  resolvedForecasts: number;
  brier: number | null;
  followers: number;
  /** Likes, comments and shares received on one's posts. */
  engagement: number;
  points: number;
  referrals: number;
  upheldReports: number;
  banned: boolean;
};

/** log(1 + x) / log(1 + target), in [0, 1]. */
export function logScale(x: number, target: number) {
  return (x <= 0 ? 0 : Math.min(1, Math.log1p(x) / Math.log1p(target)));
}
/** n / (n + k): how much a rate over n cases is trusted. */
const confidence = (n: number, k: number) => (n <= 0 ? 0 : n / (n + k));
const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

export function levelOf(score: number): TLevel {
  let out: TLevel = 'newcomer';
  for (const l of LEVELS) if (score >= l.min) out = l.level;
  return out;
}

export function reputationOf(inp: TReputationInputs) {
  const winRate = inp.closedPositions > 0 ? inp.winningPositions / inp.closedPositions : 0;
  const winScore = winRate * confidence(inp.closedPositions, 10);
  const volumeScore = logScale(inp.volume, 1_000_000);
  const leagueScoreValue = inp.leagueScore === null ? 0 : clamp01(0.5 + Math.tanh(inp.leagueScore / 5) / 2);
  const trading = clamp01(0.5 * winScore + 0.3 * volumeScore + 0.2 * leagueScoreValue);

  const accuracy = inp.brier === null ? 0 : clamp01((1 - inp.brier) * confidence(inp.resolvedForecasts, 5));
  const social = clamp01(0.5 * logScale(inp.followers, 1_000) + 0.5 * logScale(inp.engagement, 10_000));
  const community = clamp01(0.6 * logScale(inp.points, 2_000) + 0.4 * logScale(inp.referrals, 50));

  type TRaw = Record<string, number | null>;
  const parts: { key: 'trading' | 'accuracy' | 'social' | 'community'; label: string; weight: number; value: number; raw: TRaw }[] = [
    { key: 'trading' as const, label: 'Trading', weight: WEIGHTS.trading, value: trading, raw: { winRate: r4(winRate), closedPositions: inp.closedPositions, volume: inp.volume, leagueScore: inp.leagueScore } },
    { key: 'accuracy' as const, label: 'Prediction accuracy', weight: WEIGHTS.accuracy, value: accuracy, raw: { brierScore: inp.brier === null ? null : r4(inp.brier), resolvedForecasts: inp.resolvedForecasts } },
    { key: 'social' as const, label: 'Social', weight: WEIGHTS.social, value: social, raw: { followers: inp.followers, engagement: inp.engagement } },
    { key: 'community' as const, label: 'Community', weight: WEIGHTS.community, value: community, raw: { points: inp.points, referrals: inp.referrals } },
  ];
  const shown = parts.map((p) => {
    // The contribution follows from the value as shown, so a reader can recompute it.
    const value = r4(p.value);
    return { ...p, value, contribution: Math.round(MAX_REPUTATION * p.weight * value) };
  });

  const reportPenalty = Math.min(MAX_REPORT_PENALTY, REPORT_PENALTY * Math.max(0, inp.upheldReports));
  const banPenalty = inp.banned ? BAN_PENALTY : 0;
  const penalties: { key: 'reports' | 'ban'; label: string; raw: TRaw; contribution: number }[] = [
    { key: 'reports' as const, label: 'Upheld reports', raw: { upheldReports: inp.upheldReports }, contribution: -reportPenalty },
    { key: 'ban' as const, label: 'Banned', raw: { banned: inp.banned ? 1 : 0 }, contribution: -banPenalty },
  ];
  const gross = shown.reduce((s, p) => s + p.contribution, 0);
  const score = Math.max(0, Math.min(MAX_REPUTATION, gross - reportPenalty - banPenalty));
  return { score, level: levelOf(score), parts: shown, penalties };
}
