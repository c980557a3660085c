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
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { withTransaction } from '@/db/client';
import { reportActions, reports, type TReportRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
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

export async function actOnReport(input: { caller: TCaller; reportId: string; action: TReportActionInput; resolution: string }) {
  const { caller, action, resolution } = input;
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
      await applyBan(tx, { actorId: caller.userId, userId: r.reportedUserId, action: 'ban', reason: resolution, reportId: r.id });
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
    return findAdminReport(tx, r.id);
  });
  return { message: MESSAGES[action], report: report! };
}
