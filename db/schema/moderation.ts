/**
 * Moderation (specification "Moderation records"): blocks and mutes between users, reports with
 * their review trail. Who sees and reaches whom is decided in one place, lib/moderation/visibility.ts.
 */
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamptz } from './columns';
import { REPORT_ACTIONS, REPORT_CATEGORIES, REPORT_PRIORITIES, REPORT_STATUSES } from './moderation-values';
import { posts } from './social';
import { users } from './users';

export const blocks = pgTable(
  'blocks',
  {
    id: idColumn(),
    blockerId: text('blocker_id')
      .notNull()
      .references(() => users.id),
    blockedId: text('blocked_id')
      .notNull()
      .references(() => users.id),
    reason: text('reason'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('blocks_pair_idx').on(t.blockerId, t.blockedId),
    index('blocks_blocked_idx').on(t.blockedId, t.blockerId),
    index('blocks_blocker_created_idx').on(t.blockerId, t.createdAt.desc()),
  ],
);

export const mutes = pgTable(
  'mutes',
  {
    id: idColumn(),
    muterId: text('muter_id')
      .notNull()
      .references(() => users.id),
    mutedId: text('muted_id')
      .notNull()
      .references(() => users.id),
    reason: text('reason'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [uniqueIndex('mutes_pair_idx').on(t.muterId, t.mutedId), index('mutes_muter_created_idx').on(t.muterId, t.createdAt.desc())],
);

export const reports = pgTable(
  'reports',
  {
    id: idColumn(),
    /** Null for a report the system filed (the self-dealing detector). */
    reporterId: text('reporter_id').references(() => users.id),
    /** The user the report is about: the reported user, or the reported post's author. */
    reportedUserId: text('reported_user_id').references(() => users.id),
    reportedPostId: text('reported_post_id').references(() => posts.id),
    reportType: text('report_type', { enum: ['user', 'post'] }).notNull(),
    category: text('category', { enum: REPORT_CATEGORIES }).notNull(),
    reason: text('reason').notNull(),
    evidence: text('evidence'),
    status: text('status', { enum: REPORT_STATUSES }).notNull().default('pending'),
    priority: text('priority', { enum: REPORT_PRIORITIES }).notNull(),
    /** user: filed by a player; system: filed by a detector, with its findings in `details`. */
    source: text('source', { enum: ['user', 'system'] }).notNull().default('user'),
    /** The detector's rule and evidence (system reports). */
    details: jsonb('details'),
    resolution: text('resolution'),
    resolvedById: text('resolved_by_id').references(() => users.id),
    resolvedAt: timestamptz('resolved_at'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    index('reports_status_created_idx').on(t.status, t.createdAt.desc()),
    index('reports_reporter_created_idx').on(t.reporterId, t.createdAt.desc()),
    index('reports_reported_user_idx').on(t.reportedUserId, t.createdAt.desc()),
    index('reports_reported_post_idx').on(t.reportedPostId).where(sql`${t.reportedPostId} is not null`),
  ],
);

/** The audit trail of a report: every admin action, who took it and when. */
export const reportActions = pgTable(
  'report_actions',
  {
    id: idColumn(),
    reportId: text('report_id')
      .notNull()
      .references(() => reports.id),
    actorId: text('actor_id')
      .notNull()
      .references(() => users.id),
    action: text('action', { enum: REPORT_ACTIONS }).notNull(),
    note: text('note'),
    fromStatus: text('from_status', { enum: REPORT_STATUSES }).notNull(),
    toStatus: text('to_status', { enum: REPORT_STATUSES }).notNull(),
    fromPriority: text('from_priority', { enum: REPORT_PRIORITIES }).notNull(),
    toPriority: text('to_priority', { enum: REPORT_PRIORITIES }).notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('report_actions_report_idx').on(t.reportId, t.createdAt)],
);

/** Bans and unbans, with who did it and why (users.is_banned holds the current state). */
export const userBans = pgTable(
  'user_bans',
  {
    id: idColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    actorId: text('actor_id')
      .notNull()
      .references(() => users.id),
    action: text('action', { enum: ['ban', 'unban'] }).notNull(),
    reason: text('reason'),
    reportId: text('report_id').references(() => reports.id),
    /** A temporary ban's end (issue 35); null for a ban until lifted, and for an unban. */
    endsAt: timestamptz('ends_at'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('user_bans_user_idx').on(t.userId, t.createdAt.desc())],
);

/**
 * Every moderation action on content or a person (issue 35): a post or comment removed or restored,
 * a warning, a ban (temporary or not) or its lifting, with who took it, why, and the report it
 * answered. The audit trail administrators read; report_actions keeps a report's own history.
 */
export const moderationActions = pgTable(
  'moderation_actions',
  {
    id: idColumn(),
    actorId: text('actor_id')
      .notNull()
      .references(() => users.id),
    action: text('action', { enum: ['remove_post', 'restore_post', 'remove_comment', 'restore_comment', 'warn', 'ban', 'unban'] }).notNull(),
    targetUserId: text('target_user_id').references(() => users.id),
    postId: text('post_id').references(() => posts.id),
    commentId: text('comment_id'),
    reportId: text('report_id').references(() => reports.id),
    reason: text('reason'),
    endsAt: timestamptz('ends_at'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('moderation_actions_created_idx').on(t.createdAt.desc(), t.id.desc()), index('moderation_actions_target_idx').on(t.targetUserId, t.createdAt.desc())],
);

export type TBlockRow = typeof blocks.$inferSelect;
export type TMuteRow = typeof mutes.$inferSelect;
export type TReportRow = typeof reports.$inferSelect;
export type TReportActionRow = typeof reportActions.$inferSelect;
