/**
 * Labels and colours of the admin console: report statuses and priorities (critical red, high
 * amber, medium accent, low grey, so the queue reads at a glance), sources, roles. No I/O.
 */
import type { TBadgeTone } from '@/components/ui/badge';
import type { TReportPriority, TReportSource, TReportStatus, TUserRole } from '@/lib/client/queries/admin';

export const PRIORITY_TONE: Record<TReportPriority, TBadgeTone> = { critical: 'down', high: 'warn', medium: 'accent', low: 'neutral' };

/** The coloured edge of a queue row, by priority. */
export const PRIORITY_EDGE: Record<TReportPriority, string> = {
  critical: 'border-l-down',
  high: 'border-l-warn',
  medium: 'border-l-accent',
  low: 'border-l-line-strong',
};

export const PRIORITY_LABEL: Record<TReportPriority, string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' };

export const STATUS_TONE: Record<TReportStatus, TBadgeTone> = { pending: 'warn', reviewing: 'accent', resolved: 'up', dismissed: 'neutral' };

export const STATUS_LABEL: Record<TReportStatus, string> = { pending: 'Pending', reviewing: 'Reviewing', resolved: 'Resolved', dismissed: 'Dismissed' };

export const SOURCE_LABEL: Record<TReportSource, string> = { user: 'Player report', system: 'System report' };

export const ROLE_LABEL: Record<TUserRole, string> = { user: 'User', moderator: 'Moderator', admin: 'Administrator' };
