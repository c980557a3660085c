/**
 * The admin console in the browser: who may open it, the report queue (filters, sort, offset
 * pages), one report in full and the actions on it, the report totals, system statistics with
 * their daily series, the trade feed, user management (search, filters, bans and roles).
 * queryOptions factories own every query key; hooks and invalidations go through them. The server
 * decides who may do what (moderators work the queue, administrators everything): the client
 * only hides what the caller's role could never use.
 * Pure helpers (filters to a query, chart series, labels) do no I/O. I/O: the typed client only.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointInput, TEndpointResponse } from '@/lib/contracts/endpoint';
import {
  adminBanUser,
  adminReportAction,
  adminReportDetail,
  adminReports,
  adminReportStats,
  adminSetRole,
  adminStats,
  adminTrades,
  adminUsers,
  type TAdminReport,
} from '@/lib/contracts/admin';
import { ZReportCategory, type TReport } from '@/lib/contracts/moderation';
import { registryAppCreate, registryAppDelete, registryList } from '@/lib/contracts/registry';
import type { TUser } from '@/lib/contracts/users';
import { hasErrorCode, type TErrorMessages } from './errors';
import { postKeys } from './posts';
import { useSession } from './users';

export type { TAdminReport };
export type TReportStatus = TReport['status'];
export type TReportPriority = TReport['priority'];
export type TReportCategory = TReport['category'];
export type TReportType = TReport['reportType'];
export type TReportSource = TReport['source'];
export type TAdminReportDetail = TEndpointResponse<typeof adminReportDetail>;
export type TAdminReportAuditEntry = TAdminReportDetail['actions'][number];
export type TAdminReportedPost = TAdminReportDetail['recentPosts'][number];
export type TReportActionKind = NonNullable<TEndpointInput<typeof adminReportAction>['body']>['action'];
export type TAdminReportStats = TEndpointResponse<typeof adminReportStats>;
export type TAdminStats = TEndpointResponse<typeof adminStats>;
export type TAdminDay = TAdminStats['byDay'][number];
export type TAdminTradesPage = TEndpointResponse<typeof adminTrades>;
export type TAdminTrade = TAdminTradesPage['trades'][number];
export type TAdminUsersPage = TEndpointResponse<typeof adminUsers>;
export type TAdminUser = TAdminUsersPage['users'][number];
export type TUserRole = TAdminUser['role'];

const keys = {
  all: ['admin'] as const,
  reports: () => [...keys.all, 'reports'] as const,
  reportList: (filters: TReportFilters, offset: number) => [...keys.reports(), 'list', filters, offset] as const,
  report: (id: string) => [...keys.reports(), 'detail', id] as const,
  reportStats: () => [...keys.reports(), 'stats'] as const,
  stats: (days: number) => [...keys.all, 'stats', days] as const,
  trades: (filters: TTradeFilters, offset: number) => [...keys.all, 'trades', filters, offset] as const,
  users: () => [...keys.all, 'users'] as const,
  userList: (filters: TUserFilters, offset: number) => [...keys.users(), filters, offset] as const,
  apps: () => [...keys.all, 'registry-apps'] as const,
};

// ---------------------------------------------------------------------------------------------
// Who may open the console

export type TConsoleRole = 'admin' | 'moderator' | null;

/** The console role of a signed-in user: administrators do everything, moderators work the report queue. */
export function consoleRoleOf(user: Pick<TUser, 'isAdmin' | 'isModerator'> | undefined): TConsoleRole {
  return user?.isAdmin ? 'admin' : user?.isModerator ? 'moderator' : null;
}

/**
 * The signed-in user's console role. `/api/users/me` says it for the user themself; the queue's
 * totals are asked only when it does not (an older server), and answer for moderators alone.
 */
export function useConsoleRole() {
  const session = useSession();
  const user = session.user;
  const isRoleUnknown = !!user && user.isModerator === undefined && !user.isAdmin;
  const probe = useQuery({ ...getReportStatsQueryOptions(), enabled: isRoleUnknown, retry: false });
  const role: TConsoleRole = isRoleUnknown ? (probe.isSuccess ? 'moderator' : null) : consoleRoleOf(user);
  return {
    role,
    isSignedOut: session.isSignedOut,
    isPending: session.isPending || (isRoleUnknown && probe.isPending),
    failure: session.failure,
    refetch: session.refetch,
    isFetching: session.isFetching,
  };
}

// ---------------------------------------------------------------------------------------------
// The report queue

export const REPORT_PAGE_SIZE = 25;

export type TReportSort = 'created' | 'updated' | 'priority';
export type TReportFilters = {
  status?: TReportStatus;
  category?: TReportCategory;
  priority?: TReportPriority;
  reportType?: TReportType;
  source?: TReportSource;
  sortBy: TReportSort;
  sortOrder: 'asc' | 'desc';
};

/** The queue opens on what needs work: pending reports, most urgent first. */
export const DEFAULT_REPORT_FILTERS: TReportFilters = { status: 'pending', sortBy: 'priority', sortOrder: 'desc' };

export const REPORT_STATUSES: readonly TReportStatus[] = ['pending', 'reviewing', 'resolved', 'dismissed'];
export const REPORT_PRIORITIES: readonly TReportPriority[] = ['critical', 'high', 'medium', 'low'];

const oneOf = <T extends string>(values: readonly T[], v: string | null): T | undefined => (v !== null && (values as readonly string[]).includes(v) ? (v as T) : undefined);

/**
 * The queue's filters, sort and offset from the page address (so a report opened from the queue
 * comes back to the same view). Unknown values fall back to the defaults; `status=all` shows every
 * status.
 */
export function reportQueueFromParams(params: { get: (name: string) => string | null }): { filters: TReportFilters; offset: number } {
  const statusParam = params.get('status');
  const offset = Number(params.get('offset') ?? 0);
  return {
    filters: {
      status: statusParam === 'all' ? undefined : (oneOf(REPORT_STATUSES, statusParam) ?? DEFAULT_REPORT_FILTERS.status),
      category: oneOf(ZReportCategory.options, params.get('category')),
      priority: oneOf(REPORT_PRIORITIES, params.get('priority')),
      reportType: oneOf(['user', 'post'] as const, params.get('type')),
      source: oneOf(['user', 'system'] as const, params.get('source')),
      sortBy: oneOf(['created', 'updated', 'priority'] as const, params.get('sort')) ?? DEFAULT_REPORT_FILTERS.sortBy,
      sortOrder: oneOf(['asc', 'desc'] as const, params.get('order')) ?? DEFAULT_REPORT_FILTERS.sortOrder,
    },
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
  };
}

/** The page address's query for a queue view (defaults left out). */
export function reportQueueToParams(filters: TReportFilters, offset: number) {
  const p = new URLSearchParams();
  if (filters.status !== DEFAULT_REPORT_FILTERS.status) p.set('status', filters.status ?? 'all');
  if (filters.category) p.set('category', filters.category);
  if (filters.priority) p.set('priority', filters.priority);
  if (filters.reportType) p.set('type', filters.reportType);
  if (filters.source) p.set('source', filters.source);
  if (filters.sortBy !== DEFAULT_REPORT_FILTERS.sortBy) p.set('sort', filters.sortBy);
  if (filters.sortOrder !== DEFAULT_REPORT_FILTERS.sortOrder) p.set('order', filters.sortOrder);
  if (offset > 0) p.set('offset', String(offset));
  return p;
}

export function getAdminReportsQueryOptions(filters: TReportFilters, offset: number) {
  return queryOptions({
    queryKey: keys.reportList(filters, offset),
    queryFn: () => api(adminReports, { query: { ...filters, limit: REPORT_PAGE_SIZE, offset } }),
  });
}

/** One page of the queue; the page on screen stays while a new filter or page loads. */
export function useAdminReports(filters: TReportFilters, offset: number) {
  return useQuery({ ...getAdminReportsQueryOptions(filters, offset), placeholderData: keepPreviousData });
}

export function getAdminReportQueryOptions(id: string) {
  return queryOptions({
    queryKey: keys.report(id),
    queryFn: () => api(adminReportDetail, { params: { reportId: id } }),
  });
}

export function useAdminReport(id: string) {
  return useQuery(getAdminReportQueryOptions(id));
}

export function getReportStatsQueryOptions() {
  return queryOptions({
    queryKey: keys.reportStats(),
    queryFn: () => api(adminReportStats),
    staleTime: 30_000,
  });
}

export function useReportStats({ isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getReportStatsQueryOptions(), enabled: isEnabled });
}

export const RESOLUTION_MAX = 1000;

/** What each action does, for its button's description and the confirmation shown after it. */
export const REPORT_ACTIONS: readonly { action: TReportActionKind; label: string; description: string; done: string; isAdminOnly?: boolean }[] = [
  { action: 'review', label: 'Review', description: 'Claim it: the report moves to reviewing.', done: 'Marked as reviewing.' },
  { action: 'resolve', label: 'Resolve', description: 'The report was right and has been dealt with.', done: 'Report resolved.' },
  { action: 'dismiss', label: 'Dismiss', description: 'Nothing breaks the rules: close the report.', done: 'Report dismissed.' },
  { action: 'escalate', label: 'Escalate', description: 'Make it critical; the status stays.', done: 'Escalated to critical.' },
  { action: 'ban_user', label: 'Ban user', description: 'Ban the reported user at once (administrators).', done: 'The reported user is banned.', isAdminOnly: true },
];

/**
 * The actions the report's state allows (the server's table): review only while pending, resolve
 * and dismiss while open, escalate unless already critical, ban while the reported user is not
 * banned; ban for administrators only.
 */
export function availableReportActions(report: Pick<TAdminReport, 'status' | 'priority' | 'reportedUser'>, role: TConsoleRole): TReportActionKind[] {
  const isOpen = report.status === 'pending' || report.status === 'reviewing';
  const out: TReportActionKind[] = [];
  if (report.status === 'pending') out.push('review');
  if (isOpen) out.push('resolve', 'dismiss');
  if (report.priority !== 'critical') out.push('escalate');
  if (role === 'admin' && report.reportedUser && !report.reportedUser.isBanned) out.push('ban_user');
  return out;
}

/** Acts on a report; the queue, its totals and the report itself reload (a ban also changes feeds). */
export function useReportAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ reportId, action, resolution }: { reportId: string; action: TReportActionKind; resolution: string }) =>
      // A claim (review) may go without a resolution (issue 35); every other action sends one.
      api(adminReportAction, { params: { reportId }, body: { action, ...(resolution.trim() ? { resolution: resolution.trim() } : {}) } }),
    onSuccess: (_res, { action }) =>
      Promise.all([
        qc.invalidateQueries({ queryKey: keys.reports() }),
        action === 'ban_user' ? qc.invalidateQueries({ queryKey: keys.users() }) : null,
        action === 'ban_user' ? qc.invalidateQueries({ queryKey: postKeys.all }) : null,
      ]),
    // The report moved on elsewhere (another moderator): show it as it is now.
    onError: (_e, { reportId }) => qc.invalidateQueries({ queryKey: keys.report(reportId) }),
  });
}

// ---------------------------------------------------------------------------------------------
// System statistics

export const STATS_RANGES = [7, 30, 90] as const;
export type TStatsRange = (typeof STATS_RANGES)[number];

export function getAdminStatsQueryOptions(days: TStatsRange) {
  return queryOptions({
    queryKey: keys.stats(days),
    queryFn: () => api(adminStats, { query: { days } }),
  });
}

export function useAdminStats(days: TStatsRange) {
  return useQuery({ ...getAdminStatsQueryOptions(days), placeholderData: keepPreviousData });
}

export type TDayMetric = 'trades' | 'volume' | 'signups' | 'reports' | 'activeUsers' | 'posts';
export type TDayPoint = { time: number; value: number };

/** A day's series for a chart: oldest first, each day at its UTC midnight in unix seconds. */
export function toDaySeries(byDay: readonly TAdminDay[], metric: TDayMetric): TDayPoint[] {
  return byDay
    .map((d) => ({ time: Math.floor(Date.parse(`${d.date}T00:00:00Z`) / 1000), value: d[metric] }))
    .filter((p) => Number.isFinite(p.time))
    .sort((a, b) => a.time - b.time);
}

// ---------------------------------------------------------------------------------------------
// The trade feed

export const TRADE_PAGE_SIZE = 50;

export type TTradeFilters = { type: 'all' | 'prediction' | 'perp'; userId?: string; marketId?: string };

export function getAdminTradesQueryOptions(filters: TTradeFilters, offset: number) {
  return queryOptions({
    queryKey: keys.trades(filters, offset),
    queryFn: () => api(adminTrades, { query: { ...filters, limit: TRADE_PAGE_SIZE, offset } }),
  });
}

export function useAdminTrades(filters: TTradeFilters, offset: number) {
  return useQuery({ ...getAdminTradesQueryOptions(filters, offset), placeholderData: keepPreviousData });
}

// ---------------------------------------------------------------------------------------------
// Users

export const USER_PAGE_SIZE = 25;

export type TUserFilter = 'all' | 'players' | 'actors' | 'agents' | 'banned' | 'staff' | 'reported';
export type TUserSort = 'created' | 'balance' | 'pnl' | 'trades' | 'reports' | 'username';
export type TUserFilters = { search?: string; filter: TUserFilter; sortBy: TUserSort; sortOrder: 'asc' | 'desc' };

export const DEFAULT_USER_FILTERS: TUserFilters = { filter: 'all', sortBy: 'created', sortOrder: 'desc' };

export function getAdminUsersQueryOptions(filters: TUserFilters, offset: number) {
  return queryOptions({
    queryKey: keys.userList(filters, offset),
    queryFn: () => api(adminUsers, { query: { ...filters, search: filters.search?.trim() || undefined, limit: USER_PAGE_SIZE, offset } }),
  });
}

export function useAdminUsers(filters: TUserFilters, offset: number) {
  return useQuery({ ...getAdminUsersQueryOptions(filters, offset), placeholderData: keepPreviousData });
}

export const BAN_REASON_MAX = 500;

/** Bans or unbans a user; user lists, the report queue (its "banned" marks) and the feeds reload. */
export function useBanUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, ban, reason }: { userId: string; ban: boolean; reason?: string }) =>
      api(adminBanUser, { params: { userId }, body: { action: ban ? 'ban' : 'unban', ...(reason?.trim() ? { reason: reason.trim() } : {}) } }),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: keys.users() }),
        qc.invalidateQueries({ queryKey: keys.reports() }),
        qc.invalidateQueries({ queryKey: postKeys.all }),
      ]),
  });
}

export function useSetRole() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: TUserRole }) => api(adminSetRole, { params: { userId }, body: { role } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.users() }),
  });
}

// ---------------------------------------------------------------------------------------------
// Errors

/** Whether an error means "not allowed here" (the page shows the not-allowed state, not a retry). */
export function isForbidden(e: unknown) {
  return hasErrorCode(e, 'FORBIDDEN', 'UNAUTHORIZED');
}

/** The sentences a failed admin action shows: describeError(error, ADMIN_ERROR_MESSAGES). */
export const ADMIN_ERROR_MESSAGES: TErrorMessages = {
  FORBIDDEN: 'Your role does not allow that.',
  REPORT_NOT_FOUND: 'That report does not exist.',
  INVALID_REPORT_STATE: 'The report has moved on since you opened it: reload it and try again.',
  CANNOT_TARGET_SELF: "You can't do that to your own account.",
  USER_NOT_FOUND: 'That user no longer exists.',
};

// ---------------------------------------------------------------------------------------------
// Registry apps (administrators register third-party clients)

export type TRegistryAppInput = NonNullable<TEndpointInput<typeof registryAppCreate>['body']>;
export type TRegistryApp = TEndpointResponse<typeof registryList>['entries'][number];

export function registryAppsQueryOptions() {
  return queryOptions({
    queryKey: keys.apps(),
    queryFn: () => api(registryList, { query: { type: 'app', pageSize: 100 } }),
  });
}

export function useRegistryApps() {
  return useQuery(registryAppsQueryOptions());
}

export function useRegisterApp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TRegistryAppInput) => api(registryAppCreate, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.apps() }),
  });
}

export function useDeleteApp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (appId: string) => api(registryAppDelete, { params: { appId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.apps() }),
  });
}

/** "read, alerts" → ['read', 'alerts'] (trimmed, lower case, once each). */
export function parseCapabilities(text: string) {
  return [...new Set(text.split(/[,\s]+/).map((c) => c.trim().toLowerCase()).filter(Boolean))];
}
