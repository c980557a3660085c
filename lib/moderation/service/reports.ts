/**
 * Filing reports (A2A moderation.reportUser, reportPost) and a reporter's own list. A report
 * starts pending with a priority from its category; review is lib/admin's. The same reporter,
 * target and category within 24 hours is a duplicate (409 DUPLICATE_REPORT), also when the
 * duplicates arrive at once: the check and the insert run under a transaction-scoped advisory
 * lock on that key, so parallel copies queue and all but the first see it.
 */
import 'server-only';
import { and, count, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { posts, reports, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { toReportDto, type TReport, type TReportInput } from '../dto';
import { pageOf, requireOtherUser } from './shared';

type TCategory = TReportInput['category'];
type TPriority = 'low' | 'medium' | 'high';

export const DUPLICATE_WINDOW_MS = 24 * 3600 * 1000;

/** Spam is low; harm to people (hate speech, violence, self-harm) is high; the rest in between. */
export function priorityOf(category: TCategory): TPriority {
  if (category === 'spam') return 'low';
  if (category === 'hate_speech' || category === 'violence' || category === 'self_harm') return 'high';
  return 'medium';
}

/** The reported user (and post): USER_NOT_FOUND, POST_NOT_FOUND, or CANNOT_TARGET_SELF for one's own. */
const resolveTarget = async (caller: TCaller, input: TReportInput) => {
  if (input.reportType === 'user') {
    const user = await requireOtherUser(caller.userId, input.reportedUserId, 'report');
    return { reportedUserId: user.id, reportedPostId: null, key: `user:${user.id}` };
  }
  const [post] = await (await getDb())
    .select({ id: posts.id, authorId: posts.authorId })
    .from(posts)
    .where(eq(posts.id, input.reportedPostId));
  if (!post) throw new AppError('POST_NOT_FOUND', 'Post not found', { postId: input.reportedPostId });
  if (post.authorId === caller.userId) throw new AppError('CANNOT_TARGET_SELF', 'You cannot report your own post');
  return { reportedUserId: post.authorId, reportedPostId: post.id, key: `post:${post.id}` };
};

export async function createReport(input: { caller: TCaller; report: TReportInput }) {
  const { caller, report } = input;
  const target = await resolveTarget(caller, report);
  const row = await withTransaction(async (tx) => {
    const lockKey = `report|${caller.userId}|${target.key}|${report.category}`;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${lockKey}))`);
    const at = now();
    const sameTarget: SQL =
      target.reportedPostId !== null
        ? and(eq(reports.reportType, 'post'), eq(reports.reportedPostId, target.reportedPostId))!
        : and(eq(reports.reportType, 'user'), eq(reports.reportedUserId, target.reportedUserId))!;
    const [dup] = await tx
      .select({ id: reports.id })
      .from(reports)
      .where(
        and(
          eq(reports.reporterId, caller.userId),
          eq(reports.category, report.category),
          sameTarget,
          gt(reports.createdAt, new Date(at.getTime() - DUPLICATE_WINDOW_MS)),
        ),
      )
      .limit(1);
    if (dup) {
      throw new AppError('DUPLICATE_REPORT', 'You already reported this for the same reason in the last 24 hours', { reportId: dup.id });
    }
    const [created] = await tx
      .insert(reports)
      .values({
        reporterId: caller.userId,
        reportedUserId: target.reportedUserId,
        reportedPostId: target.reportedPostId,
        reportType: report.reportType,
        category: report.category,
        reason: report.reason,
        evidence: report.evidence ?? null,
        status: 'pending',
        priority: priorityOf(report.category),
        source: 'user',
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    return created!;
  });
  return { message: 'Report submitted: a moderator will review it', report: toReportDto(row) };
}

/** A report of the user's, whichever form it takes (A2A moderation.reportUser). */
export function reportUser(input: { caller: TCaller; userId: string; category: TCategory; reason: string; evidence?: string }) {
  return createReport({
    caller: input.caller,
    report: { reportType: 'user', reportedUserId: input.userId, category: input.category, reason: input.reason, evidence: input.evidence },
  });
}

/** A2A moderation.reportPost. */
export function reportPost(input: { caller: TCaller; postId: string; category: TCategory; reason: string; evidence?: string }) {
  return createReport({
    caller: input.caller,
    report: { reportType: 'post', reportedPostId: input.postId, category: input.category, reason: input.reason, evidence: input.evidence },
  });
}

export async function listMyReports(input: {
  caller: TCaller;
  limit: number;
  offset: number;
  status?: TReport['status'];
  category?: TCategory;
  reportType?: 'user' | 'post';
}) {
  const db = await getDb();
  const where = and(
    eq(reports.reporterId, input.caller.userId),
    input.status ? eq(reports.status, input.status) : undefined,
    input.category ? eq(reports.category, input.category) : undefined,
    input.reportType ? eq(reports.reportType, input.reportType) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ report: reports, user: { id: users.id, username: users.username, displayName: users.displayName } })
      .from(reports)
      .leftJoin(users, eq(users.id, reports.reportedUserId))
      .where(where)
      .orderBy(desc(reports.createdAt), desc(reports.id))
      .limit(input.limit)
      .offset(input.offset),
    db.select({ n: count() }).from(reports).where(where),
  ]);
  return {
    reports: rows.map((r) => ({ ...toReportDto(r.report), reportedUser: r.user })),
    pagination: pageOf(input, Number(total?.n ?? 0)),
  };
}
