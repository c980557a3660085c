/**
 * Administration (specification "Admin (Admin only)"; lib/admin): the report queue, which
 * moderators may work too (auth `moderator`), and the administrators' views and powers: system
 * statistics, the trade feed, user management, bans and roles.
 */
import { z } from 'zod';
import { REPORT_ACTIONS } from '@/db/schema/moderation-values';
import type { TAdminReport, TAdminReportsQuery, TAdminUsersQuery, TDetectorDetails } from '@/lib/admin/dto';
import { ZDecimalString, ZIdParam, ZSuccess, ZTimestamp, zQueryInt, zText, ZUserIdParams, type TSame } from './common';
import { defineEndpoint, type TEndpointQuery } from './endpoint';
import { MODERATION_ACTIONS, MODERATION_REASONS } from '@/lib/moderation/reasons';
import { tradesList } from './markets';
import {
  ZOffsetPagination,
  ZPersonRef,
  ZReport,
  ZReportCategory,
  ZReportPriority,
  ZReportStatus,
  ZReportType,
} from './moderation';

const ZReportedPost = z.object({
  id: z.string(),
  content: z.string(),
  authorId: z.string(),
  createdAt: ZTimestamp,
  /** Whether the post still shows in feeds (its author is not banned, and no moderator removed it). */
  visible: z.boolean(),
  /** Removed by a moderator (issue 35): the reason and when; null otherwise. */
  removed: z.object({ reason: z.string().nullable(), at: ZTimestamp }).nullable(),
});

export const ZAdminReport = ZReport.extend({
  reporter: ZPersonRef.nullable(),
  reportedUser: ZPersonRef.extend({ isBanned: z.boolean() }).nullable(),
  reportedPost: ZReportedPost.nullable(),
  resolvedBy: ZPersonRef.nullable(),
  /** Other reports about the same target (user or post), not counting this one. */
  relatedCount: z.number().int(),
});

// lib/admin/dto.ts owns the shapes and the queries its services take; the schemas document exactly those (common.ts TSame).
export type { TAdminReport };
const _adminReport: TSame<z.infer<typeof ZAdminReport>, TAdminReport> = true;

export const ZReportAction = z.object({
  id: z.string(),
  action: z.enum(REPORT_ACTIONS),
  actor: ZPersonRef,
  note: z.string().nullable(),
  fromStatus: ZReportStatus,
  toStatus: ZReportStatus,
  fromPriority: ZReportPriority,
  toPriority: ZReportPriority,
  createdAt: ZTimestamp,
});

const ZReportIdParams = z.object({ reportId: ZIdParam });

export const adminReports = defineEndpoint({
  id: 'admin.reports',
  method: 'GET',
  path: '/api/admin/reports',
  summary: 'The report queue with filters and sort (moderators and administrators)',
  tag: 'admin',
  auth: 'user',
  requires: ['read', 'moderate'],
  query: z.object({
    limit: zQueryInt({ default: 50, min: 1, max: 100 }),
    offset: zQueryInt({ default: 0, max: 100_000 }),
    status: ZReportStatus.optional(),
    category: ZReportCategory.optional(),
    priority: ZReportPriority.optional(),
    reportType: ZReportType.optional(),
    reporterId: ZIdParam.optional(),
    reportedUserId: ZIdParam.optional(),
    reportedPostId: ZIdParam.optional(),
    /** Reports the system filed (detector) or players filed. */
    source: z.enum(['user', 'system']).optional(),
    sortBy: z.enum(['created', 'updated', 'priority']).default('created'),
    sortOrder: z.enum(['asc', 'desc']).default('desc'),
  }),
  response: z.object({ success: ZSuccess, reports: z.array(ZAdminReport), pagination: ZOffsetPagination }),
});
const _reportsQuery: TSame<TEndpointQuery<typeof adminReports>, TAdminReportsQuery> = true;

const ZIds = z.array(z.string());

/**
 * What the self-dealing detector stores with a report it files (lib/admin/detector/run.ts): its
 * rule, the finding's de-duplication key, the accounts involved, and the evidence (row ids capped,
 * sums over every row) that lib/admin/detector/rules.ts gathered for that rule.
 */
const ZDetectorDetails = z.discriminatedUnion('rule', [
  z.object({
    rule: z.literal('referral_ring'),
    key: z.string().describe('the referrer'),
    accounts: ZIds.describe('the referrer, then the referred accounts'),
    evidence: z.object({
      referrerId: z.string(),
      referredAccounts: z.array(z.object({ id: z.string(), username: z.string(), createdAt: ZTimestamp })),
      signupSpanHours: z.number(),
      marketIds: ZIds,
      oppositeSidesMarketIds: ZIds,
      tradeIds: ZIds,
      ledgerIds: ZIds,
      sums: z.object({
        trades: z.number().int(),
        volume: ZDecimalString,
        referralFees: ZDecimalString,
        referrerReferralIncome: ZDecimalString,
        incomeShare: z.number(),
      }),
    }),
  }),
  z.object({
    rule: z.literal('wash_pair'),
    key: z.string().describe('the two account ids in order, "a|b"'),
    accounts: ZIds,
    evidence: z.object({
      marketIds: ZIds,
      tradeIds: ZIds,
      sums: z.object({
        pairedTrades: z.record(z.string(), z.number().int()).describe('paired trades by account id'),
        gainAtReferencePrice: z.record(z.string(), ZDecimalString).describe('each account\'s gain at the price before the pair started, by account id'),
        volume: ZDecimalString,
      }),
    }),
  }),
]);

/** The details a detector stores with the report it files. */
export type { TDetectorDetails };
const _detectorDetails: TSame<z.output<typeof ZDetectorDetails>, TDetectorDetails> = true;

export const adminReportDetail = defineEndpoint({
  id: 'admin.report',
  method: 'GET',
  path: '/api/admin/reports/{reportId}',
  summary: 'A report in full: the reported content in context, related reports (same target) and the audit trail',
  tag: 'admin',
  auth: 'user',
  requires: ['read', 'moderate'],
  params: ZReportIdParams,
  response: z.object({
    success: ZSuccess,
    report: ZAdminReport.extend({
      /** The detector's rule and findings (system reports); null for a report a player filed. */
      details: ZDetectorDetails.nullable(),
    }),
    relatedReports: z.array(ZAdminReport),
    actions: z.array(ZReportAction),
    /** The reported user's recent posts (newest first), for context. */
    recentPosts: z.array(ZReportedPost),
  }),
  errors: ['REPORT_NOT_FOUND'],
});

export const adminReportAction = defineEndpoint({
  id: 'admin.reportAction',
  method: 'POST',
  path: '/api/admin/reports/{reportId}',
  summary:
    'Act on a report: review (pending → reviewing, a claim: no resolution needed), resolve or dismiss (from pending or reviewing; the reporter is notified of the outcome), escalate (priority critical), ban_user (administrators only: bans the reported user, for durationHours when given)',
  tag: 'admin',
  auth: 'user',
  requires: ['moderate'],
  params: ZReportIdParams,
  body: z.strictObject({
    action: z.enum(['review', 'resolve', 'dismiss', 'escalate', 'ban_user']),
    resolution: zText({
      min: 1,
      max: 1000,
      description: '1 to 1000 characters: what was decided and why (stored, and shown in the audit trail); required for every action but review (a claim)',
    }).optional(),
    durationHours: z.number().int().min(1).max(24 * 365).optional().describe('ban_user only: a temporary ban of this many hours (none: until lifted)'),
  }),
  response: z.object({ success: ZSuccess, message: z.string(), report: ZAdminReport }),
  errors: ['REPORT_NOT_FOUND', 'INVALID_REPORT_STATE', 'FORBIDDEN', 'USER_NOT_FOUND'],
});

const ZCount = z.object({ count: z.number().int() });

export const adminReportStats = defineEndpoint({
  id: 'admin.reportStats',
  method: 'GET',
  path: '/api/admin/reports/stats',
  summary: 'Report totals by status, category and priority; the most reported users and the most active reporters; the last 7 days',
  tag: 'admin',
  auth: 'user',
  requires: ['read', 'moderate'],
  response: z.object({
    success: ZSuccess,
    totals: z.object({ total: z.number().int(), pending: z.number().int(), reviewing: z.number().int(), resolved: z.number().int(), dismissed: z.number().int() }),
    byCategory: z.array(ZCount.extend({ category: ZReportCategory })),
    byPriority: z.array(ZCount.extend({ priority: ZReportPriority })),
    topReportedUsers: z.array(z.object({ user: z.object({ id: z.string(), username: z.string() }), reportCount: z.number().int() })),
    topReporters: z.array(z.object({ user: z.object({ id: z.string(), username: z.string() }), reportCount: z.number().int() })),
    recentActivity: z.object({ last7Days: z.number().int(), resolved7Days: z.number().int() }),
  }),
});

export const adminStats = defineEndpoint({
  id: 'admin.stats',
  method: 'GET',
  path: '/api/admin/stats',
  summary: 'System statistics: users, active users, trades, volume, open interest, reports, and the last 30 days by day',
  tag: 'admin',
  auth: 'user',
  requires: ['read', 'admin'],
  query: z.object({ days: zQueryInt({ default: 30, min: 1, max: 90 }) }),
  response: z.object({
    success: ZSuccess,
    users: z.object({
      total: z.number().int(),
      players: z.number().int(),
      actors: z.number().int(),
      agents: z.number().int(),
      banned: z.number().int(),
      /** Players who traded, posted or commented in the last 24 hours / 7 days. */
      active24h: z.number().int(),
      active7d: z.number().int(),
      new24h: z.number().int(),
    }),
    trading: z.object({
      trades: z.number().int(),
      trades24h: z.number().int(),
      volume: z.number(),
      volume24h: z.number(),
      /** Open perpetual notional plus open prediction cost basis. */
      openInterest: z.number(),
      perpOpenInterest: z.number(),
      predictionOpenInterest: z.number(),
      activeMarkets: z.number().int(),
      /** Orders (issue 32): open limit and perp orders, orders placed in 24 h, and what open orders hold. */
      openOrders: z.number().int(),
      orders24h: z.number().int(),
      ordersReserved: z.number(),
    }),
    reports: z.object({ total: z.number().int(), pending: z.number().int(), reviewing: z.number().int(), last24h: z.number().int() }),
    byDay: z.array(
      z.object({
        date: z.string().describe('YYYY-MM-DD (UTC)'),
        signups: z.number().int(),
        activeUsers: z.number().int(),
        trades: z.number().int(),
        volume: z.number(),
        posts: z.number().int(),
        reports: z.number().int(),
      }),
    ),
  }),
});

export const adminTrades = defineEndpoint({
  ...tradesList,
  id: 'admin.trades',
  path: '/api/admin/trades',
  summary: 'Every trade (prediction and perpetual, NPCs and pools included), newest first, filterable by user, market and type',
  tag: 'admin',
  auth: 'user',
  requires: ['read', 'admin'],
  rateLimit: undefined,
  reads: undefined,
});

export const ZAdminUser = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  profileImageUrl: z.string().nullable(),
  role: z.enum(['user', 'moderator', 'admin']),
  isActor: z.boolean(),
  isAgent: z.boolean(),
  isBanned: z.boolean(),
  balance: z.string().describe('decimal string'),
  lifetimePnL: z.string().describe('decimal string: the one P&L (lib/equity), equity − contributions'),
  equity: z.string().describe('decimal string: cash + positions at market + perps at the mark + pool stakes'),
  tradeCount: z.number().int(),
  /** Reports filed about this user (any status) and still open (pending or reviewing). */
  reportCount: z.number().int(),
  openReportCount: z.number().int(),
  createdAt: ZTimestamp,
});

export const adminUsers = defineEndpoint({
  id: 'admin.users',
  method: 'GET',
  path: '/api/admin/users',
  summary: 'Users with balance, PnL, trade count, reports and ban state; search by username or display name',
  tag: 'admin',
  auth: 'user',
  requires: ['read', 'admin'],
  query: z.object({
    search: z.string().trim().max(100).optional(),
    limit: zQueryInt({ default: 50, min: 1, max: 100 }),
    offset: zQueryInt({ default: 0, max: 100_000 }),
    filter: z.enum(['all', 'players', 'actors', 'agents', 'banned', 'staff', 'reported']).default('all'),
    sortBy: z.enum(['created', 'balance', 'pnl', 'trades', 'reports', 'username']).default('created'),
    sortOrder: z.enum(['asc', 'desc']).default('desc'),
  }),
  response: z.object({ success: ZSuccess, users: z.array(ZAdminUser), pagination: ZOffsetPagination }),
});
const _usersQuery: TSame<TEndpointQuery<typeof adminUsers>, TAdminUsersQuery> = true;

export const adminBanUser = defineEndpoint({
  id: 'admin.banUser',
  method: 'POST',
  path: '/api/admin/users/{userId}/ban',
  summary: 'Ban (default) or unban a user: a banned user can still read, every write answers 403 USER_BANNED, and their content leaves feeds',
  tag: 'admin',
  auth: 'user',
  requires: ['admin'],
  params: ZUserIdParams,
  body: z.strictObject({
    action: z.enum(['ban', 'unban']).default('ban'),
    reason: zText({ max: 500, description: 'why (up to 500 characters), kept in the ban history' }).optional(),
    until: z.iso.datetime({ offset: true }).optional().describe('a temporary ban: when it ends (ISO 8601, in the future)'),
    durationHours: z.number().int().min(1).max(24 * 365).optional().describe('a temporary ban: how many hours from now (not with until)'),
  }),
  response: z.object({
    success: ZSuccess,
    message: z.string(),
    user: z.object({
      id: z.string(),
      username: z.string(),
      isBanned: z.boolean(),
      /** A temporary ban's end; null for a ban until lifted, and when not banned. */
      bannedUntil: ZTimestamp.nullable(),
    }),
  }),
  errors: ['USER_NOT_FOUND', 'CANNOT_TARGET_SELF', 'FORBIDDEN'],
});

export const adminSetRole = defineEndpoint({
  id: 'admin.setRole',
  method: 'POST',
  path: '/api/admin/users/{userId}/role',
  summary: 'Make a user an administrator, a moderator (works the report queue) or a plain user',
  tag: 'admin',
  auth: 'user',
  requires: ['admin'],
  params: ZUserIdParams,
  body: z.strictObject({ role: z.enum(['user', 'moderator', 'admin']) }),
  response: z.object({ success: ZSuccess, user: z.object({ id: z.string(), username: z.string(), role: z.enum(['user', 'moderator', 'admin']) }) }),
  errors: ['USER_NOT_FOUND', 'CANNOT_TARGET_SELF'],
});

// ---------------------------------------------------------------------------------------------
// Moderation that fits the offence (issue 35): remove or restore content, warn, the audit trail.

const ZModerationBody = z.strictObject({
  reason: zText({ min: 1, max: 500, description: 'why (1 to 500 characters): a canned reason\'s label or free text; shown to the author and in the content\'s place' }),
  reportId: ZIdParam.optional().describe('the report this answers, when one'),
});
const ZRemoved = z.object({ reason: z.string().nullable(), at: ZTimestamp }).nullable().describe('null once restored');
const ZIdParams = z.object({ id: ZIdParam });

const ZModeratedPost = z.object({ id: z.string(), authorId: z.string(), removed: ZRemoved });
const ZModeratedComment = z.object({ id: z.string(), postId: z.string(), authorId: z.string(), removed: ZRemoved });
const REMOVE = (what: string) =>
  `Remove a ${what} with a reason (moderators and administrators): its place shows the reason, the author is notified, the audit trail records it; 409 CONFLICT when already removed`;
const RESTORE = (what: string) =>
  `Restore a removed ${what} (moderators and administrators): the author is notified, the audit trail records it; 409 CONFLICT when not removed`;
const moderationEndpoint = { method: 'POST', tag: 'admin', auth: 'user', requires: ['moderate'], params: ZIdParams } as const;

export const adminPostRemove = defineEndpoint({
  ...moderationEndpoint,
  id: 'admin.postRemove',
  path: '/api/admin/posts/{id}/remove',
  summary: REMOVE('post'),
  body: ZModerationBody,
  response: z.object({ success: ZSuccess, message: z.string(), post: ZModeratedPost }),
  errors: ['POST_NOT_FOUND', 'CONFLICT', 'REPORT_NOT_FOUND'],
});
export const adminPostRestore = defineEndpoint({
  ...moderationEndpoint,
  id: 'admin.postRestore',
  path: '/api/admin/posts/{id}/restore',
  summary: RESTORE('post'),
  body: ZModerationBody.partial(),
  response: z.object({ success: ZSuccess, message: z.string(), post: ZModeratedPost }),
  errors: ['POST_NOT_FOUND', 'CONFLICT', 'REPORT_NOT_FOUND'],
});
export const adminCommentRemove = defineEndpoint({
  ...moderationEndpoint,
  id: 'admin.commentRemove',
  path: '/api/admin/comments/{id}/remove',
  summary: REMOVE('comment'),
  body: ZModerationBody,
  response: z.object({ success: ZSuccess, message: z.string(), comment: ZModeratedComment }),
  errors: ['NOT_FOUND', 'CONFLICT', 'REPORT_NOT_FOUND'],
});
export const adminCommentRestore = defineEndpoint({
  ...moderationEndpoint,
  id: 'admin.commentRestore',
  path: '/api/admin/comments/{id}/restore',
  summary: RESTORE('comment'),
  body: ZModerationBody.partial(),
  response: z.object({ success: ZSuccess, message: z.string(), comment: ZModeratedComment }),
  errors: ['NOT_FOUND', 'CONFLICT', 'REPORT_NOT_FOUND'],
});

export const adminWarnUser = defineEndpoint({
  id: 'admin.warnUser',
  method: 'POST',
  path: '/api/admin/users/{userId}/warn',
  summary: 'Warn a user (moderators and administrators): a notification naming the reason and a row in the audit trail; nothing else changes',
  tag: 'admin',
  auth: 'user',
  requires: ['moderate'],
  params: ZUserIdParams,
  body: ZModerationBody,
  response: z.object({ success: ZSuccess, message: z.string(), actionId: z.string(), user: z.object({ id: z.string(), username: z.string() }) }),
  errors: ['USER_NOT_FOUND', 'CANNOT_TARGET_SELF', 'REPORT_NOT_FOUND'],
});

export const ZModerationActionKind = z.enum(MODERATION_ACTIONS);
/** The canned reasons and the trail's action kinds, for the admin UI (components import contracts, not lib/moderation). */
export { MODERATION_ACTIONS, MODERATION_REASONS };
export type { TModerationAction } from '@/lib/moderation/reasons';

export const ZModerationAction = z.object({
  id: z.string(),
  action: ZModerationActionKind,
  actor: ZPersonRef,
  targetUser: ZPersonRef.nullable(),
  postId: z.string().nullable(),
  commentId: z.string().nullable(),
  reportId: z.string().nullable(),
  reason: z.string().nullable(),
  /** A temporary ban's end. */
  endsAt: ZTimestamp.nullable(),
  createdAt: ZTimestamp,
});

export const adminModerationActions = defineEndpoint({
  id: 'admin.moderationActions',
  method: 'GET',
  path: '/api/admin/moderation/actions',
  summary: 'The moderation audit trail (removals, restorations, warnings, bans, lifted bans), newest first, by cursor; filter by target user and action',
  tag: 'admin',
  auth: 'user',
  requires: ['read', 'moderate'],
  query: z.object({
    limit: zQueryInt({ default: 50, min: 1, max: 100 }),
    cursor: z.string().min(1).max(500).optional().describe('nextCursor of the previous page'),
    targetUserId: ZIdParam.optional(),
    action: ZModerationActionKind.optional(),
  }),
  response: z.object({ success: ZSuccess, actions: z.array(ZModerationAction), nextCursor: z.string().nullable() }),
});

export const adminModerationReasons = defineEndpoint({
  id: 'admin.moderationReasons',
  method: 'GET',
  path: '/api/admin/moderation/reasons',
  summary: 'The canned reasons for removals, warnings and bans ("other" takes free text)',
  tag: 'admin',
  auth: 'user',
  requires: ['read', 'moderate'],
  response: z.object({
    success: ZSuccess,
    reasons: z.array(z.object({ code: z.enum(MODERATION_REASONS.map((r) => r.code) as [string, ...string[]]), label: z.string() })),
  }),
});

export const adminEndpoints = [
  adminReports,
  adminReportStats,
  adminReportDetail,
  adminReportAction,
  adminStats,
  adminTrades,
  adminUsers,
  adminBanUser,
  adminSetRole,
  adminPostRemove,
  adminPostRestore,
  adminCommentRemove,
  adminCommentRestore,
  adminWarnUser,
  adminModerationActions,
  adminModerationReasons,
] as const;
