/**
 * Leaderboard ranking, pure. Boards order by points (descending), user id breaking ties only for
 * a stable order: players with equal points share a rank ("competition" ranking: 1, 2, 2, 4), and
 * a rank is 1 + the number of players with strictly more points, whichever page shows it.
 */
export const POINTS_TYPES = ['all', 'earned', 'referral'] as const;
export type TPointsType = (typeof POINTS_TYPES)[number];

/** What a board ranks by: points (of a kind), or the one P&L or its return over a period. */
export const METRICS = ['points', 'pnl', 'roi'] as const;
export type TMetric = (typeof METRICS)[number];
export const PERIODS = ['day', 'week', 'season', 'all'] as const;
export type TPeriod = (typeof PERIODS)[number];

/** A board: points by kind, or a metric over a period. */
export type TBoard = { metric: 'points'; pointsType: TPointsType } | { metric: 'pnl' | 'roi'; period: TPeriod };

/**
 * Where a points change counts: transfers move points between players without earning any;
 * referral awards count on the referral board; everything else (milestones, shares, bonuses,
 * administrators' awards and corrections, actors' standing) is earned.
 */
export function pointsKindOf(reason: string): 'transfer' | 'referral' | 'earned' {
  if (reason === 'transfer_in' || reason === 'transfer_out') return 'transfer';
  if (reason === 'milestone:first_referral' || reason.startsWith('referral')) return 'referral';
  return 'earned';
}

/**
 * Ranks a page of rows already in board order. `firstRank` is the rank of the page's first row
 * (1 + the count of rows scoring strictly more); `offset` is the number of rows before the page.
 */
export function rankPage<T>(rows: readonly T[], scoreOf: (row: T) => number, firstRank: number, offset: number) {
  const ranks: number[] = [];
  rows.forEach((row, i) => {
    if (i === 0) ranks.push(firstRank);
    else ranks.push(scoreOf(row) === scoreOf(rows[i - 1]!) ? ranks[i - 1]! : offset + i + 1);
  });
  return ranks;
}

/** Rank of a score among all scores: 1 + how many are strictly greater. */
export function rankOf(score: number, all: readonly number[]) {
  return 1 + all.filter((s) => s > score).length;
}

export function totalPagesOf(total: number, pageSize: number) {
  return Math.max(1, Math.ceil(total / pageSize));
}
