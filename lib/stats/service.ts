/**
 * GET /api/stats: the system at a glance. Answered from a per-instance cache refreshed at most
 * every STATS_TTL_MS (concurrent requests share one refresh), so a popular page never loads the
 * database; SSE clients are this instance's, read live.
 */
import 'server-only';
import { getDb } from '@/db/client';
import { now } from '@/lib/clock/clock';
import { dec, toDecimalString } from '@/lib/money/decimal';
import { loadHoldings } from '@/lib/pools/holdings';
import { realtimeStats } from '@/lib/realtime';
import { createTtlCache } from '@/lib/clock/ttl-cache';
import { loadStatsRow } from './queries';

export const STATS_TTL_MS = 5_000;
const DAY_MS = 86_400_000;

const compute = async () => {
  const db = await getDb();
  const at = now();
  const row = await loadStatsRow(db, new Date(at.getTime() - DAY_MS));
  const accounts = row.pool_accounts ?? [];
  const holdings = accounts.length ? await loadHoldings(db, accounts) : new Map();
  const poolAssets = [...holdings.values()].reduce((s, h) => s.plus(h.nav), dec(0));
  return {
    players: Number(row.players),
    npcActors: Number(row.actors),
    agents: Number(row.agents),
    activeUsers24h: Number(row.active_24h),
    openQuestions: Number(row.open_questions),
    resolvedQuestions: Number(row.resolved_questions),
    predictionVolume24h: toDecimalString(row.prediction_volume_24h),
    perpsOpenInterest: toDecimalString(row.perps_open_interest),
    perpsVolume24h: toDecimalString(row.perps_volume_24h),
    poolAssets: toDecimalString(poolAssets.toDecimalPlaces(8)),
    posts24h: Number(row.posts_24h),
    computedAt: at.toISOString(),
  };
};

const stats = createTtlCache(STATS_TTL_MS, compute);

export async function getStats() {
  return { stats: { ...(await stats.get()), sseClients: realtimeStats().totalClients } };
}

/** Tests: forget the cached figures. */
export function resetStatsCache() {
  return stats.reset();
}
