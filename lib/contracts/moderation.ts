/**
 * Moderation (user): blocks, mutes and reports (specification "Moderation (user)" and "Moderation
 * records"; lib/moderation). A second block, mute or report of the same thing answers 409.
 */
import { z } from 'zod';
import { REPORT_CATEGORIES, REPORT_PRIORITIES, REPORT_STATUSES } from '@/db/schema/moderation-values';
import type { TReport, TReportInput } from '@/lib/moderation/dto';
import { ZIdParam, ZSuccess, ZTimestamp, zCaseEnum, zQueryInt, zText, ZUserIdParams, type TSame } from './common';
import { defineEndpoint } from './endpoint';

export const ZReportCategory = z.enum(REPORT_CATEGORIES);
export const ZReportStatus = z.enum(REPORT_STATUSES);
export const ZReportPriority = z.enum(REPORT_PRIORITIES);
export const ZReportType = z.enum(['user', 'post']);

/** A block or mute reason: up to 500 characters. */
const zReason = () => zText({ max: 500, description: 'why (up to 500 characters); only the author sees it' }).optional();

export const ZBlock = z.object({ id: z.string(), blockerId: z.string(), blockedId: z.string(), reason: z.string().nullable(), createdAt: ZTimestamp });
export const ZMute = z.object({ id: z.string(), muterId: z.string(), mutedId: z.string(), reason: z.string().nullable(), createdAt: ZTimestamp });

export const ZPersonRef = z.object({ id: z.string(), username: z.string(), displayName: z.string() });
const ZPersonWithImage = ZPersonRef.extend({ profileImageUrl: z.string().nullable() });

export const ZReport = z.object({
  id: z.string(),
  /** Null for a report the system filed (the self-dealing detector). */
  reporterId: z.string().nullable(),
  reportedUserId: z.string().nullable(),
  reportedPostId: z.string().nullable(),
  reportType: ZReportType,
  category: ZReportCategory,
  reason: z.string(),
  evidence: z.string().nullable(),
  status: ZReportStatus,
  priority: ZReportPriority,
  /** user: filed by a player; system: filed by a detector. */
  source: z.enum(['user', 'system']),
  resolution: z.string().nullable(),
  resolvedAt: ZTimestamp.nullable(),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});

// lib/moderation/dto.ts owns the report's shape; the schema documents exactly that (common.ts TSame).
export type { TReport };
const _report: TSame<z.infer<typeof ZReport>, TReport> = true;

export const ZOffsetPagination = z.object({ limit: z.number().int(), offset: z.number().int(), total: z.number().int() });

const ZBlockAction = z.strictObject({ action: zCaseEnum(['block', 'unblock'], 'lower'), reason: zReason() });
const ZMuteAction = z.strictObject({ action: zCaseEnum(['mute', 'unmute'], 'lower'), reason: zReason() });

const ZBlockResponse = z.object({
  success: ZSuccess,
  message: z.string(),
  /** The block created, or the one removed by an unblock. */
  block: ZBlock,
});
const ZMuteResponse = z.object({ success: ZSuccess, message: z.string(), mute: ZMute });

export const usersBlock = defineEndpoint({
  id: 'users.block',
  method: 'POST',
  path: '/api/users/{userId}/block',
  summary: 'Block or unblock a user (either side then stops seeing and reaching the other; follows both ways are removed)',
  tag: 'moderation',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'block',
  params: ZUserIdParams,
  body: ZBlockAction,
  response: ZBlockResponse,
  errors: ['USER_NOT_FOUND', 'ALREADY_BLOCKED', 'NOT_BLOCKED', 'CANNOT_TARGET_SELF'],
});

export const usersBlockStatus = defineEndpoint({
  id: 'users.blockStatus',
  method: 'GET',
  path: '/api/users/{userId}/block',
  summary: 'Whether the caller blocked the user (and whether the user blocked the caller)',
  tag: 'moderation',
  auth: 'user',
  requires: ['read'],
  params: ZUserIdParams,
  response: z.object({
    success: ZSuccess,
    isBlocked: z.boolean(),
    block: z.object({ id: z.string(), createdAt: ZTimestamp, reason: z.string().nullable() }).nullable(),
    /** The user blocked the caller. */
    isBlockedBy: z.boolean(),
  }),
  // One's own block status is a question about oneself: 400 CANNOT_TARGET_SELF, as blocking is.
  errors: ['USER_NOT_FOUND', 'CANNOT_TARGET_SELF'],
});

export const usersMute = defineEndpoint({
  id: 'users.mute',
  method: 'POST',
  path: '/api/users/{userId}/mute',
  summary: "Mute or unmute a user (the caller stops seeing their posts and notifications; they are never told)",
  tag: 'moderation',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'mute',
  params: ZUserIdParams,
  body: ZMuteAction,
  response: ZMuteResponse,
  errors: ['USER_NOT_FOUND', 'ALREADY_MUTED', 'NOT_MUTED', 'CANNOT_TARGET_SELF'],
});

export const usersMuteStatus = defineEndpoint({
  id: 'users.muteStatus',
  method: 'GET',
  path: '/api/users/{userId}/mute',
  summary: 'Whether the caller muted the user',
  tag: 'moderation',
  auth: 'user',
  requires: ['read'],
  params: ZUserIdParams,
  response: z.object({
    success: ZSuccess,
    isMuted: z.boolean(),
    mute: z.object({ id: z.string(), createdAt: ZTimestamp, reason: z.string().nullable() }).nullable(),
  }),
  // As for the block status: one's own mute status is 400 CANNOT_TARGET_SELF.
  errors: ['USER_NOT_FOUND', 'CANNOT_TARGET_SELF'],
});

const ZUserRefBody = z.strictObject({ userId: ZIdParam, reason: zReason() });

export const moderationBlockCreate = defineEndpoint({
  id: 'moderation.blockCreate',
  method: 'POST',
  path: '/api/moderation/blocks',
  summary: 'Block a user (variant form of POST /api/users/{userId}/block)',
  tag: 'moderation',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'block',
  body: ZUserRefBody,
  response: ZBlockResponse,
  errors: ['USER_NOT_FOUND', 'ALREADY_BLOCKED', 'CANNOT_TARGET_SELF'],
});

export const moderationBlockDelete = defineEndpoint({
  id: 'moderation.blockDelete',
  method: 'DELETE',
  path: '/api/moderation/blocks',
  summary: 'Unblock a user (variant form); the user id may also come as ?userId=',
  tag: 'moderation',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'block',
  query: z.object({ userId: ZIdParam.optional() }),
  body: z.strictObject({ userId: ZIdParam.optional(), reason: zReason() }),
  response: ZBlockResponse,
  errors: ['USER_NOT_FOUND', 'NOT_BLOCKED', 'CANNOT_TARGET_SELF'],
});

const ZListQuery = (def: number) => z.object({ limit: zQueryInt({ default: def, min: 1, max: 100 }), offset: zQueryInt({ default: 0, max: 100_000 }) });

export const moderationBlocksList = defineEndpoint({
  id: 'moderation.blocks',
  method: 'GET',
  path: '/api/moderation/blocks',
  summary: 'The users the caller blocked, newest first',
  tag: 'moderation',
  auth: 'user',
  requires: ['read'],
  query: ZListQuery(20),
  response: z.object({
    success: ZSuccess,
    blocks: z.array(z.object({ id: z.string(), createdAt: ZTimestamp, reason: z.string().nullable(), blocked: ZPersonWithImage })),
    pagination: ZOffsetPagination,
  }),
});

export const moderationMutesList = defineEndpoint({
  id: 'moderation.mutes',
  method: 'GET',
  path: '/api/moderation/mutes',
  summary: 'The users the caller muted, newest first',
  tag: 'moderation',
  auth: 'user',
  requires: ['read'],
  query: ZListQuery(20),
  response: z.object({
    success: ZSuccess,
    mutes: z.array(z.object({ id: z.string(), createdAt: ZTimestamp, reason: z.string().nullable(), muted: ZPersonWithImage })),
    pagination: ZOffsetPagination,
  }),
});

/** An http(s) URL, at most 2048 characters. */
export const ZEvidenceUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
    } catch {
      return false;
    }
  }, 'must be an http(s) URL')
  .meta({ format: 'uri', maxLength: 2048, description: 'an http(s) URL' });

const reportCommon = {
  category: ZReportCategory,
  reason: zText({ min: 10, max: 2000, description: '10 to 2000 characters: what happened' }),
  evidence: ZEvidenceUrl.optional(),
};

export const ZReportInput = z.discriminatedUnion('reportType', [
  z.strictObject({ reportType: z.literal('user'), reportedUserId: ZIdParam, ...reportCommon }),
  z.strictObject({
    reportType: z.literal('post'),
    reportedPostId: ZIdParam,
    /** Ignored when sent: the post's author is the reported user. */
    reportedUserId: ZIdParam.optional(),
    ...reportCommon,
  }),
]);

// The body as validated, which lib/moderation/service/reports.ts files.
export type { TReportInput };
const _reportInput: TSame<z.output<typeof ZReportInput>, TReportInput> = true;

export const moderationReportCreate = defineEndpoint({
  id: 'moderation.reportCreate',
  method: 'POST',
  path: '/api/moderation/reports',
  summary: 'Report a user or a post (status pending; priority from the category; one per reporter, target and category in 24 h)',
  tag: 'moderation',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'report',
  status: 201,
  body: ZReportInput,
  response: z.object({ success: ZSuccess, message: z.string(), report: ZReport }),
  errors: ['USER_NOT_FOUND', 'POST_NOT_FOUND', 'DUPLICATE_REPORT', 'CANNOT_TARGET_SELF'],
});

export const ZReportWithUser = ZReport.extend({ reportedUser: ZPersonRef.nullable() });

export const moderationReportsList = defineEndpoint({
  id: 'moderation.reports',
  method: 'GET',
  path: '/api/moderation/reports',
  summary: "The caller's own reports, newest first",
  tag: 'moderation',
  auth: 'user',
  requires: ['read'],
  query: z.object({
    limit: zQueryInt({ default: 50, min: 1, max: 100 }),
    offset: zQueryInt({ default: 0, max: 100_000 }),
    status: ZReportStatus.optional(),
    category: ZReportCategory.optional(),
    reportType: ZReportType.optional(),
  }),
  response: z.object({ success: ZSuccess, reports: z.array(ZReportWithUser), pagination: ZOffsetPagination }),
});

export const moderationEndpoints = [
  usersBlock,
  usersBlockStatus,
  usersMute,
  usersMuteStatus,
  moderationBlockCreate,
  moderationBlockDelete,
  moderationBlocksList,
  moderationMutesList,
  moderationReportCreate,
  moderationReportsList,
] as const;
