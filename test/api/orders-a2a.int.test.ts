/**
 * The order methods over A2A (issue 32): the same services and rules as REST — a limit order and
 * its preview, the book, the caller's orders, the cancels — and the same state (a balance read
 * through REST after an A2A order equals what the order answered).
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as a2aRoute } from '@/app/api/a2a/route';
import { GET as bookRoute } from '@/app/api/markets/predictions/[id]/orders/route';
import { GET as balanceRoute } from '@/app/api/users/[userId]/balance/route';
import { POST as openRoute } from '@/app/api/markets/perps/open/route';
import { sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { seedWorld } from '@/lib/world/seed/world';
import { createMarket } from '@/lib/markets/service/create-market';
import { setLimiter } from '@/lib/operations/rate-limit';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';
import { expectLedgerChain } from '@/test/invariants';

beforeAll(async () => {
  await seedWorld(await getDb());
});
beforeEach(() => setLimiter(pinnedLimiter()));

type TRpc = { jsonrpc: '2.0'; id: string | number | null; result?: any; error?: { code: number; message: string; data?: any } };
const one = async (method: string, params: unknown, token: string) => {
  const res = await call(a2aRoute, '/api/a2a', { method: 'POST', token, body: { jsonrpc: '2.0', id: 1, method, params } });
  expect(res.status).toBe(200);
  return res.body as TRpc;
};

const newMarket = async () =>
  (await createMarket({ caller: null, text: 'Will the agents place limit orders?', resolutionDate: new Date(Date.now() + 30 * 86_400_000), liquidity: 1000 })).id;

describe('order methods', () => {
  it('places, previews, lists, reads the book and cancels, on the state REST reads', async () => {
    const agent = await seedUser({ balance: '500' });
    const token = await tokenFor(agent);
    const marketId = await newMarket();

    const preview = await one('a2a.placeOrder', { marketId, outcome: 'YES', amount: 25, limitPrice: 0.3, dryRun: true }, token);
    expect(preview.result).toMatchObject({ dryRun: true, order: { status: 'open', limitPrice: 0.3 }, fills: [] });
    expect((await one('a2a.getOrders', { status: 'open' }, token)).result.orders).toEqual([]);

    const placed = await one('a2a.placeOrder', { questionId: marketId, outcome: 'yes', amount: '25', limitPrice: '0.3', clientOrderId: 'agent-1' }, token);
    expect(placed.result.order).toMatchObject({ kind: 'prediction', marketId, outcome: 'YES', status: 'open', clientOrderId: 'agent-1' });
    expect(placed.result.newBalance).toBe('475');
    const balance = await call(balanceRoute, `/api/users/${agent.id}/balance`, { token, params: { userId: agent.id } });
    expect(balance.body.balance).toBe('475');

    const book = await one('a2a.getOrderBook', { marketId }, token);
    const rest = await call(bookRoute, `/api/markets/predictions/${marketId}/orders`, { params: { id: marketId } });
    expect(book.result.book).toEqual(rest.body.book);
    expect(book.result.book.YES).toEqual([{ price: 0.3, amount: 25 }]);

    const dup = await one('a2a.placeOrder', { marketId, outcome: 'NO', amount: 5, limitPrice: 0.3, clientOrderId: 'agent-1' }, token);
    expect(dup.error).toMatchObject({ code: -32000, data: { code: 'DUPLICATE_CLIENT_ORDER_ID', status: 409 } });
    const bad = await one('a2a.placeOrder', { marketId, outcome: 'NO', amount: 5, limitPrice: 0.995 }, token);
    expect(bad.error?.data?.code).toBe('INVALID_LIMIT_PRICE');

    const listed = await one('a2a.getOrders', { status: 'open', marketId }, token);
    expect(listed.result.orders.map((o: { id: string }) => o.id)).toEqual([placed.result.order.id]);

    const cancelled = await one('a2a.cancelOrder', { orderId: placed.result.order.id }, token);
    expect(cancelled.result.order.status).toBe('cancelled');
    const again = await one('a2a.cancelOrder', { id: placed.result.order.id }, token);
    expect(again.error?.data).toMatchObject({ code: 'ORDER_NOT_OPEN', status: 409 });

    await one('a2a.placeOrder', { marketId, outcome: 'NO', amount: 5, limitPrice: 0.2 }, token);
    const all = await one('a2a.cancelOrders', {}, token);
    expect(all.result.cancelled).toHaveLength(1);
    expect((await call(balanceRoute, `/api/users/${agent.id}/balance`, { token, params: { userId: agent.id } })).body.balance).toBe('500');
    await expectLedgerChain([agent.id]);
  });
});

describe('perp orders over A2A', () => {
  it('a2a.placePerpOrder previews and places a stop-loss on an open position, which REST and A2A list and cancel', async () => {
    const agent = await seedUser({ balance: '1000' });
    const token = await tokenFor(agent);
    const [row] = rowsOf<{ ticker: string; mark_price: string }>(await (await getDb()).execute(sql`select ticker, mark_price from perp_markets order by ticker limit 1`));
    if (!row) throw new Error('the seeded world has no ticker');
    const opened = await call(openRoute, '/api/markets/perps/open', { method: 'POST', token, body: { ticker: row.ticker, side: 'long', size: 100, leverage: 2 } });
    expect(opened.status).toBe(200);
    const trigger = (Number(row.mark_price) * 0.9).toFixed(4);
    const body = { ticker: row.ticker, type: 'stop_loss', triggerPrice: trigger, positionId: opened.body.position.id };
    const preview = await one('a2a.placePerpOrder', { ...body, dryRun: true }, token);
    expect(preview.result).toMatchObject({ dryRun: true, order: { kind: 'perp', type: 'stop_loss', status: 'open' }, preview: { size: 100 } });
    expect((await one('a2a.getOrders', { status: 'open', ticker: row.ticker }, token)).result.orders).toEqual([]);
    const placed = await one('a2a.placePerpOrder', body, token);
    expect(placed.result.order).toMatchObject({ kind: 'perp', ticker: row.ticker, type: 'stop_loss', side: 'long', positionId: opened.body.position.id, status: 'open' });
    const missing = await one('a2a.placePerpOrder', { ticker: row.ticker, type: 'stop_loss', triggerPrice: trigger }, token);
    expect(missing.error?.data?.code).toBe('VALIDATION_ERROR');
    expect((await one('a2a.getOrders', { status: 'open' }, token)).result.orders.map((o: { id: string }) => o.id)).toEqual([placed.result.order.id]);
    expect((await one('a2a.cancelOrders', { ticker: row.ticker }, token)).result.cancelled).toEqual([placed.result.order.id]);
    await expectLedgerChain([agent.id]);
  });
});
