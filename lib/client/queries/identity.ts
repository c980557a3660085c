/**
 * On-chain identity in the browser: the signed-in player's registration (an onboarding intent)
 * and starting or retrying it. The status query polls while the intent is in progress (the game
 * tick confirms it on the registry) and stops once it is COMPLETED or FAILED. queryOptions
 * factories own every query key. I/O: the typed client only.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { identityOnchainStatus, identityStartOnchain } from '@/lib/contracts/identity';
import { getMeQueryOptions } from './users';

export type TOnchainStatus = TEndpointResponse<typeof identityOnchainStatus>;
export type TOnboardingIntent = NonNullable<TOnchainStatus['onboardingIntent']>;

/** How often a registration in progress is asked about. */
export const ONCHAIN_POLL_MS = 2_500;

export const identityKeys = {
  all: ['identity'] as const,
  status: () => [...identityKeys.all, 'onchain-status'] as const,
};

export function getOnchainStatusQueryOptions() {
  return queryOptions({
    queryKey: identityKeys.status(),
    queryFn: () => api(identityOnchainStatus),
  });
}

/** Whether a status is still moving (worth asking again). Pure. */
export function isOnchainPending(status: TOnchainStatus | undefined) {
  return status?.onboardingIntent?.status === 'ONCHAIN_IN_PROGRESS';
}

/** The caller's registration; polls every ONCHAIN_POLL_MS while it is in progress. */
export function useOnchainStatus({ enabled = true }: { enabled?: boolean } = {}) {
  const qc = useQueryClient();
  const query = useQuery({
    ...getOnchainStatusQueryOptions(),
    enabled,
    refetchInterval: (q) => (isOnchainPending(q.state.data) ? ONCHAIN_POLL_MS : false),
  });
  const isRegistered = query.data?.onChainRegistered === true;
  // Completion flips the user's onChainRegistered: the cached user follows.
  useEffect(() => {
    if (isRegistered) void qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey });
  }, [isRegistered, qc]);
  return query;
}

/** Starts the registration, or retries a FAILED one (the same intent comes back in progress). */
export function useStartOnchain() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api(identityStartOnchain),
    onSuccess: ({ onboardingIntent }) => {
      qc.setQueryData(identityKeys.status(), (old: TOnchainStatus | undefined) => ({
        success: true as const,
        onChainRegistered: old?.onChainRegistered ?? onboardingIntent.status === 'COMPLETED',
        onboardingIntent,
      }));
    },
  });
}
