/**
 * One run of the self-dealing detector: read each rule's rows (./queries.ts), turn them into
 * findings (./rules.ts), and file each new finding as a system report in the admin queue:
 * reporterId null, source 'system', reportType 'user', the beneficiary as the reported user,
 * category 'other', priority medium (high for larger sums), the explanation as its reason and
 * {rule, key, accounts, evidence} as its details. Nothing else happens: no automatic ban.
 *
 * Never twice for the same rule and subject: a finding is skipped while a system report of the
 * same rule and key is pending or reviewing, or was filed in the last 24 h. The check and the
 * inserts run in one transaction under an advisory lock, so two runs at once (the tick and a
 * script) file each finding once.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { reports } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { loadBlockingReports, loadReferralIncome, loadRingTrades, loadWashPairTrades } from './queries';
import { findReferralRings, findWashPairs, type TFinding } from './rules';

/** The detector's advisory lock key (distinct from the tick's and the migrations'). */
const DETECTOR_LOCK_KEY = 7412014;
/** A report's reason is at most this long (the players' limit). */
const MAX_REASON = 2000;

export type TDetectorResult = { findings: number; filed: number; reportIds: string[] };

/** Files the findings that no open or recent system report covers; returns the new reports' ids. */
export async function fileFindings(findings: TFinding[], at: Date): Promise<string[]> {
  if (findings.length === 0) return [];
  return withTransaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DETECTOR_LOCK_KEY})`);
    const blocking = await loadBlockingReports(tx, at);
    const fresh = findings.filter((f) => !blocking.has(`${f.rule}:${f.key}`));
    if (fresh.length === 0) return [];
    const inserted = await tx
      .insert(reports)
      .values(
        fresh.map((f) => ({
          reporterId: null,
          reportedUserId: f.subjectId,
          reportedPostId: null,
          reportType: 'user' as const,
          category: 'other' as const,
          reason: f.reason.slice(0, MAX_REASON),
          status: 'pending' as const,
          priority: f.priority,
          source: 'system' as const,
          details: { rule: f.rule, key: f.key, accounts: f.accounts, evidence: f.evidence },
          createdAt: at,
          updatedAt: at,
        })),
      )
      .returning({ id: reports.id });
    return inserted.map((r) => r.id);
  });
}

/** Runs every rule as of `at` (game time by default) and files what it finds. */
export async function runSelfDealingDetector(opts: { at?: Date } = {}): Promise<TDetectorResult> {
  const at = opts.at ?? now();
  const db = await getDb();
  const ringTrades = await loadRingTrades(db, at);
  const income = await loadReferralIncome(db, [...new Set(ringTrades.map((r) => r.referrerId))].sort(), at);
  const findings = [...findReferralRings(ringTrades, income), ...findWashPairs(await loadWashPairTrades(db, at))];
  // Circular transfers between users plug in here once user-to-user transfers exist (README).
  const reportIds = await fileFindings(findings, at);
  return { findings: findings.length, filed: reportIds.length, reportIds };
}
