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
import {
  countTradesBetween,
  loadBlockingReports,
  loadChangedPairs,
  loadChangedReferrers,
  loadReferralIncome,
  loadRingTrades,
  loadWashPairTrades,
  loadWatermark,
  saveWatermark,
} from './queries';
import { findReferralRings, findWashPairs, type TFinding } from './rules';

/** The detector's advisory lock key (distinct from the tick's and the migrations'). */
const DETECTOR_LOCK_KEY = 7412014;
/** A report's reason is at most this long (the players' limit). */
const MAX_REASON = 2000;

export type TDetectorResult = { findings: number; filed: number; reportIds: string[]; cost?: number; incremental?: boolean };

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

/**
 * Runs every rule as of `at` (game time by default) and files what it finds. Incremental
 * (migration 0028): after a first full run, a run looks only at the pairs and referrers that the
 * trades since the last run's watermark (and what left the windows, and reports that stopped
 * blocking) touch (./queries.ts loadChangedPairs, loadChangedReferrers), so its cost follows the
 * new trades, not the pairs of a day's trades; the findings are the same, since a finding can only
 * appear when its rows or its blocking report change. A full run (`full`, no watermark yet, or a
 * clock that went back before it) reads the whole windows. `cost`: the rows the run read to
 * decide (new trades, candidate pairs and referrers, the rules' input rows).
 */
export async function runSelfDealingDetector(opts: { at?: Date; full?: boolean } = {}): Promise<TDetectorResult> {
  const at = opts.at ?? now();
  const db = await getDb();
  const since = opts.full ? undefined : await loadWatermark(db);
  const incremental = since !== undefined && since.getTime() <= at.getTime();
  let cost = 0;
  let referrers: string[] | undefined;
  let pairs: [string, string][] | undefined;
  if (incremental) {
    cost += await countTradesBetween(db, since, at);
    referrers = await loadChangedReferrers(db, since, at);
    pairs = await loadChangedPairs(db, since, at);
    // The subjects of reports that still block are looked at again, so that `findings` counts them
    // as a full run would (they are not filed: their report blocks them).
    const seenPairs = new Set(pairs.map((p) => `${p[0]}|${p[1]}`));
    for (const ruleKey of await loadBlockingReports(db, at)) {
      const [rule, key] = [ruleKey.slice(0, ruleKey.indexOf(':')), ruleKey.slice(ruleKey.indexOf(':') + 1)];
      if (rule === 'referral_ring' && key && !referrers.includes(key)) referrers.push(key);
      if (rule === 'wash_pair' && !seenPairs.has(key)) {
        const [a, b] = key.split('|');
        if (a && b) {
          seenPairs.add(key);
          pairs.push([a, b]);
        }
      }
    }
    cost += referrers.length + pairs.length;
  }
  const ringTrades = await loadRingTrades(db, at, referrers);
  const income = await loadReferralIncome(db, [...new Set(ringTrades.map((r) => r.referrerId))].sort(), at);
  const pairRows = await loadWashPairTrades(db, at, pairs);
  cost += ringTrades.length + income.length + pairRows.length;
  const findings = [...findReferralRings(ringTrades, income), ...findWashPairs(pairRows)];
  // Circular transfers between users plug in here once user-to-user transfers exist (README).
  const reportIds = await fileFindings(findings, at);
  // The watermark moves only forward (a test clock set back runs a full pass and keeps the later mark).
  if (!since || at.getTime() >= since.getTime()) await saveWatermark(db, at);
  return { findings: findings.length, filed: reportIds.length, reportIds, cost, incremental };
}
