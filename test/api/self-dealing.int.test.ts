/**
 * The self-dealing detector (lib/admin/detector) on a staged world: a referral ring (a referrer
 * and three accounts made within 48 h of each other, trading opposite sides of one question
 * through the real buy service, so referral fees flow through the ledger) is filed once as a
 * system report with its evidence; a second run files nothing; a normal pair of players, and a
 * referrer whose referrals came days apart, file nothing. A wash-trading pair is filed with the
 * account that gained as its subject. The tick's step runs the detector at most once an hour.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as reportDetailRoute, POST as reportActionRoute } from '@/app/api/admin/reports/[reportId]/route';
import { GET as reportsRoute } from '@/app/api/admin/reports/route';
import { getDb } from '@/db/client';
import { balanceTransactions, reports, trades, users, type TUserRow } from '@/db/schema';
import { runSelfDealingDetector } from '@/lib/admin/detector/run';
import { callerOfUser } from '@/lib/auth/caller';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { createRng } from '@/lib/game/rng';
import { resetSelfDealingSchedule, runSelfDealingStep } from '@/lib/game/steps/self-dealing';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { createMarket } from '@/lib/markets/service/create-market';
import { sellShares } from '@/lib/markets/service/sell-shares';
import { dec } from '@/lib/money/decimal';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** "Now" of the staged world: a whole hour, so the arithmetic below reads plainly. */
const BASE = Math.floor(Date.now() / HOUR) * HOUR;
const at = (offsetMs: number) => new Date(BASE + offsetMs);

let admin: TUserRow;

beforeAll(async () => {
  admin = await seedUser({ isAdmin: true });
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

afterEach(() => {
  resetClock();
});

/** A user created at game time `when`, referred by `referrer` when given. */
const userAt = async (when: Date, referrer?: TUserRow) => {
  setFixedTime(when);
  const u = await seedUser({ balance: '5000' });
  if (!referrer) return u;
  const [row] = await (await getDb()).update(users).set({ referredById: referrer.id }).where(eq(users.id, u.id)).returning();
  return row!;
};

const buy = async (who: TUserRow, marketId: string, outcome: 'YES' | 'NO', amount: string, when: Date) => {
  setFixedTime(when);
  return buyShares({ caller: callerOfUser(who), marketId, outcome, amount });
};

const systemReports = async (subjectIds: string[]) =>
  (await getDb())
    .select()
    .from(reports)
    .where(and(eq(reports.source, 'system'), inArray(reports.reportedUserId, subjectIds)));

describe('referral ring', () => {
  it('files exactly one system report with the evidence, none on a second run, none for a normal pair or spread-out referrals', async () => {
    const db = await getDb();
    setFixedTime(at(-20 * 24 * HOUR));
    const market = await createMarket({ caller: null, text: 'Will the ring be caught?', resolutionDate: at(30 * 24 * HOUR) });
    const other = await createMarket({ caller: null, text: 'An unrelated question', resolutionDate: at(30 * 24 * HOUR) });

    // The ring: one referrer, three accounts made within 30 hours of each other, trading both sides of one question.
    const referrer = await userAt(at(-20 * 24 * HOUR));
    const ring = [
      await userAt(at(-72 * HOUR), referrer),
      await userAt(at(-60 * HOUR), referrer),
      await userAt(at(-42 * HOUR), referrer),
    ];
    await buy(ring[0]!, market.id, 'YES', '200', at(-5 * HOUR));
    await buy(ring[1]!, market.id, 'NO', '200', at(-5 * HOUR + 3 * MINUTE));
    await buy(ring[2]!, market.id, 'YES', '100', at(-4 * HOUR));
    await buy(ring[1]!, market.id, 'NO', '50', at(-3 * HOUR));

    // A normal pair: no referrer, opposite sides of the same question twice.
    const x = await userAt(at(-10 * 24 * HOUR));
    const y = await userAt(at(-9 * 24 * HOUR));
    await buy(x, market.id, 'YES', '40', at(-2 * HOUR));
    await buy(y, market.id, 'NO', '40', at(-2 * HOUR + MINUTE));
    await buy(x, other.id, 'NO', '30', at(-HOUR));
    await buy(y, other.id, 'YES', '30', at(-HOUR + 2 * MINUTE));

    // A referrer whose three referrals came days apart (no cluster), all trading one question.
    const recruiter = await userAt(at(-25 * 24 * HOUR));
    for (const [i, days] of [12, 8, 4].entries()) {
      const r = await userAt(at(-days * 24 * HOUR), recruiter);
      await buy(r, other.id, i % 2 ? 'YES' : 'NO', '60', at(-3 * HOUR + i * MINUTE));
    }

    const first = await runSelfDealingDetector({ at: at(0) });
    expect(first).toMatchObject({ findings: 1, filed: 1 });
    const filed = await systemReports([referrer.id, ...ring.map((u) => u.id), x.id, y.id, recruiter.id]);
    expect(filed).toHaveLength(1);
    const report = filed[0]!;
    expect(report).toMatchObject({
      id: first.reportIds[0],
      reporterId: null,
      source: 'system',
      reportType: 'user',
      reportedUserId: referrer.id,
      reportedPostId: null,
      category: 'other',
      priority: 'medium',
      status: 'pending',
    });
    expect(report.reason.length).toBeGreaterThanOrEqual(10);
    expect(report.reason).toContain(`@${referrer.username}`);
    for (const u of ring) expect(report.reason).toContain(`@${u.username}`);
    expect(report.reason).toContain('opposite sides');

    // The evidence: the ring's trades and the referrer's referral-fee ledger rows, with their sums.
    const ringTrades = await db.select().from(trades).where(inArray(trades.userId, ring.map((u) => u.id)));
    const fees = await db
      .select()
      .from(balanceTransactions)
      .where(and(eq(balanceTransactions.userId, referrer.id), eq(balanceTransactions.type, 'referral_fee')));
    expect(ringTrades).toHaveLength(4);
    expect(fees).toHaveLength(4);
    const feeSum = fees.reduce((s, f) => s.plus(f.amount), dec(0));
    expect(feeSum.toFixed()).toBe(ringTrades.reduce((s, t) => s.plus(t.feeReferrer), dec(0)).toFixed());
    const details = report.details as any;
    expect(details).toMatchObject({ rule: 'referral_ring', key: referrer.id });
    expect([...details.accounts].sort()).toEqual([referrer.id, ...ring.map((u) => u.id)].sort());
    expect([...details.evidence.tradeIds].sort()).toEqual(ringTrades.map((t) => t.id).sort());
    expect([...details.evidence.ledgerIds].sort()).toEqual(fees.map((f) => f.id).sort());
    expect(details.evidence.marketIds).toEqual([market.id]);
    expect(details.evidence.oppositeSidesMarketIds).toEqual([market.id]);
    expect(details.evidence.signupSpanHours).toBe(30);
    expect(details.evidence.sums).toMatchObject({ trades: 4, volume: '550', referralFees: feeSum.toFixed(), referrerReferralIncome: feeSum.toFixed(), incomeShare: 1 });

    // A second run (an hour later) files nothing: the first report is still open.
    expect(await runSelfDealingDetector({ at: at(HOUR) })).toMatchObject({ findings: 1, filed: 0 });
    // Resolved, it still blocks for 24 h after it was filed; after that the pattern is filed again.
    const token = await tokenFor(admin);
    const resolved = await call(reportActionRoute, `/api/admin/reports/${report.id}`, {
      method: 'POST',
      token,
      params: { reportId: report.id },
      body: { action: 'dismiss', resolution: 'Friends who trade together' },
    });
    expect(resolved.status).toBe(200);
    expect((await runSelfDealingDetector({ at: at(23 * HOUR) })).filed).toBe(0);
    expect((await runSelfDealingDetector({ at: at(25 * HOUR) })).filed).toBe(1);
    expect(await systemReports([referrer.id])).toHaveLength(2);

    // The admin queue shows it as a system report, and the detail carries the findings.
    setFixedTime(at(25 * HOUR));
    const listed = await call(reportsRoute, '/api/admin/reports', { token, query: { source: 'system', reportedUserId: referrer.id } });
    expect(listed.body.reports.map((r: any) => r.id)).toContain(report.id);
    expect(listed.body.reports.every((r: any) => r.source === 'system' && r.reporter === null)).toBe(true);
    const detail = await call(reportDetailRoute, `/api/admin/reports/${report.id}`, { token, params: { reportId: report.id } });
    expect(detail.body.report.details).toMatchObject({ rule: 'referral_ring', evidence: { marketIds: [market.id] } });
  });

  it('does not file a ring whose fees are a small share of the referrer\'s referral income', async () => {
    setFixedTime(at(-20 * 24 * HOUR));
    const market = await createMarket({ caller: null, text: 'A popular referrer question', resolutionDate: at(30 * 24 * HOUR) });
    const side = await createMarket({ caller: null, text: 'Where the real referrals trade', resolutionDate: at(30 * 24 * HOUR) });
    const referrer = await userAt(at(-20 * 24 * HOUR));
    const ring = [await userAt(at(-50 * HOUR), referrer), await userAt(at(-40 * HOUR), referrer), await userAt(at(-30 * HOUR), referrer)];
    for (const [i, u] of ring.entries()) await buy(u, market.id, i % 2 ? 'NO' : 'YES', '10', at(-6 * HOUR + i * MINUTE));
    // An older referral trades far more: the three new accounts pay under half of the referrer's income.
    const big = await userAt(at(-15 * 24 * HOUR), referrer);
    await buy(big, side.id, 'YES', '1000', at(-5 * HOUR));
    const result = await runSelfDealingDetector({ at: at(0) });
    expect(result.filed).toBe(0);
    expect(await systemReports([referrer.id])).toHaveLength(0);
  });
});

describe('wash pair', () => {
  it('files a pair that moved one question in opposite directions 4 times within minutes, naming the account that gained', async () => {
    setFixedTime(at(-2 * 24 * HOUR));
    const market = await createMarket({ caller: null, text: 'A thin question to wash trade', resolutionDate: at(30 * 24 * HOUR) });
    const p = await userAt(at(-2 * 24 * HOUR));
    const q = await userAt(at(-2 * 24 * HOUR));
    // p pushes YES up with large buys; q buys YES cheap before each push and sells right after.
    for (let i = 0; i < 4; i++) {
      const t0 = -10 * HOUR + i * HOUR;
      const bought = await buy(q, market.id, 'YES', '20', at(t0));
      await buy(p, market.id, 'YES', '400', at(t0 + MINUTE));
      setFixedTime(at(t0 + 2 * MINUTE));
      await sellShares({ caller: callerOfUser(q), marketId: market.id, outcome: 'YES', shares: String(bought.shares) });
    }
    const result = await runSelfDealingDetector({ at: at(0) });
    expect(result.filed).toBe(1);
    const [report] = await systemReports([p.id, q.id]);
    expect(report).toMatchObject({ reportedUserId: q.id, category: 'other', source: 'system', status: 'pending' });
    const details = report!.details as any;
    expect(details.rule).toBe('wash_pair');
    expect([...details.accounts].sort()).toEqual([p.id, q.id].sort());
    // q's sells pair with p's buys (opposite directions within 10 minutes): 4 of each.
    expect(details.evidence.sums.pairedTrades).toEqual({ [p.id]: 4, [q.id]: 4 });
    expect(dec(details.evidence.sums.gainAtReferencePrice[q.id]).gt(details.evidence.sums.gainAtReferencePrice[p.id])).toBe(true);
    expect(report!.reason).toContain(`@${q.username}`);
    expect((await runSelfDealingDetector({ at: at(30 * MINUTE) })).filed).toBe(0);
  });
});

describe('the tick step', () => {
  it('runs the detector at most once an hour of game time', async () => {
    resetSelfDealingSchedule();
    const ctx = (t: number) => ({ at: at(t), rng: createRng('self-dealing-test'), deadline: performance.now() + 10_000, newEvents: [] });
    expect((await runSelfDealingStep(ctx(2 * 24 * HOUR))).ran).toBe(true);
    expect((await runSelfDealingStep(ctx(2 * 24 * HOUR + 59 * MINUTE))).ran).toBe(false);
    expect((await runSelfDealingStep(ctx(2 * 24 * HOUR + HOUR))).ran).toBe(true);
    // A spent budget skips the run without using up the hour.
    expect((await runSelfDealingStep({ ...ctx(2 * 24 * HOUR + 3 * HOUR), deadline: performance.now() - 1 })).ran).toBe(false);
    expect((await runSelfDealingStep(ctx(2 * 24 * HOUR + 3 * HOUR))).ran).toBe(true);
  });
});
