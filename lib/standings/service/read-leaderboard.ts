/**
 * GET /api/leaderboard: a page of a board from the read model, ranks with ties shared, the
 * caller's own entry whatever the page, and each entry's PnL over the last 14 daily closes.
 * A new account is in the read model from its creation (a trigger, migration 0020); changes follow
 * by the tick's refresh, and a read (this one or the registry's) also refreshes it, at most once
 * every FRESH_MS per instance and only when some account is marked, so one's own new points show
 * within seconds without a tick.
 */
import 'server-only';
import { getDb } from '@/db/client';
import { now } from '@/lib/clock/clock';
import { createTtlCache } from '@/lib/clock/ttl-cache';
import { userSummaryOfRow } from '@/lib/users/dto';
import { hasDirtyStandings, refreshStandings } from '../refresh';
import { countRanked, loadBoardEntry, loadBoardPage, loadPnlHistory, type TPlayers, type TStandingRow } from '../queries';
import { rankPage, totalPagesOf, type TBoard, type TMetric, type TPeriod, type TPointsType } from '../ranking';

export const FRESH_MS = 2_000;
/** How long an instance keeps the board's size (a count of every ranked account). */
export const TOTAL_TTL_MS = 5_000;
export const SPARKLINE_DAYS = 14;

/** The number of ranked accounts, counted at most every TOTAL_TTL_MS per instance (sooner after a refresh). */
const rankedTotals = {
  all: createTtlCache(TOTAL_TTL_MS, async () => countRanked(await getDb(), 'all')),
  humans: createTtlCache(TOTAL_TTL_MS, async () => countRanked(await getDb(), 'humans')),
  agents: createTtlCache(TOTAL_TTL_MS, async () => countRanked(await getDb(), 'agents')),
} satisfies Record<TPlayers, unknown>;
const resetTotals = () => Object.values(rankedTotals).forEach((c) => c.reset());

let lastCheck = 0;
let running: Promise<unknown> | undefined;

/** Refreshes marked accounts unless this instance looked less than FRESH_MS ago; concurrent reads share one run. */
export async function refreshIfStale() {
  if (running) return running;
  if (Date.now() - lastCheck < FRESH_MS) return;
  lastCheck = Date.now();
  running = (async () => {
    if (await hasDirtyStandings()) {
      await refreshStandings();
      resetTotals();
    }
  })().finally(() => {
    running = undefined;
  });
  return running;
}

/** Tests: the next read checks the marks again and counts again. */
export function resetLeaderboardFreshness() {
  lastCheck = 0;
  resetTotals();
}

/** The board's score of a row, as a number (ties compare equal exactly as the index orders them). */
function scoreOf(board: TBoard) {
  return (r: TStandingRow): number => {
    if (board.metric === 'points') return board.pointsType === 'all' ? r.points : board.pointsType === 'earned' ? r.earned_points : r.referral_points;
    return Number(r[`${board.metric}_${board.period}`]);
  };
}

const toEntry = (r: TStandingRow, rank: number, history: Map<string, number[]>, board: TBoard) => ({
  rank,
  // kind agent: an agent account, or one that trades through an API key (lib/api-keys): a bot.
  user: { ...userSummaryOfRow(r.user_id, { ...r, is_actor: r.kind === 'actor' }, { reputation: false }), isBot: r.kind === 'agent' },
  kind: r.kind,
  points: r.points,
  earnedPoints: r.earned_points,
  referralPoints: r.referral_points,
  // The one P&L (lib/equity), as of the last P&L refresh.
  lifetimePnL: Number(r.pnl_all),
  reputation: r.reputation,
  pnlHistory: history.get(r.user_id) ?? [],
  score: scoreOf(board)(r),
  pnl: { day: Number(r.pnl_day), week: Number(r.pnl_week), season: Number(r.pnl_season), all: Number(r.pnl_all) },
  roi: { day: Number(r.roi_day), week: Number(r.roi_week), season: Number(r.roi_season), all: Number(r.roi_all) },
  pnlAt: r.pnl_at ? new Date(r.pnl_at).toISOString() : null,
});

export async function readLeaderboard(input: {
  page: number;
  pageSize: number;
  pointsType: TPointsType;
  metric?: TMetric;
  period?: TPeriod;
  players?: TPlayers;
  callerId?: string;
}) {
  await refreshIfStale();
  const db = await getDb();
  const { page, pageSize, pointsType } = input;
  const metric = input.metric ?? 'points';
  const period = input.period ?? 'all';
  const board: TBoard = metric === 'points' ? { metric, pointsType } : { metric, period };
  const offset = (page - 1) * pageSize;
  const players = input.players ?? 'all';
  const [rows, mine, count] = await Promise.all([
    loadBoardPage(db, board, pageSize, offset, players),
    input.callerId ? loadBoardEntry(db, board, input.callerId, players) : undefined,
    rankedTotals[players].get(),
  ]);
  const since = new Date(now().getTime() - SPARKLINE_DAYS * 86_400_000).toISOString().slice(0, 10);
  const history = await loadPnlHistory(db, [...rows.map((r) => r.user_id), ...(mine ? [mine.user_id] : [])], since);
  const firstRank = rows.length ? 1 + Number(rows[0]!.above) : 1;
  const ranks = rankPage(rows, scoreOf(board), firstRank, offset);
  // A page is never shorter than the count says it should be (the count may lag a few seconds).
  const total = rows.length ? Math.max(count, offset + rows.length) : count;
  return {
    pointsType,
    metric,
    period,
    players,
    leaderboard: rows.map((r, i) => toEntry(r, ranks[i]!, history, board)),
    me: mine ? toEntry(mine, 1 + Number(mine.above), history, board) : null,
    pagination: { page, pageSize, total, totalPages: totalPagesOf(total, pageSize) },
  };
}
