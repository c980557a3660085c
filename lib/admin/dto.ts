/**
 * Administration rows to the API's shapes: reports as the queue shows them, audit-trail actions,
 * reported posts, and a user's role. No I/O. The shapes and the queries the services take are
 * owned here; lib/contracts/admin.ts documents them (ZAdminReport, ZDetectorDetails, the queries of
 * admin.reports and admin.users) and checks the two agree.
 */
import type { TReportActionRow, TReportRow } from '@/db/schema';
import {
  toReportDto,
  type TPersonRef,
  type TReport,
  type TReportCategory,
  type TReportPriority,
  type TReportStatus,
} from '@/lib/moderation/dto';

export type TRole = 'user' | 'moderator' | 'admin';

/** GET /api/admin/reports's query, validated (defaults applied): the queue's filters, sort and page. */
export type TAdminReportsQuery = {
  limit: number;
  offset: number;
  status?: TReportStatus;
  category?: TReportCategory;
  priority?: TReportPriority;
  reportType?: 'user' | 'post';
  reporterId?: string;
  reportedUserId?: string;
  reportedPostId?: string;
  /** Reports the system filed (detector) or players filed. */
  source?: 'user' | 'system';
  sortBy: 'created' | 'updated' | 'priority';
  sortOrder: 'asc' | 'desc';
};

/** GET /api/admin/users's query, validated (defaults applied): search, filter, sort and page. */
export type TAdminUsersQuery = {
  search?: string;
  limit: number;
  offset: number;
  filter: 'all' | 'players' | 'actors' | 'agents' | 'banned' | 'staff' | 'reported';
  sortBy: 'created' | 'balance' | 'pnl' | 'trades' | 'reports' | 'username';
  sortOrder: 'asc' | 'desc';
};

/** A person named inside a report (reporter, reported user, resolver), or null when absent. */
type TPersonCols = { id: string | null; username: string | null; displayName: string | null };

/** One row of the queue's statement (lib/admin/queries.ts selectAdminReports). */
// Drizzle gives a left-joined object either with null columns or as null: both read as absent.
export type TAdminReportRow = {
  report: TReportRow;
  reporter: TPersonCols | null;
  reported: (TPersonCols & { isBanned: boolean | null }) | null;
  resolver: TPersonCols | null;
  post: {
    id: string | null;
    content: string | null;
    authorId: string | null;
    createdAt: Date | null;
    visible: boolean | null;
    removedAt: Date | null;
    removedReason: string | null;
  } | null;
  relatedCount: number;
};

const personOrNull = (p: TPersonCols | null) => (!p?.id ? null : { id: p.id, username: p.username ?? '', displayName: p.displayName ?? '' });

export type TReportedPost = {
  id: string;
  content: string;
  authorId: string;
  createdAt: string;
  /** Whether the post still shows in feeds (its author is not banned, and no moderator removed it). */
  visible: boolean;
  /** Removed by a moderator (issue 35): the reason and when; null otherwise. */
  removed: { reason: string | null; at: string } | null;
};

/** A report as the queue shows it: the report and the people and post it names. */
export type TAdminReport = TReport & {
  reporter: TPersonRef | null;
  reportedUser: (TPersonRef & { isBanned: boolean }) | null;
  reportedPost: TReportedPost | null;
  resolvedBy: TPersonRef | null;
  /** Other reports about the same target (user or post), not counting this one. */
  relatedCount: number;
};

/**
 * What the self-dealing detector stores with a report it files (lib/admin/detector/run.ts): its
 * rule, the finding's de-duplication key, the accounts involved, and the evidence (row ids capped,
 * sums over every row; amounts as decimal strings) that lib/admin/detector/rules.ts gathered.
 */
export type TDetectorDetails =
  | {
      rule: 'referral_ring';
      /** The referrer. */
      key: string;
      /** The referrer, then the referred accounts. */
      accounts: string[];
      evidence: {
        referrerId: string;
        referredAccounts: { id: string; username: string; createdAt: string }[];
        signupSpanHours: number;
        marketIds: string[];
        oppositeSidesMarketIds: string[];
        tradeIds: string[];
        ledgerIds: string[];
        sums: { trades: number; volume: string; referralFees: string; referrerReferralIncome: string; incomeShare: number };
      };
    }
  | {
      rule: 'wash_pair';
      /** The two account ids in order, "a|b". */
      key: string;
      accounts: string[];
      evidence: {
        marketIds: string[];
        tradeIds: string[];
        sums: {
          /** Paired trades by account id. */
          pairedTrades: Record<string, number>;
          /** Each account's gain at the price before the pair started, by account id. */
          gainAtReferencePrice: Record<string, string>;
          volume: string;
        };
      };
    };

export function toReportedPost(p: {
  id: string;
  content: string;
  authorId: string;
  createdAt: Date | string;
  visible: boolean;
  removedAt?: Date | string | null;
  removedReason?: string | null;
}): TReportedPost {
  return {
    id: p.id,
    content: p.content,
    authorId: p.authorId,
    createdAt: new Date(p.createdAt).toISOString(),
    visible: !!p.visible,
    removed: p.removedAt ? { reason: p.removedReason ?? null, at: new Date(p.removedAt).toISOString() } : null,
  };
}

export function toAdminReport(r: TAdminReportRow): TAdminReport {
  const reported = personOrNull(r.reported);
  return {
    ...toReportDto(r.report),
    reporter: personOrNull(r.reporter),
    reportedUser: reported ? { ...reported, isBanned: !!r.reported?.isBanned } : null,
    reportedPost: !r.post?.id
      ? null
      : toReportedPost({
          id: r.post.id,
          content: r.post.content ?? '',
          authorId: r.post.authorId ?? '',
          createdAt: r.post.createdAt!,
          visible: !!r.post.visible,
          removedAt: r.post.removedAt,
          removedReason: r.post.removedReason,
        }),
    resolvedBy: personOrNull(r.resolver),
    relatedCount: Number(r.relatedCount),
  };
}

/**
 * The detector's findings of a system report, as lib/admin/detector/run.ts stored them (the shape
 * GET /api/admin/reports/{reportId} declares), or null (player reports).
 */
export function toReportDetails(details: unknown): TDetectorDetails | null {
  return details !== null && typeof details === 'object' && !Array.isArray(details) ? (details as TDetectorDetails) : null;
}

export function toReportActionDto(a: TReportActionRow, actor: { id: string; username: string; displayName: string }) {
  return {
  id: a.id,
  action: a.action,
  actor,
  note: a.note,
  fromStatus: a.fromStatus,
  toStatus: a.toStatus,
  fromPriority: a.fromPriority,
  toPriority: a.toPriority,
  createdAt: a.createdAt.toISOString(),
};
}

/**
 * A user's role: administrators are flagged users or the subjects ADMIN_SUBJECTS names (known
 * here from the row's auth subject); moderators are flagged users.
 */
export function roleOf(u: { isAdmin: boolean; isModerator: boolean; authSubject: string | null }, adminSubjects: ReadonlySet<string>): TRole {
  return u.isAdmin || (u.authSubject !== null && adminSubjects.has(u.authSubject)) ? 'admin' : u.isModerator ? 'moderator' : 'user';
}

/** The flags a role sets (an administrator works the queue through isAdmin; isModerator stays off). */
export function flagsOfRole(role: TRole) {
  return { isAdmin: role === 'admin', isModerator: role === 'moderator' };
}
