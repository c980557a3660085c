/** Moderation rows to the API's shapes (specification "Moderation records"). No I/O. */
import type { TBlockRow, TMuteRow, TReportRow } from '@/db/schema';
import type { TReport } from '@/lib/contracts/moderation';

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

export const toBlockDto = (b: TBlockRow) => ({
  id: b.id,
  blockerId: b.blockerId,
  blockedId: b.blockedId,
  reason: b.reason,
  createdAt: iso(b.createdAt),
});

export const toMuteDto = (m: TMuteRow) => ({
  id: m.id,
  muterId: m.muterId,
  mutedId: m.mutedId,
  reason: m.reason,
  createdAt: iso(m.createdAt),
});

export const toReportDto = (r: TReportRow): TReport => ({
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
});
