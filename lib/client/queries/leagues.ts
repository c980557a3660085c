/**
 * Trading leagues in the browser: the overview (the current season in game time, its tiers, the
 * rules and recent seasons), a division's table (live or final), a player's season history, and
 * the pure helpers the league page reads: which division to show, the address of a view, the
 * countdown to the season's end in game time and what an unqualified player still needs.
 * queryOptions factories own every query key. I/O: the typed client only.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { leaguesDivision, leaguesOverview, userLeagueHistory } from '@/lib/contracts/leagues';

export type TLeaguesOverview = TEndpointResponse<typeof leaguesOverview>;
export type TSeason = NonNullable<TLeaguesOverview['season']>;
export type TLeagueRules = TLeaguesOverview['rules'];
export type TLeagueTier = TLeaguesOverview['tiers'][number];
export type TTierName = TLeagueTier['tierName'];
export type TLeagueDivision = TEndpointResponse<typeof leaguesDivision>;
export type TLeagueEntry = TLeagueDivision['entries'][number];
export type TLeagueOutcome = NonNullable<TLeagueEntry['outcome']>;
export type TLeagueHistory = TEndpointResponse<typeof userLeagueHistory>['history'];
export type TLeagueHistoryRow = TLeagueHistory[number];

/** A division to show: a season (absent: the current one), a tier and a division (1-based). */
export type TLeagueView = { season?: string; tier?: number; division?: number };

export const leagueKeys = {
  all: ['leagues'] as const,
  overview: () => [...leagueKeys.all, 'overview'] as const,
  divisions: () => [...leagueKeys.all, 'division'] as const,
  division: (view: TLeagueView) => [...leagueKeys.divisions(), view.season ?? 'current', view.tier ?? null, view.division ?? null] as const,
  history: (userId: string) => [...leagueKeys.all, 'history', userId] as const,
};

export function getLeaguesOverviewQueryOptions() {
  return queryOptions({
    queryKey: leagueKeys.overview(),
    queryFn: () => api(leaguesOverview),
  });
}

export function useLeaguesOverview() {
  return useQuery(getLeaguesOverviewQueryOptions());
}

export function getLeagueDivisionQueryOptions(view: TLeagueView) {
  return queryOptions({
    queryKey: leagueKeys.division(view),
    queryFn: () => api(leaguesDivision, { query: { season: view.season, tier: view.tier, division: view.division ?? 0 } }),
  });
}

/** A division's table; the table on screen stays while another division loads. */
export function useLeagueDivision(view: TLeagueView, { isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getLeagueDivisionQueryOptions(view), enabled: isEnabled, placeholderData: keepPreviousData });
}

export function getUserLeagueHistoryQueryOptions(userId: string) {
  return queryOptions({
    queryKey: leagueKeys.history(userId),
    queryFn: async () => (await api(userLeagueHistory, { params: { userId } })).history,
  });
}

export function useUserLeagueHistory(userId: string) {
  return useQuery(getUserLeagueHistoryQueryOptions(userId));
}

// ---------------------------------------------------------------------------------------------
// Pure helpers

export const TIER_LABELS: Record<TTierName, string> = { bronze: 'Bronze', silver: 'Silver', gold: 'Gold', platinum: 'Platinum', diamond: 'Diamond' };

export const OUTCOME_LABELS: Record<TLeagueOutcome, string> = { promoted: 'Promoted', relegated: 'Relegated', stayed: 'Stayed' };

const SEASON_ID = /^\d{4}-W\d{2}$/;

/** The view an address asks for (?season=2026-W47&tier=2&division=1); anything malformed is left out. Pure. */
export function leagueViewFromParams(params: { get: (name: string) => string | null }): TLeagueView {
  const season = params.get('season') ?? '';
  // Whole decimal numbers only: an empty ?tier= is no tier (Number('') would read it as 0).
  const whole = (name: string) => {
    const v = params.get(name);
    return v !== null && /^\d{1,6}$/.test(v) ? Number(v) : NaN;
  };
  const tier = whole('tier');
  const division = whole('division');
  return {
    season: SEASON_ID.test(season) ? season : undefined,
    tier: Number.isInteger(tier) && tier >= 0 && tier <= 4 ? tier : undefined,
    division: Number.isInteger(division) && division >= 1 ? division : undefined,
  };
}

/** The address query of a view (what is absent stays absent). Pure. */
export function leagueViewToParams(view: TLeagueView) {
  const p = new URLSearchParams();
  if (view.season) p.set('season', view.season);
  if (view.tier !== undefined) p.set('tier', String(view.tier));
  if (view.division !== undefined) p.set('division', String(view.division));
  return p;
}

/**
 * The division shown when the address names none: the caller's own, else the first division of
 * the highest tier anyone plays in (the API's default, the top tier, is empty in a young world),
 * else the top tier's first. Pure.
 */
export function defaultLeagueView(overview: Pick<TLeaguesOverview, 'me' | 'tiers'>): Required<Omit<TLeagueView, 'season'>> {
  if (overview.me) return { tier: overview.me.tier, division: overview.me.division };
  const played = [...overview.tiers].sort((a, b) => b.tier - a.tier).find((t) => t.members > 0);
  return { tier: played?.tier ?? 4, division: 1 };
}

/** What an unqualified player still needs this season ("2 more trades and 1 more day"); null once qualified. Pure. */
export function qualificationNeeds(entry: Pick<TLeagueEntry, 'trades' | 'days' | 'qualified'>, rules: Pick<TLeagueRules, 'minTrades' | 'minDays'>) {
  if (entry.qualified) return null;
  const trades = Math.max(0, rules.minTrades - entry.trades);
  const days = Math.max(0, rules.minDays - entry.days);
  const parts = [
    trades > 0 ? `${trades} more ${trades === 1 ? 'trade' : 'trades'}` : null,
    days > 0 ? `${days} more ${days === 1 ? 'day' : 'days'}` : null,
  ].filter((p) => p !== null);
  return parts.length ? parts.join(' and ') : null;
}

/** The formula's sentences, one step each ("Daily return r = …", "Season return R = …"). Pure. */
export function formulaSteps(formula: string) {
  return formula
    .split(/(?<=\.)\s+(?=[A-Z])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const pad = (n: number) => String(n).padStart(2, '0');
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** A remaining time as "2d 04h 12m 05s" and in words for screen readers; zero once past. Pure. */
export function formatCountdown(ms: number) {
  const total = Number.isFinite(ms) ? Math.max(0, Math.floor(ms / 1000)) : 0;
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const short = `${days > 0 ? `${days}d ` : ''}${pad(hours)}h ${pad(minutes)}m ${pad(seconds)}s`;
  const long = [days > 0 ? plural(days, 'day') : null, plural(hours, 'hour'), plural(minutes, 'minute')].filter(Boolean).join(', ');
  return { short, long, isOver: total === 0 };
}

/**
 * The game clock in the browser, ticking every second: the server's game time `serverNow` as it
 * was when the answer arrived (`receivedAt`, the query's dataUpdatedAt), moved on by the browser's
 * clock. The offset between the two clocks is computed once per answer, so a browser clock that is
 * set wrong, or a game clock that runs ahead of the wall clock, does not skew the countdown.
 */
export function useGameNow(serverNow: string | undefined, receivedAt: number) {
  const offset = useMemo(() => (serverNow ? Date.parse(serverNow) - receivedAt : null), [serverNow, receivedAt]);
  const [wall, setWall] = useState(() => Date.now());
  useEffect(() => {
    if (offset === null) return;
    const id = setInterval(() => setWall(Date.now()), 1000);
    return () => clearInterval(id);
  }, [offset]);
  return offset === null ? null : Math.max(wall, receivedAt) + offset;
}
