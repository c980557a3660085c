/**
 * Referrals in the browser: the signed-in player's code and link, the players they referred and
 * the fees those earned them (by source and by day). queryOptions factories own every query key.
 * The chart series is for plotting only (plain numbers); totals are shown from the server's
 * decimal strings. I/O: the typed client only.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { referralsCode, referralsFees, referralsList } from '@/lib/contracts/referrals';

export type TReferralCode = TEndpointResponse<typeof referralsCode>;
export type TReferralList = TEndpointResponse<typeof referralsList>;
export type TReferral = TReferralList['referrals'][number];
export type TReferralFees = TEndpointResponse<typeof referralsFees>;
export type TFeeDay = TReferralFees['byDay'][number];
export type TFeeSource = keyof TFeeDay['bySource'];

export const FEE_SOURCES: readonly { key: TFeeSource; label: string }[] = [
  { key: 'predictions', label: 'Predictions' },
  { key: 'perps', label: 'Perps' },
  { key: 'pools', label: 'Pools' },
];

export const referralKeys = {
  all: ['referrals'] as const,
  code: (userId: string) => [...referralKeys.all, 'code', userId] as const,
  list: (userId: string) => [...referralKeys.all, 'list', userId] as const,
  fees: (userId: string, days: number) => [...referralKeys.all, 'fees', userId, days] as const,
};

export function getReferralCodeQueryOptions(userId: string) {
  return queryOptions({
    queryKey: referralKeys.code(userId),
    queryFn: () => api(referralsCode, { params: { userId } }),
  });
}

export function useReferralCode(userId: string | undefined) {
  return useQuery({ ...getReferralCodeQueryOptions(userId ?? ''), enabled: !!userId });
}

export function getReferralsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: referralKeys.list(userId),
    queryFn: () => api(referralsList, { params: { userId }, query: { limit: 200 } }),
  });
}

export function useReferrals(userId: string | undefined) {
  return useQuery({ ...getReferralsQueryOptions(userId ?? ''), enabled: !!userId });
}

export function getReferralFeesQueryOptions(userId: string, days: number) {
  return queryOptions({
    queryKey: referralKeys.fees(userId, days),
    queryFn: () => api(referralsFees, { params: { userId }, query: { days } }),
  });
}

export function useReferralFees(userId: string | undefined, days = 30) {
  return useQuery({ ...getReferralFeesQueryOptions(userId ?? '', days), enabled: !!userId });
}

export type TFeeChartDay = { day: string; total: number } & Record<TFeeSource, number>;

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * One bar per day of the last `days` days ending `today` (UTC, oldest first): the server lists
 * only days with fees, so the others are filled with zeros. Plain numbers, for plotting only. Pure.
 */
export function toFeeChartDays(byDay: readonly TFeeDay[], days: number, today: string): TFeeChartDay[] {
  const byKey = new Map(byDay.map((d) => [d.day, d]));
  return Array.from({ length: days }, (_, i) => {
    const day = addDays(today, i - days + 1);
    const d = byKey.get(day);
    return {
      day,
      predictions: Number(d?.bySource.predictions ?? 0),
      perps: Number(d?.bySource.perps ?? 0),
      pools: Number(d?.bySource.pools ?? 0),
      total: Number(d?.total ?? 0),
    };
  });
}
