/**
 * The tick's steps cost what changed, not the number of players or positions (migration 0028):
 * each step run twice with nothing new examines nothing the second time, and one change costs
 * O(1). Rows are counted, never time.
 *   - alerts: liquidation warnings and their reset are found through index ranges on their
 *     thresholds (only the positions the mark crossed are read);
 *   - funding notices: only positions whose 5% threshold the period's index crossed are read;
 *   - the self-dealing detector: incremental from a watermark (new trades and the pairs they
 *     touch), with the same findings as a full run;
 *   - leagues: the daily close in batches with a cursor, nothing once the day is closed.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as adminPriceRoute } from '@/app/api/admin/perps/[ticker]/price/route';
import { POST as openRoute } from '@/app/api/markets/perps/open/route';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { equitySnapshots, leagueCloseProgress, perpMarkets, perpPositions, type TUserRow } from '@/db/schema';
import { runSelfDealingDetector } from '@/lib/admin/detector/run';
import { callerOfUser } from '@/lib/auth/caller';
import { now, resetClock, setFixedTime } from '@/lib/clock/clock';
import { runLeagueStep } from '@/lib/leagues/service/seasons';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { createMarket } from '@/lib/markets/service/create-market';
import { sellShares } from '@/lib/markets/service/sell-shares';
import { markAtRatio } from '@/lib/notifications/alerts-math';
import { warnNearLiquidation } from '@/lib/notifications/trading';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { MAINTENANCE_RATE } from '@/lib/perps/math';
import { payDueFunding } from '@/lib/perps/service/funding';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';

beforeAll(async () => {
  await seedWorld(await getDb());
});
beforeEach(() => setLimiter(createMemoryLimiter()));
afterEach(() => resetClock());

let admin: TUserRow;
const setPrice = async (ticker: string, price: number) => {
  const res = await call(adminPriceRoute, `/api/admin/perps/${ticker}/price`, {
    method: 'POST',
    token: await tokenFor((admin ??= await seedUser({ isAdmin: true, balance: '0' }))),
    params: { ticker },
    body: { price },
  });
  expect(res.status).toBe(200);
};
const open = async (user: TUserRow, body: Record<string, unknown>) => {
  const res = await call(openRoute, '/api/markets/perps/open', { method: 'POST', token: await tokenFor(user), body });
  expect(res.status).toBe(200);
  return res.body.position as { id: string };
};
const positionRow = async (id: string) => {
  const [p] = await (await getDb()).select().from(perpPositions).where(eq(perpPositions.id, id));
  return p!;
};
const markAt = async (id: string, ratio: number) => {
  const p = await positionRow(id);
  const mark = markAtRatio(
    { maintenanceRate: MAINTENANCE_RATE.toNumber(), side: p.side, units: Number(p.units), size: Number(p.size), margin: Number(p.margin), liquidationPrice: Number(p.liquidationPrice) },
    ratio,
  );
  return Math.round(mark * 1e4) / 1e4;
};
const warn = () => withTransaction((tx) => warnNearLiquidation(tx, now(), MAINTENANCE_RATE.toFixed()));
const openCount = async () => {
  const [r] = rowsOf<{ n: string }>(await (await getDb()).execute(sql`select count(*) as n from perp_positions where status = 'open'`));
  return Number(r!.n);
};

describe('alerts: liquidation warnings through the thresholds index', () => {
  it('examines no position when the mark crossed no threshold, one when it crossed one, none again after', async () => {
    await setPrice('HELX', 100);
    const users_ = await Promise.all([1, 2, 3, 4].map(() => seedUser({ balance: '10000' })));
    const near = await open(users_[0]!, { ticker: 'HELX', side: 'long', size: 1000, leverage: 10 });
    for (const u of users_.slice(1)) await open(u, { ticker: 'HELX', side: 'long', size: 500, leverage: 2 });
    await open(users_[1]!, { ticker: 'HELX', side: 'short', size: 500, leverage: 2 });
    expect(await openCount()).toBeGreaterThanOrEqual(5);
    // Nothing near its threshold: nothing read, twice.
    expect(await warn()).toEqual({ warned: 0, reset: 0, examined: 0 });
    expect(await warn()).toEqual({ warned: 0, reset: 0, examined: 0 });
    // The mark crosses the 10x long's warning threshold only: that one position is read and warned.
    await setPrice('HELX', await markAt(near.id, 0.2));
    expect(await warn()).toEqual({ warned: 1, reset: 0, examined: 1 });
    // Warned, and not recovered: it is in neither range any more.
    expect(await warn()).toEqual({ warned: 0, reset: 0, examined: 0 });
    // Back above half its buffer: read once and reset; then nothing.
    await setPrice('HELX', 100);
    expect(await warn()).toEqual({ warned: 0, reset: 1, examined: 1 });
    expect(await warn()).toEqual({ warned: 0, reset: 0, examined: 0 });
  });
});

describe('funding notices through the crossed thresholds', () => {
  it('reads no position while none has accrued 5% of its collateral since its base', async () => {
    const db = await getDb();
    await payDueFunding(now());
    await setPrice('NEXA', 160);
    const user = await seedUser({ balance: '30000' });
    await open(user, { ticker: 'NEXA', side: 'long', size: 20000, leverage: 20 });
    const [m] = await db.select().from(perpMarkets).where(eq(perpMarkets.ticker, 'NEXA'));
    const next = (k: number) => new Date(new Date(m!.lastFundingAt).getTime() + k * 8 * 3_600_000 + 60_000);
    // The first period accrues well under 5%: no candidate is read.
    const first = await payDueFunding(next(1));
    expect(first.periods).toBe(1);
    expect(first.noticeCandidates).toBe(0);
    // Until the notice: every candidate read is the one position (or none), never every open one.
    let k = 1;
    let noticed = 0;
    while (noticed === 0 && k < 30) {
      const r = await payDueFunding(next(++k));
      expect(r.noticeCandidates ?? 0).toBeLessThanOrEqual(1);
      noticed += r.fundingNotices ?? 0;
    }
    expect(noticed).toBe(1);
    // The notice moved the position's base: the next period reads nothing.
    const after = await payDueFunding(next(++k));
    expect(after.noticeCandidates).toBe(0);
    const [row] = await db.select().from(perpPositions).where(eq(perpPositions.userId, user.id));
    expect(row!.fundingNoticedIndex).not.toBeNull();
    await setPrice('NEXA', 100);
  });
});

const HOUR = 3_600_000;
const MINUTE = 60_000;
const BASE = Math.floor(Date.now() / HOUR) * HOUR + 30 * 24 * HOUR;
const at = (offsetMs: number) => new Date(BASE + offsetMs);

describe('self-dealing detector: incremental from its watermark', () => {
  it('costs nothing with no new trade, O(1) for one, and files a wash pair as a full run finds it', async () => {
    setFixedTime(at(-2 * 24 * HOUR));
    const market = await createMarket({ caller: null, text: 'A question for the incremental detector', resolutionDate: at(30 * 24 * HOUR) });
    const p = await seedUser({ balance: '5000' });
    const q = await seedUser({ balance: '5000' });
    const full = await runSelfDealingDetector({ at: at(-12 * HOUR), full: true });
    expect(full.incremental).toBe(false);
    const quiet = await runSelfDealingDetector({ at: at(-11 * HOUR) });
    expect(quiet).toMatchObject({ incremental: true, cost: 0, findings: 0 });
    // One trade: the trade and nothing else (no partner within 10 minutes).
    setFixedTime(at(-11 * HOUR + MINUTE));
    await buyShares({ caller: callerOfUser(p), marketId: market.id, outcome: 'YES', amount: '10' });
    const one = await runSelfDealingDetector({ at: at(-10 * HOUR - 30 * MINUTE) });
    expect(one.incremental).toBe(true);
    expect(one.cost).toBe(1);
    // A wash pattern over the next hours, the detector running every hour as the tick does.
    let filed = 0;
    for (let i = 0; i < 4; i++) {
      const t0 = -10 * HOUR + i * HOUR;
      setFixedTime(at(t0));
      const bought = await buyShares({ caller: callerOfUser(q), marketId: market.id, outcome: 'YES', amount: '20' });
      setFixedTime(at(t0 + MINUTE));
      await buyShares({ caller: callerOfUser(p), marketId: market.id, outcome: 'YES', amount: '400' });
      setFixedTime(at(t0 + 2 * MINUTE));
      await sellShares({ caller: callerOfUser(q), marketId: market.id, outcome: 'YES', shares: String(bought.shares) });
      const r = await runSelfDealingDetector({ at: at(t0 + 30 * MINUTE) });
      expect(r.incremental).toBe(true);
      // Three new trades, one pair, and the pair's paired trades: bounded by the hour's trades, not the day's.
      expect(r.cost).toBeLessThanOrEqual(3 + 1 + 4 * 3);
      filed += r.filed;
    }
    expect(filed).toBe(1);
    // A full run finds the same (and files nothing: the report blocks it).
    const check = await runSelfDealingDetector({ at: at(-6 * HOUR), full: true });
    expect(check).toMatchObject({ findings: 1, filed: 0 });
    // Nothing new: only the blocked pair is looked at again (so `findings` counts it as a full run does).
    const again = await runSelfDealingDetector({ at: at(-5 * HOUR) });
    expect(again).toMatchObject({ incremental: true, findings: 1, filed: 0 });
    expect(again.cost).toBeLessThanOrEqual(1 + 8);
  });
});

describe('leagues: the daily close in batches', () => {
  it('closes the day batch by batch with a cursor, then reads nothing on the next ticks', async () => {
    const db = await getDb();
    // A day no other test closes.
    const day0 = new Date(Date.UTC(2031, 0, 7, 0, 5));
    const listed = rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from standings where listed`))[0]!.n;
    const total = Number(listed);
    expect(total).toBeGreaterThan(0);
    const batch = Math.max(1, Math.ceil(total / 3));
    let snapshots = 0;
    let ticks = 0;
    let done = false;
    for (let i = 0; i < 10 && !done; i++) {
      const r = await runLeagueStep(new Date(day0.getTime() + i * MINUTE), { batch });
      expect(r.cost).toBeLessThanOrEqual(2 * batch + total);
      snapshots += r.snapshots;
      ticks++;
      const [pr] = await db.select().from(leagueCloseProgress).where(eq(leagueCloseProgress.day, '2031-01-06'));
      done = !!pr?.done;
    }
    expect(ticks).toBeGreaterThanOrEqual(3);
    expect(done).toBe(true);
    const [{ n }] = rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from ${equitySnapshots} where day = '2031-01-06'`)) as [{ n: string }];
    expect(Number(n)).toBe(total);
    expect(snapshots).toBe(total);
    // The new season's seating, if the close started one, goes on a batch a tick (stage, seat,
    // clean: at most `batch` accounts each tick) until it is done.
    let minute = 20;
    for (let r = await runLeagueStep(new Date(day0.getTime() + minute * MINUTE), { batch }); r.cost > 0; ) {
      expect(r.snapshots).toBe(0);
      expect(r.cost).toBeLessThanOrEqual(batch);
      expect(minute).toBeLessThan(20 + 3 * 4);
      r = await runLeagueStep(new Date(day0.getTime() + ++minute * MINUTE), { batch });
    }
    // The day is closed and the seating done: a quiet tick reads and writes nothing.
    const quiet = await runLeagueStep(new Date(day0.getTime() + ++minute * MINUTE), { batch });
    expect(quiet).toMatchObject({ snapshots: 0, seasonsClosed: 0, seated: 0, cost: 0 });
  });
});

describe("the tick reports each step's cost", () => {
  it('reports each step\'s cost in its answer and keeps it with its summary', async () => {
    const { lastTickCosts, readGameClock, runGameTick } = await import('@/lib/game/tick');
    const result = await runGameTick({});
    expect(result).toMatchObject({ costs: lastTickCosts() });
    const costs = lastTickCosts();
    expect(costs).toEqual({ funding: expect.any(Number), alerts: expect.any(Number), selfDealing: expect.any(Number), standings: expect.any(Number), leagues: expect.any(Number) });
    expect((await readGameClock())?.lastSummary).toMatchObject({ costs });
  });
});
