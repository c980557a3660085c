/**
 * Track records in the browser: a user's record (open positions, realized PnL, calibration) and
 * their trade history by page, with the pure helper the calibration chart reads. queryOptions
 * factories own every query key. I/O: the typed client only.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { usersTrackRecord, usersTrades } from '@/lib/contracts/track-record';

export type TTrackRecord = TEndpointResponse<typeof usersTrackRecord>;
export type TCalibrationBucket = TTrackRecord['calibration']['buckets'][number];
export type TUserTradesPage = TEndpointResponse<typeof usersTrades>;
export type TUserTrade = TUserTradesPage['trades'][number];

export const trackRecordKeys = {
  all: ['track-record'] as const,
  record: (userId: string) => [...trackRecordKeys.all, 'record', userId] as const,
  trades: (userId: string, page: number, limit: number) => [...trackRecordKeys.all, 'trades', userId, { page, limit }] as const,
};

export const TRADES_PAGE_SIZE = 10;

export function getTrackRecordQueryOptions(userId: string) {
  return queryOptions({
    queryKey: trackRecordKeys.record(userId),
    queryFn: () => api(usersTrackRecord, { params: { userId } }),
    staleTime: 15_000,
  });
}

export function useTrackRecord(userId: string) {
  return useQuery(getTrackRecordQueryOptions(userId));
}

export function getUserTradesQueryOptions(userId: string, page: number, limit = TRADES_PAGE_SIZE) {
  return queryOptions({
    queryKey: trackRecordKeys.trades(userId, page, limit),
    queryFn: () => api(usersTrades, { params: { userId }, query: { page: String(page), limit: String(limit) } }),
    staleTime: 15_000,
  });
}

/** One page of the history; the previous page stays on screen while the next loads. */
export function useUserTrades(userId: string, page: number) {
  return useQuery({ ...getUserTradesQueryOptions(userId, page), placeholderData: keepPreviousData });
}

export type TCalibrationPoint = {
  /** "60–80%". */
  label: string;
  forecasts: number;
  /** Percentages 0–100 for the bars; null for an empty bucket. */
  said: number | null;
  happened: number | null;
};

/** The chart's rows: each bucket's mean forecast against how often its questions resolved YES. */
export function toCalibrationPoints(buckets: readonly TCalibrationBucket[]): TCalibrationPoint[] {
  return buckets.map((b) => ({
    label: `${Math.round(b.from * 100)}–${Math.round(b.to * 100)}%`,
    forecasts: b.forecasts,
    said: b.meanForecast === null ? null : Math.round(b.meanForecast * 100),
    happened: b.outcomeRate === null ? null : Math.round(b.outcomeRate * 100),
  }));
}

/** The Brier score in words: lower is better; a coin scores 0.25. */
export function describeBrier(brier: number | null) {
  if (brier === null) return 'No resolved questions yet';
  if (brier <= 0.1) return 'Sharp';
  if (brier <= 0.2) return 'Better than a coin';
  if (brier <= 0.25) return 'About a coin';
  return 'Worse than a coin';
}
