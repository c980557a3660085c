/**
 * Perp orders (issue 32, CONTRACT.md "Orders"): POST /api/markets/perps/orders, the trigger pass
 * that every mark change runs before the liquidation sweep, the cancels lib/orders calls, and the
 * money: a limit order's reserve and refund, a stop's settlement, the ledger chain. Marks move the
 * way the perps tests move them (the admin price endpoint), or through a trade's own impact; the
 * race cases set the mark in the database and run the passes side by side.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as adminPriceRoute } from '@/app/api/admin/perps/[ticker]/price/route';
import { POST as closeRoute } from '@/app/api/markets/perps/[positionId]/close/route';
import { POST as openRoute } from '@/app/api/markets/perps/open/route';
import { POST as ordersRoute } from '@/app/api/markets/perps/orders/route';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { balanceTransactions, eventLog, notifications, perpMarkets, perpOrders, perpPositions, perpTrades, predictionOrders, users, markets, type TUserRow } from '@/db/schema';
import { seedUser } from '@/test/factories';
import { expectLedgerChain, expectPerpTickerCounters } from '@/test/invariants';
import { seedWorld } from '@/lib/world/seed/world';
import { now } from '@/lib/clock/clock';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { dec } from '@/lib/money/decimal';
import { withAccruedFunding } from '@/lib/perps/math';
import { quoteLimit, quoteTriggerClose } from '@/lib/perps/orders';
import { buildSweepStatement, liquidateTicker } from '@/lib/perps/service/liquidate';
import { cancelPerpOrder, cancelPerpOrders, perpOrderDto } from '@/lib/perps/service/orders';
import { call, tokenFor } from '@/test/http';

beforeAll(async () => {
  await seedWorld(await getDb());
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

let admin: TUserRow;
const adminToken = async () => {
  admin ??= await seedUser({ isAdmin: true, balance: '0' });
  return tokenFor(admin);
};

const place = async (user: TUserRow, body: Record<string, unknown>) =>
  call(ordersRoute, '/api/markets/perps/orders', { method: 'POST', token: await tokenFor(user), body });
const open = async (user: TUserRow, body: Record<string, unknown>) => {
  const res = await call(openRoute, '/api/markets/perps/open', { method: 'POST', token: await tokenFor(user), body });
  expect(res.status).toBe(200);
  return res.body.position as { id: string; entryPrice: number; liquidationPrice: number; size: number };
};
const close = async (user: TUserRow, positionId: string) =>
  call(closeRoute, `/api/markets/perps/${positionId}/close`, { method: 'POST', token: await tokenFor(user), params: { positionId } });
const setPrice = async (ticker: string, price: number | string) => {
  const res = await call(adminPriceRoute, `/api/admin/perps/${ticker}/price`, { method: 'POST', token: await adminToken(), params: { ticker }, body: { price } });
  expect(res.status).toBe(200);
  return res.body as { liquidated: number; liquidatedPositionIds: string[] };
};
/** A price the admin endpoint (which reads a JSON number) sets at or just below `price`: 6 places, rounded down. */
const atOrBelow = (price: string) => dec(price).toDecimalPlaces(6, 1).toNumber();
/** The mark set in the database only: no trigger pass, no sweep (the race cases run those themselves). */
const setMarkQuietly = async (ticker: string, price: string) => (await getDb()).update(perpMarkets).set({ markPrice: price }).where(eq(perpMarkets.ticker, ticker));

const balanceOf = async (userId: string) => {
  const [u] = await (await getDb()).select().from(users).where(eq(users.id, userId));
  return dec(u!.virtualBalance);
};
const market = async (ticker: string) => {
  const [m] = await (await getDb()).select().from(perpMarkets).where(eq(perpMarkets.ticker, ticker));
  return m!;
};
const orderRow = async (id: string) => {
  const [o] = await (await getDb()).select().from(perpOrders).where(eq(perpOrders.id, id));
  return o!;
};
const positionRow = async (id: string) => {
  const [p] = await (await getDb()).select().from(perpPositions).where(eq(perpPositions.id, id));
  return p!;
};
const ordersOf = async (userId: string) => (await getDb()).select().from(perpOrders).where(eq(perpOrders.userId, userId)).orderBy(asc(perpOrders.seq));
const ledgerOf = async (userId: string) =>
  (await getDb()).select().from(balanceTransactions).where(eq(balanceTransactions.userId, userId)).orderBy(asc(balanceTransactions.seq));
const orderEvents = async (userId: string) =>
  (await (await getDb()).select().from(eventLog).where(and(eq(eventLog.channel, `user:${userId}`), eq(eventLog.type, 'order_update'))).orderBy(asc(eventLog.id))).map(
    (e) => e.data as { event: string; order: Record<string, unknown>; timestamp: string },
  );
const noticesOf = async (userId: string) => (await getDb()).select().from(notifications).where(eq(notifications.userId, userId)).orderBy(asc(notifications.createdAt));

/** What a stop closing `size` of the position (all when null) at `exit` pays, from its row and its ticker's funding index now. */
const expectedClose = async (positionId: string, size: string | null, exit: string) => {
  const p = await positionRow(positionId);
  const funded = withAccruedFunding(p, (await market(p.ticker)).fundingIndex);
  return quoteTriggerClose({ ...p, collateral: funded.collateral, fundingPaid: funded.fundingPaid }, size, exit);
};

describe('POST /api/markets/perps/orders: placing', () => {
  it('places a stop-loss and a partial take-profit on an open position: nothing reserved, order_update placed', async () => {
    await setPrice('NEXA', 100);
    const user = await seedUser({ balance: '5000' });
    const pos = await open(user, { ticker: 'NEXA', side: 'long', size: 1000, leverage: 10 });
    const before = await balanceOf(user.id);
    const stop = await place(user, { ticker: 'nexa', type: 'stop_loss', triggerPrice: 95, positionId: pos.id, clientOrderId: 'sl-1' });
    expect(stop.status).toBe(201);
    expect(stop.body.order).toMatchObject({
      kind: 'perp',
      ticker: 'NEXA',
      type: 'stop_loss',
      side: 'long',
      size: null,
      leverage: null,
      triggerPrice: 95,
      positionId: pos.id,
      status: 'open',
      clientOrderId: 'sl-1',
      triggeredAt: null,
    });
    expect(stop.body.newBalance).toBeUndefined();
    const tp = await place(user, { ticker: 'NEXA', type: 'TAKE_PROFIT', triggerPrice: '110.5', positionId: pos.id, size: '400', side: 'long' });
    expect(tp.status).toBe(201);
    expect(tp.body.order).toMatchObject({ type: 'take_profit', size: 400, triggerPrice: 110.5 });
    expect(await orderRow(stop.body.order.id)).toMatchObject({ firesWhen: 'below', reserved: '0.00000000', margin: null });
    expect(await orderRow(tp.body.order.id)).toMatchObject({ firesWhen: 'above', reserved: '0.00000000' });
    expect((await balanceOf(user.id)).eq(before)).toBe(true);
    // The event carries the order exactly as the answer does.
    const events = await orderEvents(user.id);
    expect(events.map((e) => e.event)).toEqual(['placed', 'placed']);
    expect(events[0]!.order).toEqual(stop.body.order);
    expect(events[1]!.order).toEqual(tp.body.order);
    // A short's stop sits above the mark and its take-profit below.
    const short = await open(user, { ticker: 'NEXA', side: 'short', size: 200, leverage: 2 });
    const shortStop = await place(user, { ticker: 'NEXA', type: 'stop_loss', triggerPrice: 130, positionId: short.id });
    expect(shortStop.status).toBe(201);
    expect(await orderRow(shortStop.body.order.id)).toMatchObject({ side: 'short', firesWhen: 'above' });
    await close(user, pos.id);
    await close(user, short.id);
  });

  it('places a limit order: margin plus the open fee reserved through the ledger, newBalance after it', async () => {
    await setPrice('HELX', 100);
    const user = await seedUser({ balance: '1000' });
    const res = await place(user, { ticker: 'HELX', type: 'limit', side: 'long', size: 1000, leverage: 10, triggerPrice: 90, clientOrderId: 'buy-dip' });
    expect(res.status).toBe(201);
    expect(res.body.order).toMatchObject({ type: 'limit', side: 'long', size: 1000, leverage: 10, triggerPrice: 90, positionId: null, status: 'open' });
    expect(res.body.newBalance).toBe('899');
    expect((await balanceOf(user.id)).toFixed()).toBe('899');
    expect(await orderRow(res.body.order.id)).toMatchObject({ firesWhen: 'below', margin: '100.00000000', reserved: '101.00000000' });
    const last = (await ledgerOf(user.id)).at(-1)!;
    expect(last).toMatchObject({ type: 'perp_order_reserve', amount: '-101.00000000', balanceAfter: '899.00000000', referenceType: 'perp_order', referenceId: res.body.order.id });
    // A short limit rests above the mark.
    const short = await place(user, { ticker: 'HELX', type: 'limit', side: 'short', size: 100, leverage: 4, triggerPrice: 120 });
    expect(short.status).toBe(201);
    expect(await orderRow(short.body.order.id)).toMatchObject({ firesWhen: 'above', reserved: '25.10000000' });
    expect(await withTransaction((tx) => cancelPerpOrders(tx, { userId: user.id }))).toEqual([res.body.order.id, short.body.order.id]);
    expect((await balanceOf(user.id)).toFixed()).toBe('1000');
  });

  it('refuses with each error code and writes nothing', async () => {
    await setPrice('SOLR', 100);
    const user = await seedUser({ balance: '500' });
    const other = await seedUser({ balance: '500' });
    const mine = await open(user, { ticker: 'SOLR', side: 'long', size: 100, leverage: 5 });
    const theirs = await open(other, { ticker: 'SOLR', side: 'long', size: 100, leverage: 5 });
    const closed = await open(user, { ticker: 'SOLR', side: 'short', size: 100, leverage: 5 });
    expect((await close(user, closed.id)).status).toBe(200);
    const taken = await place(user, { ticker: 'SOLR', type: 'stop_loss', triggerPrice: 90, positionId: mine.id, clientOrderId: 'mine' });
    expect(taken.status).toBe(201);
    const balance = await balanceOf(user.id);
    const ordersBefore = (await ordersOf(user.id)).length;
    const eventsBefore = (await orderEvents(user.id)).length;
    setLimiter(createMemoryLimiter());
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ticker: 'SOLR', type: 'stop_loss', triggerPrice: 101, positionId: mine.id }, 400, 'VALIDATION_ERROR'], // a long's stop above the mark
      [{ ticker: 'SOLR', type: 'take_profit', triggerPrice: 99, positionId: mine.id }, 400, 'VALIDATION_ERROR'], // a long's take-profit below it
      [{ ticker: 'SOLR', type: 'stop_loss', triggerPrice: 90 }, 400, 'VALIDATION_ERROR'], // no position
      [{ ticker: 'NEXA', type: 'stop_loss', triggerPrice: 90, positionId: mine.id }, 400, 'VALIDATION_ERROR'], // another ticker
      [{ ticker: 'SOLR', type: 'stop_loss', triggerPrice: 90, positionId: mine.id, side: 'short' }, 400, 'VALIDATION_ERROR'],
      [{ ticker: 'SOLR', type: 'stop_loss', triggerPrice: 90, positionId: mine.id, leverage: 2 }, 400, 'VALIDATION_ERROR'],
      [{ ticker: 'SOLR', type: 'limit', side: 'long', size: 100, triggerPrice: 90 }, 400, 'VALIDATION_ERROR'], // no leverage
      [{ ticker: 'SOLR', type: 'limit', side: 'long', size: 100, leverage: 101, triggerPrice: 90 }, 400, 'VALIDATION_ERROR'],
      [{ ticker: 'SOLR', type: 'limit', side: 'long', size: 100, leverage: 2.00001, triggerPrice: 90 }, 400, 'VALIDATION_ERROR'],
      [{ ticker: 'SOLR', type: 'limit', side: 'long', size: 100, leverage: 2, triggerPrice: 0 }, 400, 'VALIDATION_ERROR'],
      [{ ticker: 'SOLR', type: 'limit', side: 'long', size: 100, leverage: 2, triggerPrice: 90, positionId: mine.id }, 400, 'VALIDATION_ERROR'],
      [{ ticker: 'SOLR', type: 'trailing', triggerPrice: 90, positionId: mine.id }, 400, 'VALIDATION_ERROR'],
      [{ ticker: 'SOLR', type: 'stop_loss', triggerPrice: 90, positionId: theirs.id }, 404, 'POSITION_NOT_FOUND'],
      [{ ticker: 'SOLR', type: 'stop_loss', triggerPrice: 90, positionId: 'no-such-position' }, 404, 'POSITION_NOT_FOUND'],
      [{ ticker: 'SOLR', type: 'take_profit', triggerPrice: 90, positionId: closed.id }, 400, 'POSITION_CLOSED'],
      [{ ticker: 'NOPE', type: 'limit', side: 'long', size: 100, leverage: 2, triggerPrice: 90 }, 404, 'NOT_FOUND'],
      [{ ticker: 'SOLR', type: 'limit', side: 'long', size: 10_000, leverage: 10, triggerPrice: 90 }, 400, 'INSUFFICIENT_BALANCE'],
      [{ ticker: 'SOLR', type: 'take_profit', triggerPrice: 120, positionId: mine.id, clientOrderId: 'mine' }, 409, 'DUPLICATE_CLIENT_ORDER_ID'],
    ];
    for (const [body, status, code] of cases) {
      const res = await place(user, body);
      expect({ body, status: res.status, code: res.body.error?.code }).toEqual({ body, status, code });
    }
    const poor = await place(user, { ticker: 'SOLR', type: 'limit', side: 'long', size: 10_000, leverage: 10, triggerPrice: 90 });
    expect(poor.body.error.details).toEqual({ required: '1010', available: balance.toFixed() });
    // A clientOrderId in use on an open prediction order is taken too.
    const db = await getDb();
    const [question] = await db.select({ id: markets.id }).from(markets).limit(1);
    const at = now();
    await db.insert(predictionOrders).values({
      userId: user.id,
      marketId: question!.id,
      outcome: 'YES',
      limitPrice: '0.4',
      amount: '10',
      status: 'open',
      timeInForce: 'GTC',
      clientOrderId: 'pred-1',
      createdAt: at,
      updatedAt: at,
    });
    const clash = await place(user, { ticker: 'SOLR', type: 'take_profit', triggerPrice: 120, positionId: mine.id, clientOrderId: 'pred-1' });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('DUPLICATE_CLIENT_ORDER_ID');
    await db.delete(predictionOrders).where(eq(predictionOrders.userId, user.id));
    const anonymous = await call(ordersRoute, '/api/markets/perps/orders', { method: 'POST', body: { ticker: 'SOLR', type: 'stop_loss', triggerPrice: 90, positionId: mine.id } });
    expect(anonymous.status).toBe(401);
    expect((await ordersOf(user.id)).length).toBe(ordersBefore);
    expect((await orderEvents(user.id)).length).toBe(eventsBefore);
    expect((await balanceOf(user.id)).eq(balance)).toBe(true);
    // Once the order is no longer open its clientOrderId is free again.
    setLimiter(createMemoryLimiter());
    await withTransaction((tx) => cancelPerpOrder(tx, { userId: user.id, orderId: taken.body.order.id }));
    expect((await place(user, { ticker: 'SOLR', type: 'take_profit', triggerPrice: 120, positionId: mine.id, clientOrderId: 'mine' })).status).toBe(201);
    await close(user, mine.id);
    await close(other, theirs.id);
  });

  it('dryRun answers the order and what it does when it fires, and writes nothing', async () => {
    await setPrice('VRSE', 100);
    const user = await seedUser({ balance: '3000' });
    const pos = await open(user, { ticker: 'VRSE', side: 'long', size: 1000, leverage: 10 });
    const balance = await balanceOf(user.id);
    const ledgerRows = (await ledgerOf(user.id)).length;
    const events = (await orderEvents(user.id)).length;
    const stop = await place(user, { ticker: 'VRSE', type: 'stop_loss', triggerPrice: 96, positionId: pos.id, size: 250, dryRun: true });
    expect(stop.status).toBe(201);
    expect(stop.body.dryRun).toBe(true);
    expect(stop.body.order).toMatchObject({ type: 'stop_loss', size: 250, triggerPrice: 96, status: 'open', positionId: pos.id });
    const q = await expectedClose(pos.id, '250', '96');
    expect(stop.body.preview).toEqual({ triggerPrice: 96, size: 250, realizedPnL: q.netPnL.toNumber(), margin: null, fee: q.fee.toNumber(), liquidationPrice: null });
    expect(stop.body.preview.realizedPnL).toBeLessThan(0);
    const limit = await place(user, { ticker: 'VRSE', type: 'limit', side: 'short', size: 500, leverage: 5, triggerPrice: 110, dryRun: true });
    expect(limit.status).toBe(201);
    const ql = quoteLimit({ side: 'short', size: 500, leverage: 5 }, 110);
    expect(limit.body.preview).toEqual({ triggerPrice: 110, size: 500, realizedPnL: null, margin: 100, fee: 0.5, liquidationPrice: ql.liquidationPrice.toNumber() });
    expect(limit.body.newBalance).toBe(balance.minus('100.5').toFixed());
    // A limit order the mark already satisfies: the dry run answers it filled, and fills nothing.
    const marketable = await place(user, { ticker: 'VRSE', type: 'limit', side: 'long', size: 100, leverage: 2, triggerPrice: 150, dryRun: true });
    expect(marketable.status).toBe(201);
    expect(marketable.body.order.status).toBe('filled');
    // A dry run is refused as the order would be.
    const refused = await place(user, { ticker: 'VRSE', type: 'stop_loss', triggerPrice: 150, positionId: pos.id, dryRun: true });
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    expect(await ordersOf(user.id)).toEqual([]);
    expect((await (await getDb()).select().from(perpPositions).where(eq(perpPositions.userId, user.id))).map((p) => p.id)).toEqual([pos.id]);
    expect((await balanceOf(user.id)).eq(balance)).toBe(true);
    expect((await ledgerOf(user.id)).length).toBe(ledgerRows);
    expect((await orderEvents(user.id)).length).toBe(events);
    await close(user, pos.id);
  });
});

describe('triggers', () => {
  it('a stop-loss fires when the mark crosses it: closes at the mark, notifies, and cancels the take-profit', async () => {
    await setPrice('KLDR', 100);
    const user = await seedUser({ balance: '5000' });
    const pos = await open(user, { ticker: 'KLDR', side: 'long', size: 1000, leverage: 10 });
    const stop = (await place(user, { ticker: 'KLDR', type: 'stop_loss', triggerPrice: 95, positionId: pos.id })).body.order;
    const tp = (await place(user, { ticker: 'KLDR', type: 'take_profit', triggerPrice: 110, positionId: pos.id })).body.order;
    await setPrice('KLDR', '95.01');
    expect((await orderRow(stop.id)).status).toBe('open');
    const expected = await expectedClose(pos.id, null, '94');
    const balance = await balanceOf(user.id);
    await setPrice('KLDR', 94);
    const fired = await orderRow(stop.id);
    expect(fired).toMatchObject({ status: 'triggered', note: null });
    expect(fired.triggeredAt).not.toBeNull();
    const p = await positionRow(pos.id);
    expect(p).toMatchObject({ status: 'closed', exitPrice: dec(94).toFixed(18), realizedPnL: expected.realizedPnL.toFixed(8), closeFee: expected.fee.toFixed(8), netPnL: expected.netPnL.toFixed(8) });
    // At the mark, without impact: the mark did not move.
    expect((await market('KLDR')).markPrice).toBe(dec(94).toFixed(18));
    expect((await balanceOf(user.id)).eq(balance.plus(expected.total))).toBe(true);
    const rows = await ledgerOf(user.id);
    expect(rows.at(-1)).toMatchObject({ type: 'perp_close', amount: expected.closeCredit.toFixed(8), referenceType: 'perp_position', referenceId: pos.id });
    const [trade] = await (await getDb()).select().from(perpTrades).where(and(eq(perpTrades.positionId, pos.id), eq(perpTrades.action, 'close')));
    expect(trade).toMatchObject({ price: dec(94).toFixed(18), size: expected.notional.toFixed(8), realizedPnL: expected.netPnL.toFixed(8) });
    expect(await orderRow(tp.id)).toMatchObject({ status: 'cancelled', note: `its position was closed by stop-loss ${stop.id}` });
    const notes = await noticesOf(user.id);
    expect(notes.map((n) => [n.kind, n.title])).toEqual([['order_triggered', 'Stop-loss triggered']]);
    expect(notes[0]!.message).toBe(`Your stop-loss at 95 closed your 10x long on KLDR at 94, a loss of ${expected.netPnL.abs().toFixed(2)} after fees.`);
    // The events carry each order as the API answers it (the SQL twin of perpOrderDto).
    const events = (await orderEvents(user.id)).slice(2);
    expect(events.map((e) => e.event)).toEqual(['triggered', 'cancelled']);
    expect(events[0]!.order).toEqual(perpOrderDto(await orderRow(stop.id)));
    expect(events[1]!.order).toEqual(perpOrderDto(await orderRow(tp.id)));
    const [u] = await (await getDb()).select().from(users).where(eq(users.id, user.id));
    expect(u!.lifetimePnL).toBe(expected.netPnL.toFixed(8));
  });

  it('a partial take-profit closes its size with its share of the funding, and leaves the rest open', async () => {
    await setPrice('ORBT', 100);
    const user = await seedUser({ balance: '5000' });
    const pos = await open(user, { ticker: 'ORBT', side: 'short', size: 1000, leverage: 5 });
    const tp = (await place(user, { ticker: 'ORBT', type: 'take_profit', triggerPrice: 90, positionId: pos.id, size: 400 })).body.order;
    const whole = (await place(user, { ticker: 'ORBT', type: 'take_profit', triggerPrice: 80, positionId: pos.id, size: 5000 })).body.order;
    const db = await getDb();
    const m = await market('ORBT');
    // Funding has accrued since the open (the index moved): the part closed settles its share.
    const index = dec(m.fundingIndex).plus('0.37').toFixed();
    await db.update(perpMarkets).set({ fundingIndex: index }).where(eq(perpMarkets.ticker, 'ORBT'));
    try {
      const q = await expectedClose(pos.id, '400', '89');
      expect(q.fundingPaid.isZero()).toBe(false);
      const balance = await balanceOf(user.id);
      await setPrice('ORBT', 89);
      expect(await orderRow(tp.id)).toMatchObject({ status: 'triggered' });
      expect(await orderRow(whole.id)).toMatchObject({ status: 'open' });
      const left = await positionRow(pos.id);
      const r = q.remaining!;
      expect(left).toMatchObject({
        status: 'open',
        size: r.size.toFixed(8),
        units: r.units.toFixed(18),
        margin: r.margin.toFixed(8),
        collateral: r.collateral.toFixed(8),
        openFee: r.openFee.toFixed(8),
        fundingPaid: r.fundingPaid.toFixed(8),
        liquidationPrice: r.liquidationPrice.toFixed(18),
        fundingIndexEntry: dec(index).toFixed(18),
        exitPrice: null,
      });
      expect((await balanceOf(user.id)).eq(balance.plus(q.total))).toBe(true);
      const legs = (await ledgerOf(user.id)).slice(-2);
      expect(legs.map((l) => [l.type, l.amount])).toEqual([
        ['perp_close', q.closeCredit.toFixed(8)],
        ['funding_paid', q.fundingCredit.toFixed(8)],
      ]);
      // The take-profit asking for more than is left closes what is left, and no more.
      const rest = await expectedClose(pos.id, '5000', '79');
      expect(rest.whole).toBe(true);
      await setPrice('ORBT', 79);
      expect(await orderRow(whole.id)).toMatchObject({ status: 'triggered' });
      expect(await positionRow(pos.id)).toMatchObject({ status: 'closed', units: left.units, netPnL: rest.netPnL.toFixed(8) });
      const closes = await db.select().from(perpTrades).where(and(eq(perpTrades.positionId, pos.id), eq(perpTrades.action, 'close')));
      expect(closes.map((t) => t.size).sort()).toEqual([q.notional.toFixed(8), rest.notional.toFixed(8)].sort());
    } finally {
      await db.update(perpMarkets).set({ fundingIndex: m.fundingIndex }).where(eq(perpMarkets.ticker, 'ORBT'));
    }
  });

  it('a crossed stop fires before a liquidation at the same mark, and a sweep racing the pass leaves its position alone', async () => {
    await setPrice('QBIT', 100);
    const user = await seedUser({ balance: '5000' });
    const pos = await open(user, { ticker: 'QBIT', side: 'long', size: 1000, leverage: 20 });
    const stop = (await place(user, { ticker: 'QBIT', type: 'stop_loss', triggerPrice: 97, positionId: pos.id })).body.order;
    const unprotected = await open(user, { ticker: 'QBIT', side: 'long', size: 1000, leverage: 20 });
    const liq = (await positionRow(pos.id)).liquidationPrice;
    const expected = await expectedClose(pos.id, null, liq);
    expect(expected.total.gt(0)).toBe(true);
    // The mark at the liquidation price, set without the pass: the sweep alone does not take the
    // position whose stop this mark fires, only the other.
    await setMarkQuietly('QBIT', liq);
    const swept = rowsOf<{ id: string }>(await (await getDb()).execute(buildSweepStatement({ ticker: 'QBIT', at: now() })));
    expect(swept.map((r) => r.id)).toEqual([unprotected.id]);
    expect((await positionRow(pos.id)).status).toBe('open');
    // The pass then sweep: the stop closes it (a close, not a liquidation), at that mark.
    expect(await liquidateTicker('QBIT')).toEqual([]);
    expect(await orderRow(stop.id)).toMatchObject({ status: 'triggered' });
    expect(await positionRow(pos.id)).toMatchObject({ status: 'closed', exitPrice: dec(liq).toFixed(18), netPnL: expected.netPnL.toFixed(8) });
    const notes = await noticesOf(user.id);
    expect(notes.map((n) => n.kind).sort()).toEqual(['liquidation', 'order_triggered']);

    // Through the admin price: both at once, the stop first.
    await setPrice('QBIT', 100);
    const again = await open(user, { ticker: 'QBIT', side: 'long', size: 1000, leverage: 20 });
    const stop2 = (await place(user, { ticker: 'QBIT', type: 'stop_loss', triggerPrice: 96, positionId: again.id })).body.order;
    const res = await setPrice('QBIT', atOrBelow((await positionRow(again.id)).liquidationPrice));
    expect(res.liquidatedPositionIds).toEqual([]);
    expect(await orderRow(stop2.id)).toMatchObject({ status: 'triggered' });
    expect((await positionRow(again.id)).status).toBe('closed');
  });

  it("a liquidated position's orders are cancelled, and so are a closed one's", async () => {
    await setPrice('NEXA', 100);
    const user = await seedUser({ balance: '5000' });
    const risky = await open(user, { ticker: 'NEXA', side: 'long', size: 1000, leverage: 25 });
    const tp = (await place(user, { ticker: 'NEXA', type: 'take_profit', triggerPrice: 150, positionId: risky.id })).body.order;
    const stopBelowLiq = (await place(user, { ticker: 'NEXA', type: 'stop_loss', triggerPrice: 50, positionId: risky.id })).body.order;
    const res = await setPrice('NEXA', atOrBelow((await positionRow(risky.id)).liquidationPrice));
    expect(res.liquidatedPositionIds).toEqual([risky.id]);
    expect(await orderRow(tp.id)).toMatchObject({ status: 'cancelled', note: 'its position was liquidated' });
    expect(await orderRow(stopBelowLiq.id)).toMatchObject({ status: 'cancelled', note: 'its position was liquidated' });
    const byHand = await open(user, { ticker: 'NEXA', side: 'short', size: 100, leverage: 2 });
    const stop = (await place(user, { ticker: 'NEXA', type: 'stop_loss', triggerPrice: 150, positionId: byHand.id })).body.order;
    expect((await close(user, byHand.id)).status).toBe(200);
    expect(await orderRow(stop.id)).toMatchObject({ status: 'cancelled', note: 'its position was closed' });
    const events = await orderEvents(user.id);
    expect(events.filter((e) => e.event === 'cancelled').map((e) => e.order.id).sort()).toEqual([tp.id, stopBelowLiq.id, stop.id].sort());
    expect(events.find((e) => e.order.id === stop.id && e.event === 'cancelled')!.order).toEqual(perpOrderDto(await orderRow(stop.id)));
  });

  it('an order whose position closed before it fired is cancelled with a note, and does nothing', async () => {
    await setPrice('KLDR', 100);
    const user = await seedUser({ balance: '2000' });
    const pos = await open(user, { ticker: 'KLDR', side: 'long', size: 500, leverage: 5 });
    expect((await close(user, pos.id)).status).toBe(200);
    // As a placement racing the close can leave it: an open stop on a position already closed.
    const at = now();
    const [orphan] = await (await getDb())
      .insert(perpOrders)
      .values({ userId: user.id, ticker: 'KLDR', type: 'stop_loss', side: 'long', triggerPrice: '90', firesWhen: 'below', positionId: pos.id, status: 'open', createdAt: at, updatedAt: at })
      .returning();
    const ledger = (await ledgerOf(user.id)).length;
    await setPrice('KLDR', 89);
    expect(await orderRow(orphan!.id)).toMatchObject({ status: 'cancelled', note: 'its position was already closed' });
    expect((await ledgerOf(user.id)).length).toBe(ledger);
    expect((await orderEvents(user.id)).at(-1)).toMatchObject({ event: 'cancelled', order: { id: orphan!.id, status: 'cancelled' } });
  });

  it("another trader's fill moving the mark fires a stop (the sweep after every trade runs the pass)", async () => {
    await setPrice('SOLR', 100);
    const user = await seedUser({ balance: '2000' });
    const whale = await seedUser({ balance: '30000' });
    const pos = await open(user, { ticker: 'SOLR', side: 'long', size: 1000, leverage: 2 });
    const stop = (await place(user, { ticker: 'SOLR', type: 'stop_loss', triggerPrice: '99.9', positionId: pos.id })).body.order;
    const big = await open(whale, { ticker: 'SOLR', side: 'short', size: 20_000, leverage: 1 });
    expect(big.entryPrice).toBeLessThan(99.9);
    expect(await orderRow(stop.id)).toMatchObject({ status: 'triggered' });
    expect(await positionRow(pos.id)).toMatchObject({ status: 'closed', exitPrice: dec(big.entryPrice).toFixed(18) });
    await close(whale, big.id);
  });

  it('a limit order opens its position when the mark reaches its price, with the money it reserved', async () => {
    await setPrice('HELX', 100);
    const user = await seedUser({ balance: '1000' });
    const order = (await place(user, { ticker: 'HELX', type: 'limit', side: 'long', size: 1000, leverage: 10, triggerPrice: 90 })).body.order;
    await setPrice('HELX', '90.5');
    expect((await orderRow(order.id)).status).toBe('open');
    await setPrice('HELX', '89.5');
    const filled = await orderRow(order.id);
    expect(filled.status).toBe('filled');
    expect(filled.resultPositionId).not.toBeNull();
    const q = quoteLimit({ side: 'long', size: 1000, leverage: 10 }, '89.5');
    expect(await positionRow(filled.resultPositionId!)).toMatchObject({
      userId: user.id,
      ticker: 'HELX',
      side: 'long',
      status: 'open',
      size: '1000.00000000',
      leverage: '10.0000',
      entryPrice: dec('89.5').toFixed(18),
      units: q.units.toFixed(18),
      margin: '100.00000000',
      collateral: '100.00000000',
      openFee: '1.00000000',
      liquidationPrice: q.liquidationPrice.toFixed(18),
      fundingIndexEntry: (await market('HELX')).fundingIndex,
    });
    // The reserve paid for it: released and spent in one balance update, nothing lost.
    expect((await balanceOf(user.id)).toFixed()).toBe('899');
    expect((await ledgerOf(user.id)).slice(-3).map((r) => [r.type, r.amount, r.balanceAfter])).toEqual([
      ['perp_order_reserve', '-101.00000000', '899.00000000'],
      ['perp_order_refund', '101.00000000', '1000.00000000'],
      ['perp_open', '-101.00000000', '899.00000000'],
    ]);
    expect((await market('HELX')).markPrice).toBe(dec('89.5').toFixed(18));
    const notes = await noticesOf(user.id);
    expect(notes.map((n) => [n.kind, n.title, n.message])).toEqual([['order_filled', 'Limit order filled', 'Your limit order at 90 opened a 10x long of 1,000.00 on HELX at 89.5.']]);
    const events = await orderEvents(user.id);
    expect(events.map((e) => e.event)).toEqual(['placed', 'filled']);
    expect(events[1]!.order).toEqual(perpOrderDto(filled));
    // A limit order the mark already satisfies fills as soon as it is placed.
    const now2 = await place(user, { ticker: 'HELX', type: 'limit', side: 'short', size: 100, leverage: 2, triggerPrice: 80 });
    expect(now2.status).toBe(201);
    expect(now2.body.order.status).toBe('filled');
    expect(now2.body.newBalance).toBe('848.9');
    expect((await balanceOf(user.id)).toFixed()).toBe('848.9');
    const shortPos = await positionRow((await orderRow(now2.body.order.id)).resultPositionId!);
    expect(shortPos).toMatchObject({ side: 'short', entryPrice: dec('89.5').toFixed(18) });
    await close(user, filled.resultPositionId!);
    await close(user, shortPos.id);
  });
});

describe('cancelling', () => {
  it('refunds exactly what was reserved, once; refuses a missing, foreign or closed order', async () => {
    await setPrice('VRSE', 100);
    const user = await seedUser({ balance: '777.77' });
    const other = await seedUser({ balance: '100' });
    const order = (await place(user, { ticker: 'VRSE', type: 'limit', side: 'long', size: '333.33', leverage: 3, triggerPrice: 50, clientOrderId: 'c-1' })).body.order;
    const reserved = (await orderRow(order.id)).reserved;
    expect(reserved).toBe('111.44333000'); // 111.11 + 0.33333
    const cancelled = await withTransaction((tx) => cancelPerpOrder(tx, { userId: user.id, orderId: order.id }));
    expect(cancelled).toMatchObject({ id: order.id, status: 'cancelled' });
    expect((await balanceOf(user.id)).toFixed()).toBe('777.77');
    expect((await ledgerOf(user.id)).at(-1)).toMatchObject({ type: 'perp_order_refund', amount: reserved, referenceType: 'perp_order', referenceId: order.id });
    expect((await orderEvents(user.id)).at(-1)).toMatchObject({ event: 'cancelled', order: cancelled });
    const code = async (userId: string, orderId: string) =>
      withTransaction((tx) => cancelPerpOrder(tx, { userId, orderId })).then(
        () => 'ok',
        (e: { code?: string }) => e.code,
      );
    expect(await code(user.id, order.id)).toBe('ORDER_NOT_OPEN');
    expect(await code(other.id, order.id)).toBe('ORDER_NOT_FOUND');
    expect(await code(user.id, 'no-such-order')).toBe('ORDER_NOT_FOUND');
    expect((await ledgerOf(user.id)).filter((r) => r.type === 'perp_order_refund')).toHaveLength(1);
  });

  it('cancels many by ticker, by clientOrderId or all, each refund its own', async () => {
    await setPrice('KLDR', 100);
    await setPrice('ORBT', 100);
    const user = await seedUser({ balance: '2000' });
    const pos = await open(user, { ticker: 'KLDR', side: 'long', size: 100, leverage: 2 });
    const start = await balanceOf(user.id);
    const a = (await place(user, { ticker: 'KLDR', type: 'limit', side: 'long', size: 100, leverage: 2, triggerPrice: 50 })).body.order;
    const b = (await place(user, { ticker: 'KLDR', type: 'stop_loss', triggerPrice: 60, positionId: pos.id })).body.order;
    const c = (await place(user, { ticker: 'ORBT', type: 'limit', side: 'short', size: 300, leverage: 3, triggerPrice: 150, clientOrderId: 'x' })).body.order;
    const d = (await place(user, { ticker: 'ORBT', type: 'limit', side: 'long', size: 10, leverage: 1, triggerPrice: 60 })).body.order;
    expect(await withTransaction((tx) => cancelPerpOrders(tx, { userId: user.id, clientOrderId: 'x' }))).toEqual([c.id]);
    expect(await withTransaction((tx) => cancelPerpOrders(tx, { userId: user.id, ticker: 'kldr' }))).toEqual([a.id, b.id]);
    expect(await withTransaction((tx) => cancelPerpOrders(tx, { userId: user.id }))).toEqual([d.id]);
    expect(await withTransaction((tx) => cancelPerpOrders(tx, { userId: user.id }))).toEqual([]);
    expect((await balanceOf(user.id)).eq(start)).toBe(true);
    const refunds = (await ledgerOf(user.id)).filter((r) => r.type === 'perp_order_refund');
    expect(refunds.map((r) => [r.referenceId, r.amount]).sort()).toEqual(
      [
        [a.id, '50.10000000'],
        [c.id, '100.30000000'],
        [d.id, '10.01000000'],
      ].sort(),
    );
    await close(user, pos.id);
  });
});

describe('races', () => {
  it('a stop racing manual closes and other passes closes its position once', async () => {
    await setPrice('NEXA', 100);
    for (let i = 0; i < 4; i++) {
      setLimiter(createMemoryLimiter());
      const user = await seedUser({ balance: '3000' });
      const pos = await open(user, { ticker: 'NEXA', side: 'long', size: 1000, leverage: 5 });
      const stop = (await place(user, { ticker: 'NEXA', type: 'stop_loss', triggerPrice: 99, positionId: pos.id })).body.order;
      await setMarkQuietly('NEXA', '98');
      const results = await Promise.all([close(user, pos.id), liquidateTicker('NEXA'), close(user, pos.id), liquidateTicker('NEXA')]);
      const closes = [results[0], results[2]] as Awaited<ReturnType<typeof close>>[];
      const status = (await orderRow(stop.id)).status;
      const db = await getDb();
      const trades = await db.select().from(perpTrades).where(and(eq(perpTrades.positionId, pos.id), eq(perpTrades.action, 'close')));
      expect(trades).toHaveLength(1);
      expect((await ledgerOf(user.id)).filter((r) => r.type === 'perp_close' && r.referenceId === pos.id)).toHaveLength(1);
      expect((await positionRow(pos.id)).status).toBe('closed');
      // Either the stop won (every close refused) or a close did (the stop cancelled with it).
      const won = closes.filter((r) => r.status === 200).length;
      expect(closes.filter((r) => r.status === 400 && r.body.error.code === 'POSITION_CLOSED')).toHaveLength(2 - won);
      expect({ won, status }).toEqual(won === 1 ? { won: 1, status: 'cancelled' } : { won: 0, status: 'triggered' });
      await setPrice('NEXA', 100);
    }
  });

  it('parallel placements never overdraw the reserve, nor share a clientOrderId', async () => {
    await setPrice('ORBT', 100);
    const user = await seedUser({ balance: '300' });
    const body = { ticker: 'ORBT', type: 'limit', side: 'long', size: 1000, leverage: 10, triggerPrice: 50 };
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => place(user, body)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 400, 400, 400]);
    expect(results.filter((r) => r.status === 400).every((r) => r.body.error.code === 'INSUFFICIENT_BALANCE')).toBe(true);
    expect((await balanceOf(user.id)).toFixed()).toBe('98');
    setLimiter(createMemoryLimiter());
    const rich = await seedUser({ balance: '3000' });
    const same = await Promise.all([1, 2, 3].map(() => place(rich, { ...body, clientOrderId: 'once' })));
    expect(same.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(same.filter((r) => r.status === 409).every((r) => r.body.error.code === 'DUPLICATE_CLIENT_ORDER_ID')).toBe(true);
    expect((await balanceOf(rich.id)).toFixed()).toBe('2899');
    await withTransaction((tx) => cancelPerpOrders(tx, { userId: user.id }));
    await withTransaction((tx) => cancelPerpOrders(tx, { userId: rich.id }));
  });

  it('a cancel racing a fill: either the refund or the position, never both', async () => {
    await setPrice('SOLR', 100);
    for (let i = 0; i < 4; i++) {
      const user = await seedUser({ balance: '500' });
      const order = (await place(user, { ticker: 'SOLR', type: 'limit', side: 'long', size: 1000, leverage: 10, triggerPrice: 95 })).body.order;
      await setMarkQuietly('SOLR', '94');
      const [cancelled] = await Promise.all([
        withTransaction((tx) => cancelPerpOrder(tx, { userId: user.id, orderId: order.id })).then(
          () => true,
          (e: { code?: string }) => (e.code === 'ORDER_NOT_OPEN' ? false : Promise.reject(e)),
        ),
        liquidateTicker('SOLR'),
        liquidateTicker('SOLR'),
      ]);
      const row = await orderRow(order.id);
      const opened = await (await getDb()).select().from(perpPositions).where(eq(perpPositions.userId, user.id));
      if (cancelled) {
        expect(row.status).toBe('cancelled');
        expect(opened).toHaveLength(0);
        expect((await balanceOf(user.id)).toFixed()).toBe('500');
      } else {
        expect(row.status).toBe('filled');
        expect(opened.map((p) => p.id)).toEqual([row.resultPositionId]);
        expect((await balanceOf(user.id)).toFixed()).toBe('399');
        await close(user, opened[0]!.id);
      }
      const refunds = (await ledgerOf(user.id)).filter((r) => r.type === 'perp_order_refund');
      expect(refunds).toHaveLength(1);
      await setPrice('SOLR', 100);
    }
  });
});

describe('ledger invariant after all of the above', () => {
  it("every user's balance is the newest row's balanceAfter, every row chained", async () => {
    await expectLedgerChain();
    // Stops, take-profits, limit fills and liquidations kept the tickers' open units and hour rows.
    expect((await expectPerpTickerCounters()).hourRows).toBeGreaterThan(0);
    // Reserves and refunds net to what the open limit orders hold: a cancel refunds its reserve,
    // a fill releases it (and spends it on the open), nothing else touches them.
    const db = await getDb();
    const [held] = rowsOf<{ s: string | null }>(
      await db.execute(sql`select sum(amount)::text as s from ${balanceTransactions} where type in ('perp_order_reserve', 'perp_order_refund')`),
    );
    const [open] = rowsOf<{ s: string | null }>(await db.execute(sql`select sum(reserved)::text as s from ${perpOrders} where status = 'open'`));
    expect(dec(held!.s ?? '0').negated().eq(dec(open!.s ?? '0'))).toBe(true);
  });
});
