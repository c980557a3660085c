/**
 * The leaderboard in the browser: a page of a board (all points, earned or referral) with the
 * caller's own entry (`me`) on every page, and the board the page shows, read from and written to
 * the address (?board=earned), so a board is linkable; the ranked boards can be narrowed to humans or
 * to agents and bots (?players=agents). queryOptions factories own every query key.
 * The PnL history is for plotting only (plain numbers). I/O: the typed client only.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointInput, TEndpointResponse } from '@/lib/contracts/endpoint';
import { leaderboardGet } from '@/lib/contracts/standings';

export type TLeaderboard = TEndpointResponse<typeof leaderboardGet>;
export type TLeaderboardEntry = TLeaderboard['leaderboard'][number];
export type TPointsType = TLeaderboard['pointsType'];

export type TPeriod = TLeaderboard['period'];
/** Who a ranked board lists: everyone, humans (no bot mark) or agents (agent accounts and players who trade by API key). */
export type TPlayers = NonNullable<TEndpointInput<typeof leaderboardGet>['query']>['players'] & string;

/** A tab of the leaderboard page: a points board, a P&L or ROI board, or the caller's league division. */
export type TBoard = TPointsType | 'pnl' | 'roi' | 'league';
/** The boards the API ranks (every tab but the league). */
export type TRankedBoard = Exclude<TBoard, 'league'>;

export const BOARDS: readonly { value: TBoard; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'earned', label: 'Earned' },
  { value: 'referral', label: 'Referral' },
  { value: 'pnl', label: 'P&L' },
  { value: 'roi', label: 'ROI' },
  { value: 'league', label: 'League' },
];

/** The periods of the P&L and ROI boards. */
export const PERIODS: readonly { value: TPeriod; label: string }[] = [
  { value: 'day', label: 'Today' },
  { value: 'week', label: 'Week' },
  { value: 'season', label: 'Season' },
  { value: 'all', label: 'All time' },
];

/** The player filters of the ranked boards. */
export const PLAYER_FILTERS: readonly { value: TPlayers; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'humans', label: 'Humans' },
  { value: 'agents', label: 'Agents' },
];

/** Whether a board ranks by P&L or its return (and so has a period). Pure. */
export function isMetricBoard(board: TBoard): board is 'pnl' | 'roi' {
  return board === 'pnl' || board === 'roi';
}

/** The API's query for a board. Pure. */
function boardQuery(board: TRankedBoard, period: TPeriod) {
  return isMetricBoard(board) ? { metric: board, period, pointsType: 'all' as const } : { metric: 'points' as const, period: 'all' as const, pointsType: board };
}

/** The UI's page size (the API allows up to 100). */
export const LEADERBOARD_PAGE_SIZE = 50;

export const standingsKeys = {
  all: ['standings'] as const,
  boards: () => [...standingsKeys.all, 'board'] as const,
  board: (board: TRankedBoard, period: TPeriod, page: number, players: TPlayers = 'all') => [...standingsKeys.boards(), board, period, page, players] as const,
};

export function getLeaderboardQueryOptions(board: TRankedBoard, page: number, period: TPeriod = 'all', players: TPlayers = 'all') {
  const query = boardQuery(board, period);
  return queryOptions({
    queryKey: standingsKeys.board(board, query.period, page, players),
    queryFn: () => api(leaderboardGet, { query: { ...query, players, page, pageSize: LEADERBOARD_PAGE_SIZE } }),
  });
}

/** One page of a board; the page on screen stays while the next one loads. */
export function useLeaderboard(
  board: TRankedBoard,
  page: number,
  { period = 'all', players = 'all', isEnabled = true }: { period?: TPeriod; players?: TPlayers; isEnabled?: boolean } = {},
) {
  return useQuery({ ...getLeaderboardQueryOptions(board, page, period, players), enabled: isEnabled, placeholderData: keepPreviousData });
}

export type TLeaderboardLocation = { board: TBoard; page: number; period: TPeriod; players: TPlayers };

/**
 * The board, period, player filter and page an address asks for (?board=pnl&period=week&players=humans&page=2);
 * anything unknown is the default. The league board has no player filter. Pure.
 */
export function leaderboardFromParams(params: { get: (name: string) => string | null }): TLeaderboardLocation {
  const board = BOARDS.find((b) => b.value === params.get('board'))?.value ?? 'all';
  const page = Number(params.get('page') ?? 1);
  const period = (isMetricBoard(board) && PERIODS.find((p) => p.value === params.get('period'))?.value) || 'all';
  const players = (board !== 'league' && PLAYER_FILTERS.find((p) => p.value === params.get('players'))?.value) || 'all';
  return { board, page: Number.isInteger(page) && page > 1 ? page : 1, period, players };
}

/** The address query for a board, page, period and player filter (defaults left out). Pure. */
export function leaderboardToParams(board: TBoard, page: number, period: TPeriod = 'all', players: TPlayers = 'all') {
  const p = new URLSearchParams();
  if (board !== 'all') p.set('board', board);
  if (isMetricBoard(board) && period !== 'all') p.set('period', period);
  if (board !== 'league' && players !== 'all') p.set('players', players);
  if (page > 1 && board !== 'league') p.set('page', String(page));
  return p;
}

/** The points an entry is ranked by on a points board. Pure. */
export function boardPoints(entry: TLeaderboardEntry, pointsType: TPointsType) {
  return pointsType === 'all' ? entry.points : pointsType === 'earned' ? entry.earnedPoints : entry.referralPoints;
}

/** What a board ranks by, in words ("points earned by their own activity"). */
export const BOARD_WORDS: Record<TRankedBoard, { column: string; unit: string; caption: string }> = {
  all: { column: 'Points', unit: 'points', caption: 'all points' },
  earned: { column: 'Earned', unit: 'points earned', caption: 'points earned by their own activity' },
  referral: { column: 'Referral', unit: 'referral points', caption: 'points earned by referring players' },
  pnl: { column: 'P&L', unit: 'profit or loss', caption: 'profit and loss (equity less money put in)' },
  roi: { column: 'ROI', unit: 'return', caption: 'return on what was at stake' },
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
