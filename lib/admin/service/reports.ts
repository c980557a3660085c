/**
 * The report queue (moderators and administrators): the list with its filters and sorts, one
 * report in full (related reports, the audit trail, the reported user's recent posts) and the
 * queue's statistics. Reads only; each answer costs a fixed number of statements whatever the
 * page size (lib/admin/queries.ts builds every row in one).
 */
import 'server-only';
import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { reportActions, reports, users } from '@/db/schema';
import { REPORT_CATEGORIES, REPORT_PRIORITIES } from '@/db/schema/moderation-values';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { toReportActionDto, toReportDetails, type TAdminReportsQuery } from '../dto';
import { findRecentPosts, sameTargetAs, selectAdminReports } from '../queries';

/** How many related reports and recent posts a detail shows. */
const RELATED_LIMIT = 50;
const RECENT_POSTS = 5;
const TOP_LIMIT = 10;
const DAY_MS = 86_400_000;

const priorityRank = sql`(case ${reports.priority} when 'critical' then 4 when 'high' then 3 when 'medium' then 2 else 1 end)`;

const queueWhere = (q: TAdminReportsQuery): SQL | undefined => {
  const conds: SQL[] = [];
  if (q.status) conds.push(eq(reports.status, q.status));
  if (q.category) conds.push(eq(reports.category, q.category));
  if (q.priority) conds.push(eq(reports.priority, q.priority));
  if (q.reportType) conds.push(eq(reports.reportType, q.reportType));
  if (q.reporterId) conds.push(eq(reports.reporterId, q.reporterId));
  if (q.reportedUserId) conds.push(eq(reports.reportedUserId, q.reportedUserId));
  if (q.reportedPostId) conds.push(eq(reports.reportedPostId, q.reportedPostId));
  if (q.source) conds.push(eq(reports.source, q.source));
  return conds.length ? and(...conds) : undefined;
};

/** The sort key, then creation time and id in the same direction, so pages never overlap. */
const queueOrder = (q: TAdminReportsQuery): SQL[] => {
  const dir = q.sortOrder === 'asc' ? asc : desc;
  const key = q.sortBy === 'priority' ? priorityRank : q.sortBy === 'updated' ? sql`${reports.updatedAt}` : sql`${reports.createdAt}`;
  return [dir(key), dir(reports.createdAt), dir(reports.id)];
};

/** GET /api/admin/reports: the queue, filtered, sorted and paged (two statements). */
export async function listReports(input: { caller: TCaller; query: TAdminReportsQuery }) {
  const { query } = input;
  const db = await getDb();
  const where = queueWhere(query);
  const list = await selectAdminReports(db, { where, orderBy: queueOrder(query), limit: query.limit, offset: query.offset });
  const [t] = await db.select({ n: count() }).from(reports).where(where);
  return { reports: list, pagination: { limit: query.limit, offset: query.offset, total: Number(t?.n ?? 0) } };
}

/** GET /api/admin/reports/{reportId}: the report, related reports, its audit trail and the reported user's recent posts. */
export async function getReport(input: { caller: TCaller; reportId: string }) {
  const db = await getDb();
  const [row] = await db.select().from(reports).where(eq(reports.id, input.reportId));
  if (!row) throw new AppError('REPORT_NOT_FOUND', 'Report not found', { reportId: input.reportId });
  const [report] = await selectAdminReports(db, { where: eq(reports.id, row.id) });
  const relatedReports = await selectAdminReports(db, { where: sameTargetAs(row), limit: RELATED_LIMIT });
  const actions = await db
    .select({ action: reportActions, actor: { id: users.id, username: users.username, displayName: users.displayName } })
    .from(reportActions)
    .innerJoin(users, eq(users.id, reportActions.actorId))
    .where(eq(reportActions.reportId, row.id))
    .orderBy(asc(reportActions.createdAt), asc(reportActions.id));
  const recentPosts = row.reportedUserId ? await findRecentPosts(db, row.reportedUserId, RECENT_POSTS) : [];
  return {
    report: { ...report!, details: toReportDetails(row.details) },
    relatedReports,
    actions: actions.map((a) => toReportActionDto(a.action, a.actor)),
    recentPosts,
  };
}

type TCountRow = { k: string; n: number | string };

/**
 * GET /api/admin/reports/stats: totals by status, category and priority (every value listed,
 * zeros included, in the schema's order), the ten most reported users and the ten most active
 * reporters (ties by username), and the last seven days: reports filed, reports resolved.
 */
export async function getReportStats(_input: { caller: TCaller }) {
  const db = await getDb();
  const weekAgo = sql`${new Date(now().getTime() - 7 * DAY_MS).toISOString()}::timestamptz`;
  const grouped = rowsOf<TCountRow & { g: string }>(
    await db.execute(sql`
      select 'status' as g, status as k, count(*) as n from ${reports} group by status
      union all select 'category', category, count(*) from ${reports} group by category
      union all select 'priority', priority, count(*) from ${reports} group by priority
      union all select 'recent', 'filed', count(*) from ${reports} where created_at > ${weekAgo}
      union all select 'recent', 'resolved', count(*) from ${reports} where resolved_at > ${weekAgo}`),
  );
  const countOf = (g: string, k: string) => Number(grouped.find((r) => r.g === g && r.k === k)?.n ?? 0);
  const top = (col: 'reported_user_id' | 'reporter_id') =>
    sql`select u.id, u.username, count(*)::int as n from ${reports} r join ${users} u on u.id = r.${sql.raw(col)}
        group by u.id, u.username order by count(*) desc, u.username asc limit ${TOP_LIMIT}`;
  type TTopRow = { id: string; username: string; n: number | string };
  const toTop = (rows: TTopRow[]) => rows.map((r) => ({ user: { id: r.id, username: r.username }, reportCount: Number(r.n) }));
  const topReportedUsers = toTop(rowsOf<TTopRow>(await db.execute(top('reported_user_id'))));
  const topReporters = toTop(rowsOf<TTopRow>(await db.execute(top('reporter_id'))));
  const statuses = ['pending', 'reviewing', 'resolved', 'dismissed'] as const;
  const byStatus = Object.fromEntries(statuses.map((s) => [s, countOf('status', s)])) as Record<(typeof statuses)[number], number>;
  return {
    totals: { total: statuses.reduce((sum, s) => sum + byStatus[s], 0), ...byStatus },
    byCategory: REPORT_CATEGORIES.map((category) => ({ category, count: countOf('category', category) })),
    byPriority: REPORT_PRIORITIES.map((priority) => ({ priority, count: countOf('priority', priority) })),
    topReportedUsers,
    topReporters,
    recentActivity: { last7Days: countOf('recent', 'filed'), resolved7Days: countOf('recent', 'resolved') },
  };
}
