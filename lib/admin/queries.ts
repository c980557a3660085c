/**
 * Read side of the report queue: reports with everything a moderator needs beside them (the
 * reporter, the reported user and their ban state, the reported post, who resolved it, how many
 * other reports name the same target) in ONE statement for any number of rows, so a page costs
 * the same whatever its length. Reads only.
 *
 * Moderators see reported content whoever wrote it: these reads do not filter banned authors,
 * they report whether the post still shows in feeds (`visible`, the feeds' own canSee rule).
 */
import { desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '@/db/client';
import { posts, reports, users } from '@/db/schema';
import { canSee } from '@/lib/moderation/visibility';
import { toAdminReport, toReportedPost, type TAdminReportRow } from './dto';

const reporter = alias(users, 'reporter');
const reported = alias(users, 'reported');
const resolver = alias(users, 'resolver');

/** Whether content by `authorCol` shows in public feeds: what an anonymous reader may see. */
const visibleInFeeds = (authorCol: SQL) => sql<boolean>`(${canSee(authorCol, null)} and "posts"."removed_at" is null)`;

/**
 * Other reports about the same target: the same post for a post report, the same user for a
 * user report (every report naming them, post reports about their posts included). Both lookups
 * use an index (reports_reported_post_idx, reports_reported_user_idx).
 */
// Qualified by hand: drizzle may print a lone column unqualified, which inside the subquery
// would bind to r2's own column.
const relatedCount = sql<number>`(case when "reports"."report_type" = 'post'
    then (select count(*) from ${reports} r2 where r2.reported_post_id = "reports"."reported_post_id" and r2.id <> "reports"."id")
    else (select count(*) from ${reports} r2 where r2.reported_user_id = "reports"."reported_user_id" and r2.id <> "reports"."id")
  end)::int`.mapWith(Number);

/** The same target as a report, itself excluded (the detail's related reports). */
export function sameTargetAs(r: { id: string; reportType: 'user' | 'post'; reportedUserId: string | null; reportedPostId: string | null }): SQL {
  return r.reportType === 'post'
    ? sql`${reports.reportedPostId} = ${r.reportedPostId} and ${reports.id} <> ${r.id}`
    : sql`${reports.reportedUserId} = ${r.reportedUserId} and ${reports.id} <> ${r.id}`;
}

/** Reports as the queue shows them, in the order and page asked. */
export async function selectAdminReports(
  db: DbOrTx,
  opts: { where?: SQL; orderBy?: SQL[]; limit?: number; offset?: number },) {
  let q = db
    .select({
      report: reports,
      reporter: { id: reporter.id, username: reporter.username, displayName: reporter.displayName },
      reported: { id: reported.id, username: reported.username, displayName: reported.displayName, isBanned: reported.isBanned },
      resolver: { id: resolver.id, username: resolver.username, displayName: resolver.displayName },
      post: {
        id: posts.id,
        content: posts.content,
        authorId: posts.authorId,
        createdAt: posts.createdAt,
        visible: visibleInFeeds(sql.raw('"posts"."author_id"')),
        removedAt: posts.removedAt,
        removedReason: posts.removedReason,
      },
      relatedCount,
    })
    .from(reports)
    .leftJoin(reporter, eq(reporter.id, reports.reporterId))
    .leftJoin(reported, eq(reported.id, reports.reportedUserId))
    .leftJoin(resolver, eq(resolver.id, reports.resolvedById))
    .leftJoin(posts, eq(posts.id, reports.reportedPostId))
    .where(opts.where)
    .orderBy(...(opts.orderBy ?? [desc(reports.createdAt), desc(reports.id)]))
    .$dynamic();
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  if (opts.offset !== undefined) q = q.offset(opts.offset);
  const rows = (await q) as unknown as TAdminReportRow[];
  return rows.map(toAdminReport);
}

/** One report as the queue shows it, with its row (details, status) for the caller's use. */
export async function findAdminReport(db: DbOrTx, reportId: string) {
  const [r] = await selectAdminReports(db, { where: eq(reports.id, reportId) });
  return r;
}

/** A user's newest posts (for a report's context), whoever may see them. */
export async function findRecentPosts(db: DbOrTx, userId: string, limit: number) {
  const rows = await db
    .select({
      id: posts.id,
      content: posts.content,
      authorId: posts.authorId,
      createdAt: posts.createdAt,
      visible: visibleInFeeds(sql.raw('"posts"."author_id"')),
      removedAt: posts.removedAt,
      removedReason: posts.removedReason,
    })
    .from(posts)
    .where(eq(posts.authorId, userId))
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(limit);
  return rows.map(toReportedPost);
}
