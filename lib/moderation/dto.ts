/**
 * The API's report shapes (TReport, TReportInput: lib/contracts/moderation.ts documents them as
 * ZReport and ZReportInput and checks the two agree) and moderation rows to the API's shapes
 * (specification "Moderation records"). No I/O.
 */
import type { TBlockRow, TMuteRow, TReportRow } from '@/db/schema';
import type { REPORT_CATEGORIES, REPORT_PRIORITIES, REPORT_STATUSES } from '@/db/schema/moderation-values';

export type TReportCategory = (typeof REPORT_CATEGORIES)[number];
export type TReportStatus = (typeof REPORT_STATUSES)[number];
export type TReportPriority = (typeof REPORT_PRIORITIES)[number];

/** A person a report names (reporter, reported user, resolver). */
export type TPersonRef = { id: string; username: string; displayName: string };

/** A report as its reporter and the queue see it (timestamps ISO 8601 UTC). */
export type TReport = {
  id: string;
  /** Null for a report the system filed (the self-dealing detector). */
  reporterId: string | null;
  reportedUserId: string | null;
  reportedPostId: string | null;
  reportType: 'user' | 'post';
  category: TReportCategory;
  reason: string;
  evidence: string | null;
  status: TReportStatus;
  priority: TReportPriority;
  /** user: filed by a player; system: filed by a detector. */
  source: 'user' | 'system';
  resolution: string | null;
  resolvedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

/** What a player files (POST /api/moderation/reports, A2A moderation.reportUser and reportPost), validated. */
export type TReportInput = (
  | { reportType: 'user'; reportedUserId: string }
  | {
      reportType: 'post';
      reportedPostId: string;
      /** Ignored when sent: the post's author is the reported user. */
      reportedUserId?: string;
    }
) & { category: TReportCategory; reason: string; evidence?: string };

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

export function toBlockDto(b: TBlockRow) {
  return {
  id: b.id,
  blockerId: b.blockerId,
  blockedId: b.blockedId,
  reason: b.reason,
  createdAt: iso(b.createdAt),
};
}

export function toMuteDto(m: TMuteRow) {
  return {
  id: m.id,
  muterId: m.muterId,
  mutedId: m.mutedId,
  reason: m.reason,
  createdAt: iso(m.createdAt),
};
}

export function toReportDto(r: TReportRow): TReport {
  return {
  id: r.id,
  reporterId: r.reporterId,
  reportedUserId: r.reportedUserId,
  reportedPostId: r.reportedPostId,
  reportType: r.reportType,
  category: r.category,
  reason: r.reason,
  evidence: r.evidence,
  status: r.status,
  priority: r.priority,
  source: r.source,
  resolution: r.resolution,
  resolvedAt: isoOrNull(r.resolvedAt),
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
};
}
