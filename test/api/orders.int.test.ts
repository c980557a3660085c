/**
 * Prediction limit orders (issue 32) through the real handlers, on PGlite and PostgreSQL: placement
 * (rest, fill against the maker and against resting orders, IOC, GTD), the book, the caller's list,
 * cancels, expiry by the tick, resolution refunds, market buys and sells that meet resting orders,
 * previews, every error, and the money: balances + reserves conserved, ledger chains exact.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { POST as createMarketRoute } from '@/app/api/admin/markets/route';
import { POST as resolveRoute } from '@/app/api/admin/markets/[id]/resolve/route';
import { GET as adminStatsRoute } from '@/app/api/admin/stats/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { POST as sellRoute } from '@/app/api/markets/predictions/[id]/sell/route';
import { GET as bookRoute, POST as placeRoute } from '@/app/api/markets/predictions/[id]/orders/route';
import { GET as listRoute } from '@/app/api/markets/orders/route';
import { GET as tradesRoute } from '@/app/api/trades/route';
import { DELETE as cancelRoute } from '@/app/api/markets/orders/[orderId]/route';
import { POST as cancelManyRoute } from '@/app/api/markets/orders/cancel/route';
import { getDb, rowsOf } from '@/db/client';
import { balanceTransactions, marketPositions, markets, notifications, predictionOrders, users, type TUserRow } from '@/db/schema';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { expirePredictionOrders } from '@/lib/markets/orders/close-orders';
import { dec, type TDecimal } from '@/lib/money/decimal';
import { setLimiter } from '@/lib/operations/rate-limit';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';
import { expectLedgerChain } from '@/test/invariants';

beforeEach(() => {
  setLimiter(pinnedLimiter());
  resetClock();
});

let admin: TUserRow;
const adminToken = async () => {
  admin ??= await seedUser({ isAdmin: true, balance: '0' });
  return tokenFor(admin);
};

const newMarket = async (opts: { liquidity?: number; days?: number } = {}) => {
  const res = await call(createMarketRoute, '/api/admin/markets', {
    method: 'POST',
    token: await adminToken(),
    body: {
      text: 'Will the limit orders hold up on both databases?',
      resolutionDate: new Date(Date.now() + (opts.days ?? 7) * 86_400_000).toISOString(),
      liquidity: opts.liquidity ?? 1000,
    },
  });
  expect(res.status).toBe(200);
  return res.body.market as { id: string; yesPrice: number };
};

const place = async (user: TUserRow, marketId: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  call(placeRoute, `/api/markets/predictions/${marketId}/orders`, { method: 'POST', token: await tokenFor(user), params: { id: marketId }, body, headers });
const book = async (marketId: string) => call(bookRoute, `/api/markets/predictions/${marketId}/orders`, { params: { id: marketId } });
const buy = async (user: TUserRow, marketId: string, body: Record<string, unknown>) =>
  call(buyRoute, `/api/markets/predictions/${marketId}/buy`, { method: 'POST', token: await tokenFor(user), params: { id: marketId }, body });
const sell = async (user: TUserRow, marketId: string, body: Record<string, unknown>) =>
  call(sellRoute, `/api/markets/predictions/${marketId}/sell`, { method: 'POST', token: await tokenFor(user), params: { id: marketId }, body });
const cancel = async (user: TUserRow, orderId: string) =>
  call(cancelRoute, `/api/markets/orders/${orderId}`, { method: 'DELETE', token: await tokenFor(user), params: { orderId } });
const cancelMany = async (user: TUserRow, body: Record<string, unknown>) =>
  call(cancelManyRoute, '/api/markets/orders/cancel', { method: 'POST', token: await tokenFor(user), body });
const list = async (user: TUserRow, query = '') => call(listRoute, `/api/markets/orders${query}`, { token: await tokenFor(user) });

const balanceOf = async (userId: string) => {
  const [u] = await (await getDb()).select().from(users).where(eq(users.id, userId));
  return dec(u!.virtualBalance);
};
const orderRow = async (id: string) => {
  const [o] = await (await getDb()).select().from(predictionOrders).where(eq(predictionOrders.id, id));
  return o!;
};
const sharesOf = async (userId: string, marketId: string, side: 'YES' | 'NO') => {
  const [p] = await (await getDb())
    .select()
    .from(marketPositions)
    .where(and(eq(marketPositions.userId, userId), eq(marketPositions.marketId, marketId), eq(marketPositions.side, side)));
  return dec(p?.shares ?? 0);
};
const counts = async (marketId: string) => {
  const [m] = await (await getDb()).select().from(markets).where(eq(markets.id, marketId));
  const [c] = rowsOf<{ yes: string | number; no: string | number }>(
    await (await getDb()).execute(sql`select count(*) filter (where outcome = 'YES') as yes, count(*) filter (where outcome = 'NO') as no
      from ${predictionOrders} where market_id = ${marketId} and status in ('open', 'partially_filled')`),
  );
  return { stored: { yes: m!.openYesOrders, no: m!.openNoOrders }, actual: { yes: Number(c!.yes), no: Number(c!.no) } };
};
/** Balance plus what the user's open orders hold: only trades change it, never a reservation. */
const cashAndReserves = async (userId: string): Promise<TDecimal> => {
  const [r] = rowsOf<{ v: string }>(
    await (await getDb()).execute(sql`select coalesce(sum(amount - filled_amount), 0) as v from ${predictionOrders}
      where user_id = ${userId} and status in ('open', 'partially_filled')`),
  );
  return (await balanceOf(userId)).plus(r!.v);
};

describe('POST /api/markets/predictions/{id}/orders', () => {
  it('rests an order below the price with its amount reserved through the ledger, and shows it in the book and the list', async () => {
    const m = await newMarket();
    const alice = await seedUser();
    const res = await place(alice, m.id, { outcome: 'YES', amount: 40, limitPrice: 0.3, clientOrderId: 'a-1' });
    expect(res.status).toBe(201);
    expect(res.body.order).toMatchObject({ kind: 'prediction', marketId: m.id, outcome: 'YES', limitPrice: 0.3, amount: 40, filledAmount: 0, shares: 0, status: 'open', timeInForce: 'GTC', expiresAt: null, clientOrderId: 'a-1' });
    expect(res.body.fills).toEqual([]);
    expect(res.body.newBalance).toBe('960');
    expect((await balanceOf(alice.id)).toFixed()).toBe('960');
    const [reserve] = await (await getDb()).select().from(balanceTransactions).where(and(eq(balanceTransactions.userId, alice.id), eq(balanceTransactions.type, 'order_reserve')));
    expect(reserve).toMatchObject({ amount: '-40.00000000', referenceType: 'prediction_order', referenceId: res.body.order.id });
    const b = await book(m.id);
    expect(b.status).toBe(200);
    expect(b.body.book).toEqual({ YES: [{ price: 0.3, amount: 40 }], NO: [] });
    const mine = await list(alice, '?status=open');
    expect(mine.body.orders.map((o: { id: string }) => o.id)).toEqual([res.body.order.id]);
    expect(mine.body.pagination).toMatchObject({ total: 1 });
    expect(await counts(m.id)).toEqual({ stored: { yes: 1, no: 0 }, actual: { yes: 1, no: 0 } });
    await expectLedgerChain([alice.id]);
  });

  it('buys from the maker up to its limit and rests the rest; the average price is within the limit', async () => {
    const m = await newMarket();
    const bob = await seedUser();
    const res = await place(bob, m.id, { outcome: 'YES', amount: 500, limitPrice: '0.55' });
    expect(res.status).toBe(201);
    expect(res.body.fills.length).toBe(1);
    expect(res.body.fills[0].counterparty).toBe('maker');
    expect(res.body.fills[0].price).toBeLessThanOrEqual(0.55);
    expect(res.body.order.status).toBe('partially_filled');
    const filled = dec(res.body.order.filledAmount);
    expect(filled.gt(0) && filled.lt(500)).toBe(true);
    // The maker now sits at or under the limit.
    const [mk] = await (await getDb()).select().from(markets).where(eq(markets.id, m.id));
    expect(dec(mk!.yesShares).div(dec(mk!.yesShares).plus(mk!.noShares)).lte('0.55')).toBe(true);
    expect((await balanceOf(bob.id)).toFixed()).toBe('500');
    expect((await sharesOf(bob.id, m.id, 'YES')).toFixed()).toBe(dec((await orderRow(res.body.order.id)).shares).toFixed());
    await expectLedgerChain([bob.id]);
  });

  it("matches a NO order against a resting YES order when the prices sum to at least 1, at the resting order's price", async () => {
    const m = await newMarket();
    const alice = await seedUser();
    const carol = await seedUser();
    const resting = await place(alice, m.id, { outcome: 'YES', amount: 30, limitPrice: 0.45 });
    // NO at 0.6 ≥ 1 − 0.45: carol pays 0.55 a NO share, alice 0.45 a YES share, before the maker (NO at 0.5) …
    // the maker's NO at 0.5 is cheaper than 0.55, so the maker fills first up to 0.55, then the order.
    const res = await place(carol, m.id, { outcome: 'NO', amount: 200, limitPrice: 0.6 });
    expect(res.status).toBe(201);
    const orderFills = res.body.fills.filter((f: { counterparty: string }) => f.counterparty === 'order');
    expect(orderFills.length).toBe(1);
    expect(orderFills[0].price).toBe(0.55);
    const a = await orderRow(resting.body.order.id);
    expect(a.status).toBe('filled');
    expect(dec(a.filledAmount).toFixed()).toBe('29.99997');
    // 30 / 0.45 = 66.6666 shares (whole ten-thousandths), each pair minted for exactly 1.
    expect(dec(a.shares).toFixed()).toBe('66.6666');
    expect((await sharesOf(alice.id, m.id, 'YES')).toFixed()).toBe('66.6666');
    expect(orderFills[0].shares).toBe(66.6666);
    const c = await counts(m.id);
    expect(c.stored).toEqual(c.actual);
    expect(c.actual.yes).toBe(0);
    // Alice's order used 29.99997 of 30: the rest (less than a tick) came back as a refund.
    const refunds = await (await getDb()).select().from(balanceTransactions).where(and(eq(balanceTransactions.userId, alice.id), eq(balanceTransactions.type, 'order_refund')));
    expect(refunds.map((r) => r.amount)).toEqual(['0.00003000']);
    await expectLedgerChain([alice.id, carol.id]);
  });

  it('IOC fills what it can and cancels the rest, reserving nothing', async () => {
    const m = await newMarket();
    const dan = await seedUser();
    const res = await place(dan, m.id, { outcome: 'YES', amount: 500, limitPrice: 0.52, timeInForce: 'IOC' });
    expect(res.status).toBe(201);
    expect(res.body.order.status).toBe('cancelled');
    const spent = dec(res.body.order.filledAmount);
    expect(spent.gt(0)).toBe(true);
    expect((await balanceOf(dan.id)).toFixed()).toBe(dec(1000).minus(spent).toFixed());
    expect((await book(m.id)).body.book.YES).toEqual([]);
    const nothing = await place(dan, m.id, { outcome: 'YES', amount: 10, limitPrice: 0.2, timeInForce: 'ioc' });
    expect(nothing.body.order).toMatchObject({ status: 'cancelled', filledAmount: 0 });
    expect(nothing.body.newBalance).toBe(dec(1000).minus(spent).toFixed());
  });

  it('refuses bad input with the contract codes', async () => {
    const m = await newMarket();
    const eve = await seedUser({ balance: '50' });
    for (const limitPrice of [0.005, 0.995, '0.12345', 0, 1]) {
      const r = await place(eve, m.id, { outcome: 'YES', amount: 10, limitPrice });
      expect(r.status, String(limitPrice)).toBe(400);
      expect(r.body.error.code, String(limitPrice)).toBe('INVALID_LIMIT_PRICE');
    }
    expect((await place(eve, m.id, { outcome: 'YES', amount: 10, limitPrice: 0.3, timeInForce: 'GTD' })).body.error.code).toBe('VALIDATION_ERROR');
    expect((await place(eve, m.id, { outcome: 'YES', amount: 10, limitPrice: 0.3, timeInForce: 'GTD', expiresAt: '2001-01-01T00:00:00Z' })).body.error.code).toBe('VALIDATION_ERROR');
    expect((await place(eve, m.id, { outcome: 'YES', amount: 10, limitPrice: 0.3, expiresAt: '2099-01-01T00:00:00Z' })).body.error.code).toBe('VALIDATION_ERROR');
    expect((await place(eve, m.id, { outcome: 'MAYBE', amount: 10, limitPrice: 0.3 })).body.error.code).toBe('VALIDATION_ERROR');
    expect((await place(eve, m.id, { outcome: 'YES', amount: 0.5, limitPrice: 0.3 })).body.error.code).toBe('INVALID_TRADE_SIZE');
    const poor = await place(eve, m.id, { outcome: 'YES', amount: 80, limitPrice: 0.3 });
    expect(poor.status).toBe(400);
    expect(poor.body.error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { required: '80', available: '50' } });
    const missing = await place(eve, 'no-such-market', { outcome: 'YES', amount: 10, limitPrice: 0.3 });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('MARKET_NOT_FOUND');
    expect((await book('no-such-market')).body.error.code).toBe('MARKET_NOT_FOUND');
    const first = await place(eve, m.id, { outcome: 'YES', amount: 10, limitPrice: 0.3, clientOrderId: 'dup' });
    expect(first.status).toBe(201);
    const dup = await place(eve, m.id, { outcome: 'NO', amount: 10, limitPrice: 0.3, clientOrderId: 'dup' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('DUPLICATE_CLIENT_ORDER_ID');
    // Nothing moved for the refusals: 50 − 10 reserved.
    expect((await balanceOf(eve.id)).toFixed()).toBe('40');
    await cancel(eve, first.body.order.id);
    expect((await place(eve, m.id, { outcome: 'NO', amount: 10, limitPrice: 0.3, clientOrderId: 'dup' })).status).toBe(201);
    const resolved = await newMarket();
    await call(resolveRoute, `/api/admin/markets/${resolved.id}/resolve`, { method: 'POST', token: await adminToken(), params: { id: resolved.id }, body: { outcome: 'YES' } });
    const closed = await place(eve, resolved.id, { outcome: 'YES', amount: 10, limitPrice: 0.3 });
    expect(closed.status).toBe(400);
    expect(closed.body.error.code).toBe('MARKET_CLOSED');
  });

  it('dryRun answers what the placement would do and changes nothing', async () => {
    const m = await newMarket();
    const alice = await seedUser();
    const bob = await seedUser();
    await place(alice, m.id, { outcome: 'NO', amount: 20, limitPrice: 0.6 });
    const before = { balance: await balanceOf(bob.id), book: (await book(m.id)).body.book, counts: await counts(m.id) };
    const preview = await place(bob, m.id, { outcome: 'YES', amount: 100, limitPrice: 0.52, dryRun: true });
    expect(preview.status).toBe(201);
    expect(preview.body.dryRun).toBe(true);
    expect((await balanceOf(bob.id)).toFixed()).toBe(before.balance.toFixed());
    expect((await book(m.id)).body.book).toEqual(before.book);
    expect(await counts(m.id)).toEqual(before.counts);
    expect((await list(bob)).body.orders).toEqual([]);
    const real = await place(bob, m.id, { outcome: 'YES', amount: 100, limitPrice: 0.52 });
    expect(real.body.fills).toEqual(preview.body.fills);
    expect(real.body.newBalance).toBe(preview.body.newBalance);
    const strip = (o: Record<string, unknown>) => ({ ...o, id: undefined, createdAt: undefined });
    expect(strip(real.body.order)).toEqual(strip(preview.body.order));
  });
});

describe('admin stats', () => {
  it('count open orders, orders placed in 24 hours and what open orders hold', async () => {
    const stats = async () => (await call(adminStatsRoute, '/api/admin/stats', { token: await adminToken() })).body.trading;
    const m = await newMarket();
    const u = await seedUser();
    const before = await stats();
    await place(u, m.id, { outcome: 'YES', amount: '12.5', limitPrice: 0.2 });
    await place(u, m.id, { outcome: 'NO', amount: 10, limitPrice: 0.2, timeInForce: 'IOC' });
    const after = await stats();
    expect(after.openOrders).toBe(before.openOrders + 1);
    expect(after.orders24h).toBe(before.orders24h + 2);
    expect(dec(after.ordersReserved).minus(before.ordersReserved).toFixed()).toBe('12.5');
  });
});

describe('market buys and sells meet resting orders', () => {
  it("a market buy takes a resting order where it beats the maker, and the order's owner gets the shares", async () => {
    // A small pool: a buy of 50 YES takes the maker from 0.5 past 0.6, where the NO order at 0.4 offers YES at 0.6.
    const m = await newMarket({ liquidity: 100 });
    const maker = await seedUser();
    const taker = await seedUser();
    const o = await place(maker, m.id, { outcome: 'NO', amount: 6, limitPrice: 0.4 });
    expect(o.body.order.status).toBe('open');
    const before = await cashAndReserves(maker.id);
    const res = await buy(taker, m.id, { outcome: 'YES', amount: 50 });
    expect(res.status).toBe(200);
    const row = await orderRow(o.body.order.id);
    expect(dec(row.filledAmount).gt(0)).toBe(true);
    // Owner: NO shares at 0.6 each, what they cost came out of the reserve, not the balance.
    expect((await sharesOf(maker.id, m.id, 'NO')).toFixed()).toBe(dec(row.shares).toFixed());
    expect(dec(row.filledAmount).toFixed()).toBe(dec(row.shares).times('0.4').toFixed());
    expect((await cashAndReserves(maker.id)).toFixed()).toBe(before.minus(row.filledAmount).toFixed());
    // The trade feed shows the owner's fill, naming the order.
    const feed = await call(tradesRoute, `/api/trades?marketId=${m.id}&userId=${maker.id}`, { token: await tokenFor(maker) });
    expect(feed.body.trades.map((t: { orderId: string | null; side: string }) => [t.orderId, t.side])).toEqual([[o.body.order.id, 'NO']]);
    const notes = await (await getDb()).select().from(notifications).where(eq(notifications.userId, maker.id));
    expect(notes.map((n) => [n.kind, n.link])).toEqual([['order_filled', `/markets/${m.id}`]]);
    expect(dec(res.body.newBalance).toFixed()).toBe('950');
    await expectLedgerChain([maker.id, taker.id]);
  });

  it('a sale goes to a resting order of the same outcome that pays more than the maker', async () => {
    const m = await newMarket();
    const holder = await seedUser();
    const bidder = await seedUser();
    const bought = await buy(holder, m.id, { outcome: 'YES', amount: 100 });
    expect(bought.body.yesPrice).toBeGreaterThan(0.54);
    // A YES bid at 0.52, under the price: it rests until a sale brings the maker down to it.
    const bid = await place(bidder, m.id, { outcome: 'YES', amount: 30, limitPrice: 0.52 });
    expect(bid.body.order.status).toBe('open');
    const before = dec(0);
    const sold = await sell(holder, m.id, { outcome: 'YES', shares: 150 });
    expect(sold.status).toBe(200);
    const row = await orderRow(bid.body.order.id);
    expect(dec(row.shares).gt(before)).toBe(true);
    expect((await sharesOf(bidder.id, m.id, 'YES')).toFixed()).toBe(dec(row.shares).toFixed());
    expect(dec(row.filledAmount).toFixed()).toBe(dec(row.shares).times('0.52').toFixed());
    expect(sold.body.sharesSold).toBe(150);
    await expectLedgerChain([holder.id, bidder.id]);
  });
});

describe('cancels, expiry and resolution', () => {
  it('DELETE refunds exactly the unfilled reserve once; another player cannot see it', async () => {
    const m = await newMarket();
    const alice = await seedUser();
    const mallory = await seedUser();
    const o = await place(alice, m.id, { outcome: 'YES', amount: '12.345', limitPrice: 0.2 });
    expect((await cancel(mallory, o.body.order.id)).body.error.code).toBe('ORDER_NOT_FOUND');
    expect((await cancel(alice, 'no-such-order')).status).toBe(404);
    const res = await cancel(alice, o.body.order.id);
    expect(res.status).toBe(200);
    expect(res.body.order.status).toBe('cancelled');
    expect((await balanceOf(alice.id)).toFixed()).toBe('1000');
    const again = await cancel(alice, o.body.order.id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('ORDER_NOT_OPEN');
    expect(await counts(m.id)).toEqual({ stored: { yes: 0, no: 0 }, actual: { yes: 0, no: 0 } });
    await expectLedgerChain([alice.id]);
  });

  it('cancels many: by question, by client id, then everything', async () => {
    const m1 = await newMarket();
    const m2 = await newMarket();
    const u = await seedUser();
    await place(u, m1.id, { outcome: 'YES', amount: 10, limitPrice: 0.2 });
    await place(u, m1.id, { outcome: 'NO', amount: 10, limitPrice: 0.2 });
    const tagged = await place(u, m2.id, { outcome: 'YES', amount: 10, limitPrice: 0.2, clientOrderId: 'bot-7' });
    await place(u, m2.id, { outcome: 'NO', amount: 10, limitPrice: 0.2 });
    expect((await cancelMany(u, { marketId: m1.id })).body.cancelled).toHaveLength(2);
    expect((await cancelMany(u, { clientOrderId: 'bot-7' })).body.cancelled).toEqual([tagged.body.order.id]);
    expect((await cancelMany(u, {})).body.cancelled).toHaveLength(1);
    expect((await balanceOf(u.id)).toFixed()).toBe('1000');
    expect((await list(u, '?status=cancelled')).body.pagination.total).toBe(4);
  });

  it('a GTD order never fills after expiresAt and the tick expires and refunds it', async () => {
    const m = await newMarket({ liquidity: 100 });
    const alice = await seedUser();
    const bob = await seedUser();
    const t0 = Date.now();
    setFixedTime(new Date(t0));
    const o = await place(alice, m.id, { outcome: 'NO', amount: 20, limitPrice: 0.4, timeInForce: 'GTD', expiresAt: new Date(t0 + 3_600_000).toISOString() });
    expect(o.body.order).toMatchObject({ status: 'open', timeInForce: 'GTD' });
    setFixedTime(new Date(t0 + 3_600_001));
    // Past its expiry but before a sweep: a buy that it would have beaten does not touch it.
    const late = await buy(bob, m.id, { outcome: 'YES', amount: 60 });
    expect(late.body.yesPrice).toBeGreaterThan(0.6);
    expect((await orderRow(o.body.order.id)).filledAmount).toBe('0.00000000');
    expect((await book(m.id)).body.book.NO).toEqual([]);
    const swept = await expirePredictionOrders();
    expect(swept.expired).toBe(1);
    const row = await orderRow(o.body.order.id);
    expect(row.status).toBe('expired');
    const notes = await (await getDb()).select().from(notifications).where(eq(notifications.userId, alice.id));
    expect(notes.map((n) => [n.kind, n.title])).toEqual([['order_expired', 'Limit order expired']]);
    expect((await balanceOf(alice.id)).toFixed()).toBe('1000');
    expect(await counts(m.id)).toEqual({ stored: { yes: 0, no: 0 }, actual: { yes: 0, no: 0 } });
    await expectLedgerChain([alice.id]);
  });

  it('resolution cancels and refunds open orders before it pays out', async () => {
    const m = await newMarket();
    const alice = await seedUser();
    const o = await place(alice, m.id, { outcome: 'YES', amount: 300, limitPrice: 0.55 });
    expect(o.body.order.status).toBe('partially_filled');
    const res = await call(resolveRoute, `/api/admin/markets/${m.id}/resolve`, { method: 'POST', token: await adminToken(), params: { id: m.id }, body: { outcome: 'YES' } });
    expect(res.status).toBe(200);
    expect((await orderRow(o.body.order.id)).status).toBe('cancelled');
    const rows = await (await getDb()).select().from(balanceTransactions).where(eq(balanceTransactions.userId, alice.id)).orderBy(balanceTransactions.seq);
    const types = rows.map((r) => r.type);
    expect(types.indexOf('order_refund')).toBeLessThan(types.indexOf('pred_payout'));
    // 1000 − filled + payout (1 a share, rounded down to money).
    const row = await orderRow(o.body.order.id);
    expect((await balanceOf(alice.id)).toFixed()).toBe(dec(1000).minus(row.filledAmount).plus(dec(row.shares).toDecimalPlaces(8, 1)).toFixed());
    await expectLedgerChain([alice.id]);
  });
});

describe('concurrency', () => {
  it('a cancel racing a fill settles exactly once: the reserve is either filled or refunded, never both', async () => {
    const m = await newMarket({ liquidity: 50 });
    const owner = await seedUser();
    const takers = await Promise.all([seedUser(), seedUser(), seedUser()]);
    const o = await place(owner, m.id, { outcome: 'NO', amount: 10, limitPrice: 0.35 });
    expect(o.body.order.status).toBe('open');
    const before = await cashAndReserves(owner.id);
    const results = await Promise.all([cancel(owner, o.body.order.id), ...takers.map((t) => buy(t, m.id, { outcome: 'YES', amount: 20 }))]);
    for (const r of results) expect([200, 409]).toContain(r.status);
    const row = await orderRow(o.body.order.id);
    const refunded = (await (await getDb()).select().from(balanceTransactions).where(and(eq(balanceTransactions.userId, owner.id), eq(balanceTransactions.type, 'order_refund'))))
      .reduce((s, r) => s.plus(r.amount), dec(0));
    // What the order spent plus what came back is exactly what was reserved.
    expect(dec(row.filledAmount).plus(refunded).toFixed()).toBe('10');
    expect((await cashAndReserves(owner.id)).toFixed()).toBe(before.minus(row.filledAmount).toFixed());
    await expectLedgerChain([owner.id, ...takers.map((t) => t.id)]);
  });

  it('two takers racing for one resting order never overfill it', async () => {
    const m = await newMarket({ liquidity: 50 });
    const owner = await seedUser();
    const a = await seedUser();
    const b = await seedUser();
    const o = await place(owner, m.id, { outcome: 'NO', amount: 8, limitPrice: 0.4 });
    expect(o.body.order.status).toBe('open');
    const [ra, rb] = await Promise.all([buy(a, m.id, { outcome: 'YES', amount: 30 }), buy(b, m.id, { outcome: 'YES', amount: 30 })]);
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    const row = await orderRow(o.body.order.id);
    expect(dec(row.filledAmount).gt(0) && dec(row.filledAmount).lte(8)).toBe(true);
    const ownerShares = await sharesOf(owner.id, m.id, 'NO');
    expect(ownerShares.toFixed()).toBe(dec(row.shares).toFixed());
    // Minted pairs: the takers' YES shares from the order equal the owner's NO shares.
    expect(dec(row.filledAmount).toFixed()).toBe(ownerShares.times('0.4').toFixed());
    expect(await counts(m.id)).toEqual({ stored: { yes: 0, no: row.status === 'filled' ? 0 : 1 }, actual: { yes: 0, no: row.status === 'filled' ? 0 : 1 } });
    await expectLedgerChain([owner.id, a.id, b.id]);
  });
});
