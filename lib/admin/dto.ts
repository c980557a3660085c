/**
 * Administration rows to the API's shapes (lib/contracts/admin.ts): reports as the queue shows
 * them, audit-trail actions, reported posts, and a user's role. No I/O.
 */
import type { TReportActionRow, TReportRow } from '@/db/schema';
import type { TAdminReport, TDetectorDetails } from '@/lib/contracts/admin';
import { toReportDto } from '@/lib/moderation/dto';

export type TRole = 'user' | 'moderator' | 'admin';

/** A person named inside a report (reporter, reported user, resolver), or null when absent. */
type TPersonCols = { id: string | null; username: string | null; displayName: string | null };

/** One row of the queue's statement (lib/admin/queries.ts selectAdminReports). */
// Drizzle gives a left-joined object either with null columns or as null: both read as absent.
export type TAdminReportRow = {
  report: TReportRow;
  reporter: TPersonCols | null;
  reported: (TPersonCols & { isBanned: boolean | null }) | null;
  resolver: TPersonCols | null;
  post: { id: string | null; content: string | null; authorId: string | null; createdAt: Date | null; visible: boolean | null } | null;
  relatedCount: number;
};

const personOrNull = (p: TPersonCols | null) => (!p?.id ? null : { id: p.id, username: p.username ?? '', displayName: p.displayName ?? '' });

export type TReportedPost = { id: string; content: string; authorId: string; createdAt: string; visible: boolean };

export const toReportedPost = (p: { id: string; content: string; authorId: string; createdAt: Date | string; visible: boolean }): TReportedPost => ({
  id: p.id,
  content: p.content,
  authorId: p.authorId,
  createdAt: new Date(p.createdAt).toISOString(),
  visible: !!p.visible,
});

export const toAdminReport = (r: TAdminReportRow): TAdminReport => {
  const reported = personOrNull(r.reported);
  return {
    ...toReportDto(r.report),
    reporter: personOrNull(r.reporter),
    reportedUser: reported ? { ...reported, isBanned: !!r.reported?.isBanned } : null,
    reportedPost: !r.post?.id
      ? null
      : toReportedPost({ id: r.post.id, content: r.post.content ?? '', authorId: r.post.authorId ?? '', createdAt: r.post.createdAt!, visible: !!r.post.visible }),
    resolvedBy: personOrNull(r.resolver),
    relatedCount: Number(r.relatedCount),
  };
};

/**
 * The detector's findings of a system report, as lib/admin/detector/run.ts stored them (the shape
 * GET /api/admin/reports/{reportId} declares), or null (player reports).
 */
export const toReportDetails = (details: unknown): TDetectorDetails | null =>
  details !== null && typeof details === 'object' && !Array.isArray(details) ? (details as TDetectorDetails) : null;

export const toReportActionDto = (a: TReportActionRow, actor: { id: string; username: string; displayName: string }) => ({
  id: a.id,
  action: a.action,
  actor,
  note: a.note,
  fromStatus: a.fromStatus,
  toStatus: a.toStatus,
  fromPriority: a.fromPriority,
  toPriority: a.toPriority,
  createdAt: a.createdAt.toISOString(),
});

/**
 * A user's role: administrators are flagged users or the subjects ADMIN_SUBJECTS names (known
 * here from the row's auth subject); moderators are flagged users.
 */
export const roleOf = (u: { isAdmin: boolean; isModerator: boolean; authSubject: string | null }, adminSubjects: ReadonlySet<string>): TRole =>
  u.isAdmin || (u.authSubject !== null && adminSubjects.has(u.authSubject)) ? 'admin' : u.isModerator ? 'moderator' : 'user';

/** The flags a role sets (an administrator works the queue through isAdmin; isModerator stays off). */
export const flagsOfRole = (role: TRole) => ({ isAdmin: role === 'admin', isModerator: role === 'moderator' });
