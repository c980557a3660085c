/**
 * Reputation in the browser: an account's score (0 to 1000) and level, and what makes it up (the
 * weighted parts and the penalties), with the helpers the profile's chart reads: the bar scale and
 * the raw figures in words. queryOptions factories own every query key. I/O: the typed client only.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { reputationBreakdownGet, reputationGet } from '@/lib/contracts/reputation';

export type TReputation = TEndpointResponse<typeof reputationGet>['reputation'];
export type TReputationLevel = TReputation['level'];
export type TReputationBreakdown = TEndpointResponse<typeof reputationBreakdownGet>;
export type TReputationPart = TReputationBreakdown['breakdown']['parts'][number];
export type TReputationPenalty = TReputationBreakdown['breakdown']['penalties'][number];

export const reputationKeys = {
  all: ['reputation'] as const,
  score: (userId: string) => [...reputationKeys.all, 'score', userId] as const,
  breakdown: (userId: string) => [...reputationKeys.all, 'breakdown', userId] as const,
};

export function getReputationQueryOptions(userId: string) {
  return queryOptions({
    queryKey: reputationKeys.score(userId),
    queryFn: async () => (await api(reputationGet, { params: { userId } })).reputation,
  });
}

export function useReputation(userId: string) {
  return useQuery(getReputationQueryOptions(userId));
}

/** The score with its breakdown (the profile's card shows both from this one answer). */
export function getReputationBreakdownQueryOptions(userId: string) {
  return queryOptions({
    queryKey: reputationKeys.breakdown(userId),
    queryFn: () => api(reputationBreakdownGet, { params: { userId } }),
  });
}

export function useReputationBreakdown(userId: string) {
  return useQuery(getReputationBreakdownQueryOptions(userId));
}

// ---------------------------------------------------------------------------------------------
// Pure helpers

export const LEVEL_LABELS: Record<TReputationLevel, string> = {
  newcomer: 'Newcomer',
  contributor: 'Contributor',
  trusted: 'Trusted',
  respected: 'Respected',
  legendary: 'Legendary',
};

/** One bar of the breakdown chart: a part (out of the most it can give) or a penalty (negative). */
export type TReputationBar = { key: string; label: string; points: number; maxPoints: number | null; isPenalty: boolean };

/**
 * The chart's bars and scale: a part's bar is its contribution out of weight × maxScore; a
 * penalty's is its (negative) contribution. `positiveMax` is the largest part's most, `negativeMax`
 * the largest penalty taken (0 when none applies), so zero sits at negativeMax / (sum). Pure.
 */
export function toReputationBars(breakdown: TReputationBreakdown['breakdown'], maxScore: number) {
  const bars: TReputationBar[] = [
    ...breakdown.parts.map((p) => ({ key: p.key, label: p.label, points: p.contribution, maxPoints: Math.round(p.weight * maxScore), isPenalty: false })),
    ...breakdown.penalties.map((p) => ({ key: p.key, label: p.label, points: p.contribution, maxPoints: null, isPenalty: true })),
  ];
  const positiveMax = Math.max(1, ...bars.map((b) => b.maxPoints ?? 0));
  const negativeMax = Math.max(0, ...bars.filter((b) => b.isPenalty).map((b) => -b.points));
  return { bars, positiveMax, negativeMax };
}

const RAW_LABELS: Record<string, string> = {
  winRate: 'Win rate',
  closedPositions: 'Closed positions',
  volume: 'Volume traded',
  leagueScore: 'League score',
  brierScore: 'Brier score',
  resolvedForecasts: 'Resolved forecasts',
  followers: 'Followers',
  engagement: 'Engagement',
  points: 'Points',
  referrals: 'Referrals',
  upheldReports: 'Upheld reports',
  banned: 'Banned',
};

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** "winRate" → "Win rate"; an unknown key is split at its capitals. Pure. */
export function rawFigureLabel(key: string) {
  const known = RAW_LABELS[key];
  if (known) return known;
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A raw figure as shown: "none yet" for null, rates in percent, volume in dollars, flags as yes or no. Pure. */
export function formatRawFigure(key: string, value: number | null) {
  if (value === null) return 'none yet';
  if (key === 'winRate') return percent.format(value);
  if (key === 'volume') return money.format(value);
  if (key === 'banned') return value ? 'yes' : 'no';
  return Number.isInteger(value) ? whole.format(value) : decimal.format(value);
}
