/**
 * The waitlist in the browser: the signed-in player's place (rank, points, how many are ahead,
 * referrals) and the top of the list. queryOptions factories own every query key; the points
 * that move a place (transfers, bonuses, milestones) invalidate through waitlistKeys.
 * I/O: the typed client only.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { waitlistLeaderboard, waitlistPosition } from '@/lib/contracts/waitlist';

export type TWaitlistPosition = TEndpointResponse<typeof waitlistPosition>['position'];

export const waitlistKeys = {
  all: ['waitlist'] as const,
  position: () => [...waitlistKeys.all, 'position'] as const,
  leaderboard: (limit: number) => [...waitlistKeys.all, 'leaderboard', limit] as const,
};

export function getWaitlistPositionQueryOptions() {
  return queryOptions({
    queryKey: waitlistKeys.position(),
    queryFn: async () => (await api(waitlistPosition)).position,
  });
}

export function useWaitlistPosition({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getWaitlistPositionQueryOptions(), enabled });
}

export function getWaitlistLeaderboardQueryOptions(limit = 10) {
  return queryOptions({
    queryKey: waitlistKeys.leaderboard(limit),
    queryFn: () => api(waitlistLeaderboard, { query: { limit } }),
  });
}

export function useWaitlistLeaderboard(limit = 10) {
  return useQuery(getWaitlistLeaderboardQueryOptions(limit));
}
