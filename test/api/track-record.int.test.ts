/**
 * Track records (GET /api/users/{userId}/track-record, /trades) match the trades made, and wallet
 * entries name and link their market, ticker or pool in a fixed number of statements.
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as createMarketRoute } from '@/app/api/admin/markets/route';
import { POST as resolveRoute } from '@/app/api/admin/markets/[id]/resolve/route';
import { POST as adminPriceRoute } from '@/app/api/admin/perps/[ticker]/price/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { POST as sellRoute } from '@/app/api/markets/predictions/[id]/sell/route';
import { POST as closeRoute } from '@/app/api/markets/perps/[positionId]/close/route';
import { POST as openRoute } from '@/app/api/markets/perps/open/route';
import { POST as depositRoute } from '@/app/api/pools/[id]/deposit/route';
import { GET as balanceRoute } from '@/app/api/users/[userId]/balance/route';
import { GET as profileRoute } from '@/app/api/users/[userId]/profile/route';
import { GET as trackRecordRoute } from '@/app/api/users/[userId]/track-record/route';
import { GET as tradesRoute } from '@/app/api/users/[userId]/trades/route';
import { getDb, rowsOf } from '@/db/client';
import { marketPositions, type TUserRow } from '@/db/schema';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { loadReputationInputs } from '@/lib/reputation/inputs';
import { seedWorld } from '@/lib/world/seed/world';
import { seedPool, seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';
import { spyOnStatements } from '../db-spies';

beforeAll(async () => {
  await seedWorld(await getDb());
});
beforeEach(() => setLimiter(createMemoryLimiter()));

let admin: TUserRow;
const adminToken = async () => tokenFor((admin ??= await seedUser({ isAdmin: true, balance: '0' })));

const newMarket = async (text: string) => {
  const res = await call(createMarketRoute, '/api/admin/markets', {
    method: 'POST',
    token: await adminToken(),
    body: { text, resolutionDate: new Date(Date.now() + 7 * 86_400_000).toISOString(), liquidity: 1000 },
  });
  expect(res.status).toBe(200);
  return res.body.market as { id: string; text: string };
};
const post = async (handler: Parameters<typeof call>[0], path: string, user: TUserRow, params: Record<string, string>, body: unknown) => {
  const res = await call(handler, path, { method: 'POST', token: await tokenFor(user), params, body });
  expect(res.status).toBe(200);
  return res.body;
};
const trackRecord = (userId: string) => call(trackRecordRoute, `/api/users/${userId}/track-record`, { params: { userId } });
const tradesOf = (userId: string, query: Record<string, string | number> = {}) => call(tradesRoute, `/api/users/${userId}/trades`, { params: { userId }, query });

describe('GET /api/users/{userId}/track-record and /trades', () => {
  it('shows the open positions, realized PnL, trades and calibration of the trades made', async () => {
    const user = await seedUser({ balance: '5000' });
    const won = await newMarket('Will the track record count this winning question?');
    const open = await newMarket('Will the track record list this open question?');
    await post(buyRoute, `/api/markets/predictions/${won.id}/buy`, user, { id: won.id }, { outcome: 'YES', amount: 40 });
    await post(buyRoute, `/api/markets/predictions/${won.id}/buy`, user, { id: won.id }, { outcome: 'YES', amount: 60 });
    await post(buyRoute, `/api/markets/predictions/${open.id}/buy`, user, { id: open.id }, { outcome: 'NO', amount: 25 });
    await post(sellRoute, `/api/markets/predictions/${open.id}/sell`, user, { id: open.id }, { outcome: 'NO', shares: 5 });
    await call(adminPriceRoute, '/api/admin/perps/SOLR/price', { method: 'POST', token: await adminToken(), params: { ticker: 'SOLR' }, body: { price: 50 } });
    const closed = (await post(openRoute, '/api/markets/perps/open', user, {}, { ticker: 'SOLR', side: 'long', size: 200, leverage: 4 })).position;
    const closeRes = await post(closeRoute, `/api/markets/perps/${closed.id}/close`, user, { positionId: closed.id }, undefined);
    const held = (await post(openRoute, '/api/markets/perps/open', user, {}, { ticker: 'SOLR', side: 'short', size: 100, leverage: 2 })).position;
    const resolved = await call(resolveRoute, `/api/admin/markets/${won.id}/resolve`, { method: 'POST', token: await adminToken(), params: { id: won.id }, body: { outcome: 'YES' } });
    expect(resolved.status).toBe(200);

    const res = await trackRecord(user.username);
    expect(res.status).toBe(200);
    const tr = res.body;
    expect(tr.userId).toBe(user.id);
    expect(tr.openPositions.predictions.map((p: { marketId: string; side: string }) => [p.marketId, p.side])).toEqual([[open.id, 'NO']]);
    expect(tr.openPositions.perps.map((p: { id: string }) => p.id)).toEqual([held.id]);
    // 4 prediction trades, 3 perp trades: the profile's count of trades, and the history's.
    expect(tr.trades).toEqual({ total: 7, predictions: 4, perps: 3 });
    const profile = await call(profileRoute, `/api/users/${user.id}/profile`, { params: { userId: user.id } });
    expect(profile.body.user.stats.tradesCount).toBe(tr.trades.total);
    // Realized: the settled and sold prediction positions, the closed perp's net PnL.
    const db = await getDb();
    const positions = await db.select().from(marketPositions).where(eq(marketPositions.userId, user.id));
    const predRealized = positions.reduce((s, p) => s + Number(p.realizedPnL), 0);
    expect(tr.realizedPnL.predictions).toBeCloseTo(predRealized, 6);
    expect(typeof closeRes.netPnL).toBe('number');
    // The one definition (lib/equity): a fee is realized when paid, so the open short's opening
    // fee counts beside the closed perp's net PnL; what is open counts as unrealized.
    expect(typeof held.openFee).toBe('number');
    expect(tr.realizedPnL.perps).toBeCloseTo(closeRes.netPnL - held.openFee, 6);
    expect(tr.realizedPnL.total).toBeCloseTo(tr.realizedPnL.predictions + tr.realizedPnL.perps + tr.realizedPnL.pools, 6);
    expect(tr.pnl.total).toBeCloseTo(tr.realizedPnL.total + tr.unrealizedPnL, 6);
    expect(tr.resolvedMarkets).toBe(1);
    // Calibration: one resolved question; the forecast the two YES buys implied, against YES.
    const [f] = rowsOf<{ p: string }>(
      await db.execute(sql`select sum(amount * (1 + price) / 2) / sum(amount) as p from trades where user_id = ${user.id} and market_id = ${won.id}`),
    );
    const brier = (1 - Number(f!.p)) ** 2;
    expect(tr.calibration.resolvedForecasts).toBe(1);
    expect(tr.calibration.brier).toBeCloseTo(brier, 9);
    expect((await loadReputationInputs(db, [user.id])).get(user.id)!.brier).toBeCloseTo(tr.calibration.brier, 12);
    expect(tr.calibration.buckets).toHaveLength(5);
    const filled = tr.calibration.buckets.filter((b: { forecasts: number }) => b.forecasts > 0);
    expect(filled).toHaveLength(1);
    expect(filled[0]).toMatchObject({ outcomeRate: 1 });
    expect(filled[0].meanForecast).toBeCloseTo(Number(f!.p), 5);

    // The history: every trade once, newest first, by page; a type filter.
    const page1 = await tradesOf(user.id, { limit: 4 });
    const page2 = await tradesOf(user.id, { limit: 4, page: 2 });
    expect(page1.status).toBe(200);
    expect(page1.body.pagination).toEqual({ page: 1, limit: 4, total: 7, pages: 2 });
    const ids = [...page1.body.trades, ...page2.body.trades].map((t: { id: string }) => t.id);
    expect(new Set(ids).size).toBe(7);
    const times = [...page1.body.trades, ...page2.body.trades].map((t: { createdAt: string }) => t.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const perps = await tradesOf(user.username, { type: 'perp' });
    expect(perps.body.trades.map((t: { action: string }) => t.action).sort()).toEqual(['close', 'open', 'open']);
  });

  it('answers an account without trades, 404 for an unknown user and 400 for bad paging', async () => {
    const quiet = await seedUser();
    const res = await trackRecord(quiet.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ trades: { total: 0 }, realizedPnL: { total: 0 }, calibration: { brier: null, resolvedForecasts: 0 } });
    expect((await tradesOf(quiet.id)).body).toMatchObject({ trades: [], pagination: { total: 0, pages: 0 } });
    expect((await trackRecord('no-such-user')).status).toBe(404);
    expect((await tradesOf('no-such-user')).body.error.code).toBe('USER_NOT_FOUND');
    expect((await tradesOf(quiet.id, { limit: 0 })).status).toBe(400);
    expect((await tradesOf(quiet.id, { page: 'x' })).status).toBe(400);
  });
});

describe('GET /api/users/{userId}/balance: wallet links', () => {
  it('names and links the market, the ticker and the pool of each entry, in the same statements for 2 or 11 rows', async () => {
    const user = await seedUser({ balance: '5000' });
    const m = await newMarket('Will the wallet link this question to its market?');
    for (let i = 0; i < 8; i++) await post(buyRoute, `/api/markets/predictions/${m.id}/buy`, user, { id: m.id }, { outcome: 'YES', amount: 5 });
    await call(adminPriceRoute, '/api/admin/perps/KLDR/price', { method: 'POST', token: await adminToken(), params: { ticker: 'KLDR' }, body: { price: 20 } });
    await post(openRoute, '/api/markets/perps/open', user, {}, { ticker: 'KLDR', side: 'long', size: 100, leverage: 10 });
    const { pool } = await seedPool({ seed: '10000' });
    await post(depositRoute, `/api/pools/${pool.id}/deposit`, user, { id: pool.id }, { amount: 100 });

    const token = await tokenFor(user);
    const res = await call(balanceRoute, `/api/users/${user.id}/balance`, { token, params: { userId: user.id } });
    expect(res.status).toBe(200);
    const byType = (type: string) => res.body.transactions.find((t: { type: string }) => t.type === type);
    expect(byType('pred_buy')).toMatchObject({ subject: m.text, link: `/markets/${m.id}`, referenceType: 'market' });
    expect(byType('perp_open')).toMatchObject({ subject: 'KLDR long 10x', link: '/perps/KLDR' });
    expect(byType('pool_deposit')).toMatchObject({ subject: pool.name, link: `/pools/${pool.id}` });
    expect(byType('deposit')).toMatchObject({ subject: null, link: null });

    const count = async (limit: number) => {
      const spies = await spyOnStatements();
      const page = await call(balanceRoute, `/api/users/${user.id}/balance`, { token, params: { userId: user.id }, query: { limit } });
      expect(page.body.transactions).toHaveLength(limit);
      const n = spies.selectCalls().length + spies.execCalls().length;
      spies.restore();
      return n;
    };
    const small = await count(2);
    expect(await count(11)).toBe(small);
  });
});
