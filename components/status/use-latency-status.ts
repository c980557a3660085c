/**
 * The published latency in the browser (GET /api/status, public), refreshed every 15 s while the
 * page is open. I/O: the typed client only.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { metricsStatus } from '@/lib/contracts/metrics';

export type TLatencyStatus = TEndpointResponse<typeof metricsStatus>;
export type TGroupLatency = TLatencyStatus['groups'][number];

export const STATUS_REFRESH_MS = 15_000;

export const latencyStatusKeys = { all: ['metrics', 'status'] as const };

export function getLatencyStatusQueryOptions() {
  return queryOptions({
    queryKey: latencyStatusKeys.all,
    queryFn: () => api(metricsStatus),
    refetchInterval: STATUS_REFRESH_MS,
  });
}

export function useLatencyStatus() {
  return useQuery(getLatencyStatusQueryOptions());
}
