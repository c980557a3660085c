/**
 * Babylon's agents over our A2A (issue 33): the fields they read, by their names and in their
 * shapes (the reference client: lalalune/babylon src/types/a2a-responses.ts and its agents'
 * reads, e.g. getMarketData's `prices[0]`), and the trading calls they make — buyShares,
 * sellShares, openPosition, closePosition with the params they send — real and as dry runs (a
 * dry run writes nothing), on the same state REST reads, with a money call's Idempotency-Key.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as a2aRoute } from '@/app/api/a2a/route';
import { GET as balanceRoute } from '@/app/api/users/[userId]/balance/route';
import { GET as positionsRoute } from '@/app/api/markets/positions/[userId]/route';
import { GET as marketRoute } from '@/app/api/markets/predictions/[id]/route';
import { getDb, rowsOf } from '@/db/client';
import type { TUserRow } from '@/db/schema';
import { createApiKey } from '@/lib/api-keys/service';
import { callerOfUser } from '@/lib/auth/caller';
import { createMarket } from '@/lib/markets/service/create-market';
import { setLimiter } from '@/lib/operations/rate-limit';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';
import { expectLedgerChain } from '@/test/invariants';

type TRpc = { jsonrpc: '2.0'; id: string | number | null; result?: any; error?: { code: number; message: string; data?: any } };

const rpc = (method: string, params: unknown, token: string, headers: Record<string, string> = {}) =>
  call(a2aRoute, '/api/a2a', { method: 'POST', token, headers, body: { jsonrpc: '2.0', id: 1, method, params } });
const one = async (method: string, params: unknown, token: string) => {
  const res = await rpc(method, params, token);
  expect(res.status).toBe(200);
  return res.body as TRpc;
};
const ok = async (method: string, params: unknown, token: string) => {
  const answer = await one(method, params, token);
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result;
};

let ticker: string;
let marketId: string;

beforeAll(async () => {
  await seedWorld(await getDb());
  const [row] = rowsOf<{ ticker: string }>(await (await getDb()).execute(sql`select ticker from perp_markets order by ticker limit 1`));
  if (!row) throw new Error('the seeded world has no ticker');
  ticker = row.ticker;
  marketId = (await createMarket({ caller: null, text: 'Will Babylon agents trade here?', resolutionDate: new Date(Date.now() + 30 * 86_400_000), liquidity: 5000 })).id;
});
beforeEach(() => setLimiter(pinnedLimiter()));

const balanceOf = async (user: TUserRow, token: string) => (await call(balanceRoute, `/api/users/${user.id}/balance`, { token, params: { userId: user.id } })).body.balance as string;
const positionsOf = async (user: TUserRow, token: string) => {
  const { success: _s, ...rest } = (await call(positionsRoute, `/api/markets/positions/${user.id}`, { token, params: { userId: user.id } })).body;
  return rest;
};

describe("the fields Babylon's agents read", () => {
  it('getMarketData.prices is [yes, no] (prices[0] the YES price), the named form in pricesByOutcome; getMarketPrices is [{outcome, price}]', async () => {
    const token = await tokenFor(await seedUser());
    const rest = (await call(marketRoute, `/api/markets/predictions/${marketId}`, { params: { id: marketId } })).body.market;
    const data = await ok('a2a.getMarketData', { marketId }, token);
    expect(data.prices).toEqual([rest.yesPrice, rest.noPrice]);
    expect(data.prices[0]).toBe(rest.yesPrice);
    expect(data.pricesByOutcome).toEqual({ YES: rest.yesPrice, NO: rest.noPrice });
    expect(data).toMatchObject({ marketId, question: 'Will Babylon agents trade here?', outcomes: ['YES', 'NO'], resolved: false });
    const prices = await ok('a2a.getMarketPrices', { marketId }, token);
    expect(prices.prices).toEqual([
      { outcome: 'YES', price: rest.yesPrice },
      { outcome: 'NO', price: rest.noPrice },
    ]);
  });

  it('getBalance has balance and reputationPoints; getPositions and getUserWallet have marketPositions and perpPositions as Babylon reads them', async () => {
    const user = await seedUser({ balance: '1000' });
    const token = await tokenFor(user);
    await ok('a2a.buyShares', { marketId, outcome: 'YES', amount: 40 }, token);
    await ok('a2a.openPosition', { ticker, side: 'LONG', amount: 100, leverage: 2 }, token);

    const balance = await ok('a2a.getBalance', {}, token);
    expect(balance.balance).toBe(await balanceOf(user, token));
    expect(balance).toMatchObject({ reputationPoints: expect.any(Number), totalDeposited: expect.any(String), totalWithdrawn: expect.any(String), lifetimePnL: expect.any(String) });

    const positions = await ok('a2a.getPositions', { userId: user.id }, token);
    const rest = await positionsOf(user, token);
    expect(positions.marketPositions).toEqual(rest.predictions);
    expect(positions.perpPositions).toEqual(rest.perps);
    expect(positions.marketPositions).toHaveLength(1);
    expect(positions.marketPositions[0]).toMatchObject({
      id: expect.any(String),
      marketId,
      question: 'Will Babylon agents trade here?',
      side: 'YES',
      shares: expect.any(Number),
      avgPrice: expect.any(Number),
      currentPrice: expect.any(Number),
      unrealizedPnL: expect.any(Number),
    });
    expect(positions.perpPositions).toHaveLength(1);
    expect(positions.perpPositions[0]).toMatchObject({
      id: expect.any(String),
      ticker,
      side: 'long',
      size: 100,
      entryPrice: expect.any(Number),
      leverage: 2,
      currentPrice: expect.any(Number),
      unrealizedPnL: expect.any(Number),
    });

    const wallet = await ok('a2a.getUserWallet', { userId: user.id }, token);
    expect(wallet.balance).toMatchObject({ balance: balance.balance, reputationPoints: balance.reputationPoints });
    expect(wallet.positions.marketPositions).toEqual(rest.predictions);
    expect(wallet.positions.perpPositions).toEqual(rest.perps);
  });

  it('getPredictions lists questions as predictions (id, question, yesShares, noShares, liquidity, resolved, endDate), paged; getPerpetuals the tickers as perpetuals', async () => {
    const token = await tokenFor(await seedUser());
    const page = await ok('a2a.getPredictions', { status: 'active' }, token);
    expect(page.predictions.length).toBeGreaterThan(0);
    expect(page.predictions.length).toBe(page.questions.length);
    const ours = page.predictions.find((p: { id: string }) => p.id === marketId);
    expect(ours).toMatchObject({ id: marketId, question: 'Will Babylon agents trade here?', yesShares: expect.any(Number), noShares: expect.any(Number), liquidity: expect.any(Number), resolved: false, endDate: expect.any(String) });
    const small = await ok('a2a.getPredictions', { limit: 1, page: 2 }, token);
    expect(small.predictions).toHaveLength(1);
    expect(small.pagination).toMatchObject({ page: 2, limit: 1 });
    expect((await one('a2a.getPredictions', { limit: 0 }, token)).error?.code).toBe(-32602);

    const perps = await ok('a2a.getPerpetuals', {}, token);
    expect(perps.perpetuals).toEqual(perps.tickers);
    expect(perps.perpetuals.find((t: { ticker: string }) => t.ticker === ticker)).toMatchObject({ name: expect.any(String), currentPrice: expect.any(Number) });
  });
});

describe('the trading calls Babylon agents make', () => {
  it('buyShares {marketId, outcome, amount}: a dry run writes nothing; the real buy answers shares, avgPrice, cost and positionId on the state REST reads', async () => {
    const user = await seedUser({ balance: '1000' });
    const token = await tokenFor(user);
    const before = await positionsOf(user, token);

    const preview = await ok('a2a.buyShares', { marketId, outcome: 'YES', amount: 50, dryRun: true }, token);
    expect(preview).toMatchObject({ dryRun: true, marketId, shares: expect.any(Number), avgPrice: expect.any(Number), cost: 50, newBalance: '950' });
    expect(await balanceOf(user, token)).toBe('1000');
    expect(await positionsOf(user, token)).toEqual(before);

    const bought = await ok('a2a.buyShares', { marketId, outcome: 'yes', amount: '50' }, token);
    expect(bought.dryRun).toBeUndefined();
    expect(bought).toMatchObject({ cost: 50, newBalance: '950', shares: preview.shares, avgPrice: preview.avgPrice });
    expect(bought.positionId).toBe(bought.position.id);
    expect(await balanceOf(user, token)).toBe('950');
    const after = await positionsOf(user, token);
    expect(after.predictions.map((p: { id: string; shares: number }) => [p.id, p.shares])).toEqual([[bought.positionId, bought.shares]]);

    const tooMuch = await one('a2a.buyShares', { marketId, outcome: 'NO', amount: 5000 }, token);
    expect(tooMuch.error).toMatchObject({ code: -32000, data: { code: 'INSUFFICIENT_BALANCE' } });
    expect((await one('a2a.buyShares', { marketId, outcome: 'NO', amount: 0 }, token)).error?.data?.code).toBe('INVALID_TRADE_SIZE');
    await expectLedgerChain([user.id]);
  });

  it('sellShares {positionId, shares} (no marketId, as Babylon sends it) and {marketId, outcome, shares}: previews write nothing; sales answer proceeds and remainingShares', async () => {
    const user = await seedUser({ balance: '1000' });
    const token = await tokenFor(user);
    const bought = await ok('a2a.buyShares', { marketId, outcome: 'NO', amount: 100 }, token);
    const balance = await balanceOf(user, token);
    const held = await positionsOf(user, token);

    const half = bought.shares / 2;
    const preview = await ok('a2a.sellShares', { positionId: bought.positionId, shares: half, dryRun: true }, token);
    expect(preview).toMatchObject({ dryRun: true, positionId: bought.positionId, proceeds: expect.any(Number), remainingShares: expect.any(Number) });
    expect(await balanceOf(user, token)).toBe(balance);
    expect(await positionsOf(user, token)).toEqual(held);

    const sold = await ok('a2a.sellShares', { positionId: bought.positionId, shares: half }, token);
    expect(sold.dryRun).toBeUndefined();
    expect(sold).toMatchObject({ proceeds: preview.proceeds, remainingShares: preview.remainingShares, outcome: 'NO', marketId });
    expect(await balanceOf(user, token)).toBe(sold.newBalance);

    const rest = await ok('a2a.sellShares', { marketId, outcome: 'NO', shares: sold.remainingShares }, token);
    expect(rest.remainingShares).toBe(0);
    expect((await positionsOf(user, token)).predictions).toEqual([]);

    expect((await one('a2a.sellShares', { positionId: 'no-such-position', shares: 1 }, token)).error?.data).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect((await one('a2a.sellShares', { outcome: 'NO', shares: 1 }, token)).error?.code).toBe(-32602);
    await expectLedgerChain([user.id]);
  });

  it('openPosition {ticker, side: LONG, amount, leverage} and closePosition {positionId}: previews write nothing; real calls answer positionId, entryPrice, exitPrice and pnl', async () => {
    const user = await seedUser({ balance: '1000' });
    const token = await tokenFor(user);

    const preview = await ok('a2a.openPosition', { ticker, side: 'LONG', amount: 200, leverage: 4, dryRun: true }, token);
    expect(preview).toMatchObject({ dryRun: true, position: { ticker, side: 'long', size: 200, leverage: 4, margin: 50 }, entryPrice: preview.position.entryPrice });
    expect(await balanceOf(user, token)).toBe('1000');
    expect((await positionsOf(user, token)).perps).toEqual([]);

    const opened = await ok('a2a.openPosition', { ticker, side: 'LONG', amount: 200, leverage: 4 }, token);
    expect(opened.dryRun).toBeUndefined();
    expect(opened.positionId).toBe(opened.position.id);
    expect(opened.entryPrice).toBe(opened.position.entryPrice);
    expect(await balanceOf(user, token)).toBe(opened.newBalance);
    const open = await positionsOf(user, token);
    expect(open.perps.map((p: { id: string }) => p.id)).toEqual([opened.positionId]);

    const closePreview = await ok('a2a.closePosition', { positionId: opened.positionId, dryRun: true }, token);
    expect(closePreview).toMatchObject({ dryRun: true, positionId: opened.positionId, exitPrice: expect.any(Number) });
    expect(closePreview.pnl).toBe(closePreview.realizedPnL);
    expect(await balanceOf(user, token)).toBe(opened.newBalance);
    expect(await positionsOf(user, token)).toEqual(open);

    const closed = await ok('a2a.closePosition', { positionId: opened.positionId }, token);
    expect(closed.dryRun).toBeUndefined();
    expect(closed.pnl).toBe(closed.realizedPnL);
    expect(closed.exitPrice).toEqual(expect.any(Number));
    expect(await balanceOf(user, token)).toBe(closed.newBalance);
    expect((await positionsOf(user, token)).perps).toEqual([]);
    expect((await one('a2a.closePosition', { positionId: opened.positionId }, token)).error?.data?.code).toBe('POSITION_CLOSED');
    expect((await one('a2a.openPosition', { ticker, side: 'LONG', leverage: 2 }, token)).error?.code).toBe(-32602);
    await expectLedgerChain([user.id]);
  });

  it('a buy with an Idempotency-Key moves the money once: the repeat replays the first answer', async () => {
    const user = await seedUser({ balance: '1000' });
    const token = await tokenFor(user);
    const key = { 'idempotency-key': `babylon-buy-${user.id}` };
    const first = await rpc('a2a.buyShares', { marketId, outcome: 'YES', amount: 30 }, token, key);
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({ cost: 30, newBalance: '970' });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await rpc('a2a.buyShares', { marketId, outcome: 'YES', amount: 30 }, token, key);
    expect(again.body.result).toEqual(first.body.result);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOf(user, token)).toBe('970');
    expect((await positionsOf(user, token)).predictions).toHaveLength(1);
    await expectLedgerChain([user.id]);
  });

  it("an API key's caps hold the trading calls: a buy's amount, a perp's margin (size / leverage) and leverage; a sale commits nothing", async () => {
    const user = await seedUser({ balance: '1000' });
    const token = await tokenFor(user);
    const { secret } = await createApiKey({ caller: callerOfUser(user), userId: user.id, name: 'babylon', scopes: ['read', 'trade'], maxOrderAmount: 20, maxLeverage: 3 });
    const refused = async (method: string, params: unknown, cap: string) =>
      expect((await one(method, params, secret)).error?.data).toMatchObject({ code: 'KEY_LIMIT_EXCEEDED', status: 403, details: { cap } });

    await refused('a2a.buyShares', { marketId, outcome: 'YES', amount: 25 }, 'maxOrderAmount');
    await refused('a2a.buyShares', { marketId, outcome: 'YES', amount: 25, dryRun: true }, 'maxOrderAmount');
    await refused('a2a.openPosition', { ticker, side: 'LONG', amount: 50, leverage: 2 }, 'maxOrderAmount'); // margin 25
    await refused('a2a.openPosition', { ticker, side: 'LONG', amount: 30, leverage: 4 }, 'maxLeverage');
    expect(await balanceOf(user, token)).toBe('1000');

    const bought = await ok('a2a.buyShares', { marketId, outcome: 'YES', amount: 20 }, secret);
    const opened = await ok('a2a.openPosition', { ticker, side: 'SHORT', amount: 60, leverage: 3 }, secret); // margin 20
    expect(opened.position).toMatchObject({ margin: 20, leverage: 3 });
    expect((await ok('a2a.sellShares', { positionId: bought.positionId, shares: bought.shares }, secret)).remainingShares).toBe(0);
    expect((await ok('a2a.closePosition', { positionId: opened.positionId }, secret)).positionId).toBe(opened.positionId);
    await expectLedgerChain([user.id]);
  });
});
