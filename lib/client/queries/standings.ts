/**
 * The leaderboard in the browser: a page of a board (all points, earned or referral) with the
 * caller's own entry (`me`) on every page, and the board the page shows, read from and written to
 * the address (?board=earned), so a board is linkable. queryOptions factories own every query key.
 * The PnL history is for plotting only (plain numbers). I/O: the typed client only.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { leaderboardGet } from '@/lib/contracts/standings';

export type TLeaderboard = TEndpointResponse<typeof leaderboardGet>;
export type TLeaderboardEntry = TLeaderboard['leaderboard'][number];
export type TPointsType = TLeaderboard['pointsType'];

/** A tab of the leaderboard page: a points board, or the caller's league division. */
export type TBoard = TPointsType | 'league';

export const BOARDS: readonly { value: TBoard; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'earned', label: 'Earned' },
  { value: 'referral', label: 'Referral' },
  { value: 'league', label: 'League' },
];

/** The UI's page size (the API allows up to 100). */
export const LEADERBOARD_PAGE_SIZE = 50;

export const standingsKeys = {
  all: ['standings'] as const,
  boards: () => [...standingsKeys.all, 'board'] as const,
  board: (pointsType: TPointsType, page: number) => [...standingsKeys.boards(), pointsType, page] as const,
};

export function getLeaderboardQueryOptions(pointsType: TPointsType, page: number) {
  return queryOptions({
    queryKey: standingsKeys.board(pointsType, page),
    queryFn: () => api(leaderboardGet, { query: { pointsType, page, pageSize: LEADERBOARD_PAGE_SIZE } }),
  });
}

/** One page of a board; the page on screen stays while the next one loads. */
export function useLeaderboard(pointsType: TPointsType, page: number, { isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getLeaderboardQueryOptions(pointsType, page), enabled: isEnabled, placeholderData: keepPreviousData });
}

/** The board and page an address asks for (?board=earned&page=2); anything unknown is the default. Pure. */
export function leaderboardFromParams(params: { get: (name: string) => string | null }): { board: TBoard; page: number } {
  const board = BOARDS.find((b) => b.value === params.get('board'))?.value ?? 'all';
  const page = Number(params.get('page') ?? 1);
  return { board, page: Number.isInteger(page) && page > 1 ? page : 1 };
}

/** The address query for a board and page (defaults left out). Pure. */
export function leaderboardToParams(board: TBoard, page: number) {
  const p = new URLSearchParams();
  if (board !== 'all') p.set('board', board);
  if (page > 1 && board !== 'league') p.set('page', String(page));
  return p;
}

/** The points an entry is ranked by on a board. Pure. */
export function boardPoints(entry: TLeaderboardEntry, pointsType: TPointsType) {
  return pointsType === 'all' ? entry.points : pointsType === 'earned' ? entry.earnedPoints : entry.referralPoints;
}

/** What a board ranks by, in words ("points earned by their own activity"). */
export const BOARD_WORDS: Record<TPointsType, { column: string; unit: string; caption: string }> = {
  all: { column: 'Points', unit: 'points', caption: 'all points' },
  earned: { column: 'Earned', unit: 'points earned', caption: 'points earned by their own activity' },
  referral: { column: 'Referral', unit: 'referral points', caption: 'points earned by referring players' },
};

/**
 * Which entries share their rank with a neighbour on the page (ties show as "=3"). The API gives
 * tied players the same rank; a tie with a player on the next page is not seen here. Pure.
 */
export function tiedRanks(entries: readonly Pick<TLeaderboardEntry, 'rank'>[]) {
  const counts = new Map<number, number>();
  for (const e of entries) counts.set(e.rank, (counts.get(e.rank) ?? 0) + 1);
  return new Set([...counts].filter(([, n]) => n > 1).map(([rank]) => rank));
}
