/**
 * P&L over time (issue 35 "Analytics"), through the real handlers, on PGlite and PostgreSQL: a
 * player trades predictions, a perp and a pool; daily closes are written (the leagues' close,
 * insertDailySnapshots) with P&L by product equal to lib/equity's numbers at that moment and
 * summing to the P&L exactly; GET /api/users/{userId}/pnl-history answers the closes in each
 * range plus a live point, the same series over A2A; equity figures only for the owner and
 * administrators; a banned (unlisted) account's series is 404 to others.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as a2aRoute } from '@/app/api/a2a/route';
import { POST as adminPriceRoute } from '@/app/api/admin/perps/[ticker]/price/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { POST as sellRoute } from '@/app/api/markets/predictions/[id]/sell/route';
import { POST as openRoute } from '@/app/api/markets/perps/open/route';
import { POST as depositRoute } from '@/app/api/pools/[id]/deposit/route';
import { GET as balanceRoute } from '@/app/api/users/[userId]/balance/route';
import { GET as historyRoute } from '@/app/api/users/[userId]/pnl-history/route';
import { getDb } from '@/db/client';
import { equitySnapshots, users, type TUserRow } from '@/db/schema';
import { setFixedTime } from '@/lib/clock/clock';
import { readAccountNumbers } from '@/lib/equity/service';
import { LEDGER_CLASS } from '@/lib/ledger/account-numbers';
import { insertDailySnapshots } from '@/lib/leagues/queries';
import { createMarket } from '@/lib/markets/service/create-market';
import { dec } from '@/lib/money/decimal';
import { setLimiter } from '@/lib/operations/rate-limit';
import { seedWorld } from '@/lib/world/seed/world';
import { seedPool, seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';

const DAY = 86_400_000;
const START = Date.UTC(2027, 5, 7, 0, 0);
const at = (day: number, minutes = 0) => new Date(START + day * DAY + minutes * 60_000);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

let alice: TUserRow;
let bob: TUserRow;
let admin: TUserRow;
let marketId: string;

type TPoint = { at: string; equity: string | null; pnl: string; pnlPredictions: string | null; pnlPerps: string | null; pnlPools: string | null; isLive: boolean };

const history = async (who: TUserRow | null, userId: string, range?: string) =>
  call(historyRoute, `/api/users/${userId}/pnl-history`, { token: who ? await tokenFor(who) : undefined, params: { userId }, query: range ? { range } : {} });

const post = async (handler: Parameters<typeof call>[0], path: string, user: TUserRow, params: Record<string, string>, body: unknown) => {
  const res = await call(handler, path, { method: 'POST', token: await tokenFor(user), params, body });
  expect(res.status).toBe(200);
  return res.body;
};

/** The close of the day before `d` at 00:05 of `d`, and lib/equity's numbers of alice at that moment. */
const closeDay = async (d: number) => {
  const moment = at(d, 5);
  setFixedTime(moment);
  const numbers = await readAccountNumbers(alice.id);
  await insertDailySnapshots(await getDb(), dayOf(at(d - 1)), moment);
  return numbers!;
};

const sumProducts = (p: Pick<TPoint, 'pnlPredictions' | 'pnlPerps' | 'pnlPools'>) => dec(p.pnlPredictions!).plus(p.pnlPerps!).plus(p.pnlPools!);

const closes: Awaited<ReturnType<typeof closeDay>>[] = [];

beforeAll(async () => {
  setFixedTime(at(0, 60));
  await seedWorld(await getDb());
  alice = await seedUser({ balance: '5000' });
  bob = await seedUser({ balance: '100' });
  admin = await seedUser({ isAdmin: true, balance: '0' });
  marketId = (await createMarket({ caller: null, text: 'Will the P&L history test chart this question?', resolutionDate: at(60), liquidity: 10000 })).id;

  // Day 0: a prediction, a perp and a pool stake; closed at 00:05 of day 1.
  setFixedTime(at(0, 120));
  await post(buyRoute, `/api/markets/predictions/${marketId}/buy`, alice, { id: marketId }, { outcome: 'YES', amount: 200 });
  await call(adminPriceRoute, '/api/admin/perps/SOLR/price', { method: 'POST', token: await tokenFor(admin), params: { ticker: 'SOLR' }, body: { price: 50 } });
  await post(openRoute, '/api/markets/perps/open', alice, {}, { ticker: 'SOLR', side: 'long', size: 300, leverage: 3 });
  const { pool } = await seedPool({ seed: '10000' });
  await post(depositRoute, `/api/pools/${pool.id}/deposit`, alice, { id: pool.id }, { amount: 150 });
  closes.push(await closeDay(1));

  // Day 1: the mark moves, part of the shares are sold; closed at 00:05 of day 2.
  setFixedTime(at(1, 600));
  await call(adminPriceRoute, '/api/admin/perps/SOLR/price', { method: 'POST', token: await tokenFor(admin), params: { ticker: 'SOLR' }, body: { price: 56 } });
  await post(sellRoute, `/api/markets/predictions/${marketId}/sell`, alice, { id: marketId }, { outcome: 'YES', shares: 50 });
  closes.push(await closeDay(2));

  // Day 2 midday: another buy, then the series is read.
  setFixedTime(at(2, 720));
  await post(buyRoute, `/api/markets/predictions/${marketId}/buy`, alice, { id: marketId }, { outcome: 'NO', amount: 80 });
});
beforeEach(() => setLimiter(pinnedLimiter()));
afterAll(() => setFixedTime(undefined));

describe('daily closes by product', () => {
  it('writes per-product P&L equal to lib/equity at the close, summing to the P&L exactly', async () => {
    const rows = await (await getDb()).select().from(equitySnapshots).where(eq(equitySnapshots.userId, alice.id)).orderBy(equitySnapshots.day);
    expect(rows.map((r) => r.day)).toEqual([dayOf(at(0)), dayOf(at(1))]);
    for (const [i, r] of rows.entries()) {
      const n = closes[i]!;
      expect(dec(r.equity).eq(n.equity)).toBe(true);
      expect(dec(r.pnl!).eq(n.pnl)).toBe(true);
      expect(dec(r.pnlPredictions!).eq(n.products.predictions.pnl)).toBe(true);
      expect(dec(r.pnlPerps!).eq(n.products.perps.pnl)).toBe(true);
      expect(dec(r.pnlPools!).eq(n.products.pools.pnl)).toBe(true);
      expect(dec(r.pnlPredictions!).plus(r.pnlPerps!).plus(r.pnlPools!).eq(r.pnl!)).toBe(true);
    }
    // Each product moved: the trades are in the split, not only in the total.
    expect(dec(rows[0]!.pnlPerps!).isZero()).toBe(false);
    expect(dec(rows[0]!.pnlPredictions!).isZero()).toBe(false);
  });
});

describe('GET /api/users/{userId}/pnl-history', () => {
  it('answers the closes in range and a live point, each split by product summing to its P&L', async () => {
    const res = await history(alice, alice.id, 'all');
    expect(res.status).toBe(200);
    const points = res.body.points as TPoint[];
    expect(points).toHaveLength(3);
    expect(points.map((p) => p.isLive)).toEqual([false, false, true]);
    for (const p of points) expect(sumProducts(p).eq(p.pnl)).toBe(true);
    const live = (await readAccountNumbers(alice.id))!;
    expect(points[2]).toMatchObject({ at: at(2, 720).toISOString(), equity: live.equity, pnl: live.pnl });
    // all: the P&L since the start, its ROI on the contributions, products summing to it.
    const s = res.body.summary;
    expect(dec(s.pnl).eq(live.pnl)).toBe(true);
    expect(dec(s.roi).eq(live.roi)).toBe(true);
    expect(dec(s.products.predictions).plus(s.products.perps).plus(s.products.pools).eq(s.pnl)).toBe(true);
    expect(s.endEquity).toBe(live.equity);
    expect(dec(s.maxDrawdown.fraction).gte(0) && dec(s.maxDrawdown.fraction).lte(1)).toBe(true);
    expect(dec(s.maxDrawdown.amount).gte(0)).toBe(true);
    expect(res.body.showsEquity).toBe(true);
  });

  it('filters by range: day is yesterday’s close and now; week and month hold both closes; the default is month', async () => {
    const day = await history(alice, alice.id, 'day');
    expect(day.status).toBe(200);
    expect(day.body.points).toHaveLength(2);
    expect(day.body.points[0].pnl).toBe(dec(closes[1]!.pnl).toFixed());
    // The day's P&L is now − yesterday's close.
    expect(dec(day.body.summary.pnl).eq(dec(day.body.points[1].pnl).minus(day.body.points[0].pnl))).toBe(true);
    expect((await history(alice, alice.id, 'week')).body.points).toHaveLength(3);
    const month = await history(alice, alice.id);
    expect(month.body.range).toBe('month');
    expect(month.body.points).toHaveLength(3);
    expect((await history(alice, alice.id, 'year')).status).toBe(400);
    // Ten days on, the week starts at the last close before it: that close and now.
    setFixedTime(at(12));
    try {
      expect((await history(alice, alice.id, 'week')).body.points).toHaveLength(2);
    } finally {
      setFixedTime(at(2, 720));
    }
  });

  it('shows P&L to anyone, equity only to the owner and administrators', async () => {
    const mine = await history(alice, alice.id, 'all');
    for (const viewer of [bob, null]) {
      const res = await history(viewer, alice.username, 'all');
      expect(res.status).toBe(200);
      expect(res.body.showsEquity).toBe(false);
      expect(res.body.points.map((p: TPoint) => p.pnl)).toEqual(mine.body.points.map((p: TPoint) => p.pnl));
      expect(res.body.points.every((p: TPoint) => p.equity === null)).toBe(true);
      expect(res.body.summary).toMatchObject({ startEquity: null, endEquity: null, maxDrawdown: { amount: null } });
    }
    expect((await history(admin, alice.id, 'all')).body.showsEquity).toBe(true);
    expect((await history(bob, 'no-such-user')).status).toBe(404);
  });

  it('a banned (unlisted) account’s series is 404 to others but answers its owner and administrators', async () => {
    const hidden = await seedUser({ balance: '300' });
    const db = await getDb();
    await db.update(users).set({ isBanned: true }).where(eq(users.id, hidden.id));
    const other = await history(bob, hidden.id, 'week');
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('USER_NOT_FOUND');
    expect((await history(null, hidden.id, 'week')).status).toBe(404);
    expect((await history(admin, hidden.id, 'week')).status).toBe(200);
    const own = await call(historyRoute, `/api/users/${hidden.id}/pnl-history`, { token: await tokenFor({ ...hidden, isBanned: true }), params: { userId: hidden.id } });
    // A banned caller may still read (a GET): its own series answers, equity included.
    expect(own.status).toBe(200);
    expect(own.body.showsEquity).toBe(true);
  });

  it('answers the same series over A2A (a2a.getPnlHistory)', async () => {
    const rest = await history(alice, alice.id, 'week');
    const res = await call(a2aRoute, '/api/a2a', {
      method: 'POST',
      token: await tokenFor(alice),
      body: { jsonrpc: '2.0', id: 1, method: 'a2a.getPnlHistory', params: { range: 'week' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.error).toBeUndefined();
    expect(res.body.result.points).toEqual(rest.body.points);
    expect(res.body.result.summary).toEqual(rest.body.summary);
  });
});

describe('wallet lines', () => {
  it('every trade line of the wallet names its market question, ticker or pool', async () => {
    const res = await call(balanceRoute, `/api/users/${alice.id}/balance`, { token: await tokenFor(alice), params: { userId: alice.id }, query: { limit: 50 } });
    expect(res.status).toBe(200);
    type TLine = { type: keyof typeof LEDGER_CLASS; description: string; subject: string | null };
    const trades = (res.body.transactions as TLine[]).filter((t) => LEDGER_CLASS[t.type] !== 'contribution');
    expect(new Set(trades.map((t) => t.type))).toEqual(new Set(['pred_buy', 'pred_sell', 'perp_open', 'pool_deposit']));
    for (const t of trades) {
      expect(t.subject, t.type).toBeTruthy();
      const name = t.subject!.split(' ')[0]!; // a perp's subject is "SOLR long 3x": its ticker
      expect(t.description.includes(t.subject!) || t.description.includes(name), `${t.type}: ${t.description}`).toBe(true);
    }
    expect(trades.filter((t) => t.type === 'pred_buy').every((t) => t.description.includes('Will the P&L history test chart this question?'))).toBe(true);
  });
});
