/**
 * The system's figures in the browser (GET /api/stats, public). The server caches them for a few
 * seconds; the strip refreshes every 30 s while the page is open. I/O: the typed client only.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { statsGet } from '@/lib/contracts/stats';

export type TStats = TEndpointResponse<typeof statsGet>['stats'];

export const statsKeys = { all: ['stats'] as const };

export const STATS_REFRESH_MS = 30_000;

export function getStatsQueryOptions() {
  return queryOptions({
    queryKey: statsKeys.all,
    queryFn: async () => (await api(statsGet)).stats,
    refetchInterval: STATS_REFRESH_MS,
  });
}

export function useStats() {
  return useQuery(getStatsQueryOptions());
}
