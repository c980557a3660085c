/**
 * Acting on a report (POST /api/admin/reports/{reportId}): the state machine of the
 * specification's report table, in ONE transaction with the report row locked (SELECT … FOR
 * UPDATE), so two moderators acting at once are serialised and the second sees the first's state:
 *
 *   review            pending → reviewing (a moderator claims it)
 *   resolve, dismiss  pending or reviewing → resolved / dismissed; the resolution, who and when are stored
 *   escalate          any state; priority becomes critical, status unchanged
 *   ban_user          any state, administrators only; the reported user is banned at once through
 *                     the ban route's own code path (lib/admin/service/ban-user.ts), in the same
 *                     transaction; status unchanged
 *
 * Any other move is INVALID_REPORT_STATE (409). Every action, whatever it changed, writes one
 * report_actions row (actor, action, the resolution as its note, status and priority before and
 * after) and bumps updated_at: the audit trail the detail shows.
 *
 * Issue 35: a claim (review) needs no resolution (the note stays empty); every other action still
 * requires one (the specification's 1 to 1000 characters, checked by the contract). ban_user may
 * carry `durationHours` (a temporary ban). Resolving or dismissing a report a player filed sends
 * the reporter one 'report_outcome' notification in the same transaction; it names neither the
 * reporter to anyone nor the moderator, and the reported user is never told who reported them.
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { withTransaction } from '@/db/client';
import { reportActions, reports, type TReportRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { notify } from '@/lib/notifications/service';
import { findAdminReport } from '../queries';
import { applyBan } from './ban-user';

export type TReportActionInput = 'review' | 'resolve' | 'dismiss' | 'escalate' | 'ban_user';

type TStatus = TReportRow['status'];
type TPriority = TReportRow['priority'];

const OPEN: readonly TStatus[] = ['pending', 'reviewing'];

/** The status and priority an action leads to from a report's current ones, or INVALID_REPORT_STATE. Pure. */
export function nextReportState(action: TReportActionInput, from: { status: TStatus; priority: TPriority }): { status: TStatus; priority: TPriority } {
  const refuse = (allowed: string) => {
    throw new AppError('INVALID_REPORT_STATE', `Cannot ${action} a ${from.status} report (only ${allowed})`, { status: from.status, action });
  };
  switch (action) {
    case 'review':
      if (from.status !== 'pending') refuse('a pending one');
      return { status: 'reviewing', priority: from.priority };
    case 'resolve':
    case 'dismiss':
      if (!OPEN.includes(from.status)) refuse('a pending or reviewing one');
      return { status: action === 'resolve' ? 'resolved' : 'dismissed', priority: from.priority };
    case 'escalate':
      return { status: from.status, priority: 'critical' };
    case 'ban_user':
      return { ...from };
  }
}

const MESSAGES: Record<TReportActionInput, string> = {
  review: 'Report under review',
  resolve: 'Report resolved',
  dismiss: 'Report dismissed',
  escalate: 'Report escalated to critical priority',
  ban_user: 'Reported user banned',
};

/** The reporter's notification when their report is closed: what became of it, nothing about who decided. */
const outcomeMessage = (r: TReportRow, status: 'resolved' | 'dismissed') => {
  const what = r.reportType === 'post' ? 'the post you reported' : 'the account you reported';
  return status === 'resolved'
    ? { title: 'Your report was upheld', message: `Thank you: the moderators reviewed ${what} and took action.` }
    : { title: 'Your report was reviewed', message: `The moderators reviewed ${what} and found no breach of the rules. Thank you for reporting.` };
};

export async function actOnReport(input: { caller: TCaller; reportId: string; action: TReportActionInput; resolution?: string; durationHours?: number }) {
  const { caller, action } = input;
  const resolution = input.resolution?.trim() || null;
  if (action !== 'review' && !resolution) {
    throw new AppError('VALIDATION_ERROR', 'A resolution is required for this action', { issues: [{ path: 'resolution', message: 'Required (1 to 1000 characters)' }] });
  }
  if (input.durationHours !== undefined && action !== 'ban_user') {
    throw new AppError('VALIDATION_ERROR', 'durationHours only goes with ban_user', { issues: [{ path: 'durationHours', message: 'only for ban_user' }] });
  }
  if (action === 'ban_user' && !caller.isAdmin) throw new AppError('FORBIDDEN', 'Only administrators can ban users');
  const report = await withTransaction(async (tx) => {
    // The report row first, then (ban_user) the user's: the one lock order of this module.
    const [r] = await tx.select().from(reports).where(eq(reports.id, input.reportId)).for('update');
    if (!r) throw new AppError('REPORT_NOT_FOUND', 'Report not found', { reportId: input.reportId });
    const next = nextReportState(action, r);
    if (action === 'ban_user') {
      if (!r.reportedUserId) throw new AppError('USER_NOT_FOUND', 'This report names no user to ban', { reportId: r.id });
      // The caller is an administrator, and administrators cannot be banned: the same answer for oneself.
      if (r.reportedUserId === caller.userId) throw new AppError('FORBIDDEN', 'Administrators cannot be banned');
      const endsAt = input.durationHours === undefined ? null : new Date(now().getTime() + input.durationHours * 3_600_000);
      await applyBan(tx, { actorId: caller.userId, userId: r.reportedUserId, action: 'ban', reason: resolution, reportId: r.id, endsAt });
    }
    const at = now();
    const closes = next.status !== r.status && (next.status === 'resolved' || next.status === 'dismissed');
    await tx
      .update(reports)
      .set({
        status: next.status,
        priority: next.priority,
        updatedAt: at,
        ...(closes ? { resolution, resolvedById: caller.userId, resolvedAt: at } : {}),
      })
      .where(eq(reports.id, r.id));
    await tx.insert(reportActions).values({
      reportId: r.id,
      actorId: caller.userId,
      action,
      note: resolution,
      fromStatus: r.status,
      toStatus: next.status,
      fromPriority: r.priority,
      toPriority: next.priority,
      createdAt: at,
    });
    if (closes && r.reporterId) {
      const outcome = outcomeMessage(r, next.status as 'resolved' | 'dismissed');
      await notify(tx, [{ userId: r.reporterId, type: 'system', kind: 'report_outcome', ...outcome, link: null }]);
    }
    return findAdminReport(tx, r.id);
  });
  return { message: MESSAGES[action], report: report! };
}
