/**
 * Previews (issue 32, CONTRACT "Orders": `dryRun: true`) through the real route handlers, on both
 * databases: a dry run of a buy, a sell, a perp open, a perp close (each path form), a pool
 * deposit and a pool withdrawal answers exactly what the real call made right after answers
 * (ids aside: the clock is pinned, so timestamps match too), with `dryRun: true`, and changes
 * nothing: every table of the database holds the same rows before and after it (balances,
 * positions, trades, ledger, reserves, outbox events, notifications, pool lots, idempotency keys),
 * including what the real call does after its commit (the liquidation sweep). A dry run that
 * would fail answers the real call's error; a dry run's Idempotency-Key is neither stored nor
 * replayed. Also db/dry-run.ts itself: inside a request transaction it is a savepoint.
 */
import { and, count, eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as closeRoute } from '@/app/api/markets/perps/[positionId]/close/route';
import { POST as openRoute } from '@/app/api/markets/perps/open/route';
import { POST as closeByBodyRoute } from '@/app/api/markets/perps/position/route';
import { POST as closeVariantRoute } from '@/app/api/markets/perps/position/[positionId]/close/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { POST as placeOrderRoute } from '@/app/api/markets/predictions/[id]/orders/route';
import { POST as sellRoute } from '@/app/api/markets/predictions/[id]/sell/route';
import { POST as depositRoute } from '@/app/api/pools/[id]/deposit/route';
import { POST as withdrawRoute } from '@/app/api/pools/[id]/withdraw/route';
import { getDb, rowsOf, withRequestTransaction, withTransaction } from '@/db/client';
import { runDryRun } from '@/db/dry-run';
import { idempotencyKeys, perpPositions, predictionOrders, trades, users, type TUserRow } from '@/db/schema';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { credit } from '@/lib/ledger/ledger';
import { dec } from '@/lib/money/decimal';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { createMarket } from '@/lib/markets/service/create-market';
import { resolveMarket } from '@/lib/markets/service/resolve-market';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { callerOfUser } from '@/lib/auth/caller';
import { buyPoolPrediction, openPoolPerp } from '@/lib/pools/service/trade';
import { seedWorld } from '@/lib/world/seed/world';
import { seedPool, seedUser } from '@/test/factories';
import { call, tokenFor, type TCallResult } from '@/test/http';
import { expectLedgerChain, expectPoolBooks } from '@/test/invariants';

beforeAll(async () => {
  await seedWorld(await getDb());
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
  // One instant for the dry run and the real call: their timestamps match as well.
  setFixedTime(new Date());
});

afterEach(() => {
  resetClock();
});

type THandler = Parameters<typeof call>[0];

const post = async (handler: THandler, path: string, user: TUserRow, body: unknown, opts: { params?: Record<string, string>; key?: string } = {}) =>
  call(handler, path, {
    method: 'POST',
    token: await tokenFor(user),
    body,
    params: opts.params ?? {},
    headers: opts.key === undefined ? {} : { 'idempotency-key': opts.key },
  });

const buy = (u: TUserRow, marketId: string, body: Record<string, unknown>, key?: string) =>
  post(buyRoute, `/api/markets/predictions/${marketId}/buy`, u, body, { params: { id: marketId }, key });
const sell = (u: TUserRow, marketId: string, body: Record<string, unknown>) =>
  post(sellRoute, `/api/markets/predictions/${marketId}/sell`, u, body, { params: { id: marketId } });
const open = (u: TUserRow, body: Record<string, unknown>, key?: string) => post(openRoute, '/api/markets/perps/open', u, body, { key });
const closeForms = {
  path: (u: TUserRow, positionId: string, body?: Record<string, unknown>) =>
    post(closeRoute, `/api/markets/perps/${positionId}/close`, u, body, { params: { positionId } }),
  variant: (u: TUserRow, positionId: string, body?: Record<string, unknown>) =>
    post(closeVariantRoute, `/api/markets/perps/position/${positionId}/close`, u, body, { params: { positionId } }),
  body: (u: TUserRow, positionId: string, body?: Record<string, unknown>) =>
    post(closeByBodyRoute, '/api/markets/perps/position', u, { positionId, ...body }),
};
const deposit = (u: TUserRow, poolId: string, body: Record<string, unknown>) =>
  post(depositRoute, `/api/pools/${poolId}/deposit`, u, body, { params: { id: poolId } });
const withdraw = (u: TUserRow, poolId: string, body: Record<string, unknown>) =>
  post(withdrawRoute, `/api/pools/${poolId}/withdraw`, u, body, { params: { id: poolId } });

const newMarket = async () =>
  createMarket({ caller: null, text: `Will the preview hold ${crypto.randomUUID()}?`, resolutionDate: new Date(Date.now() + 7 * 86_400_000), liquidity: 1000 });

/** A user referred by another: the trades pay a referral share, one more writer a preview must not keep. */
const referredUser = async (balance: string) => {
  const referrer = await seedUser({ balance: '0' });
  const u = await seedUser({ balance });
  const [row] = await (await getDb()).update(users).set({ referredById: referrer.id }).where(eq(users.id, u.id)).returning();
  return row!;
};

/**
 * Every table of the database, each as its row count and a digest of its rows: equal before and
 * after a call means the call left no row written, changed or deleted anywhere.
 */
const everything = async () => {
  const db = await getDb();
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`),
  );
  expect(tables.length).toBeGreaterThan(20);
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [r] = rowsOf<{ n: string; digest: string }>(
      await db.execute(sql`select count(*)::text as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${sql.identifier(name)} t`),
    );
    out[name] = `${r!.n} ${r!.digest}`;
  }
  return out;
};

/** A dry run: 200 with `dryRun: true`, and not one row of the database changed. */
const expectPreview = async (run: () => Promise<TCallResult>) => {
  const before = await everything();
  const res = await run();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.dryRun).toBe(true);
  expect(res.headers.get('idempotent-replayed')).toBeNull();
  expect(await everything()).toEqual(before);
  return res;
};

/** The real call: 200, no `dryRun`, and it changed something (so the check above can fail). */
const expectReal = async (run: () => Promise<TCallResult>) => {
  const before = await everything();
  const res = await run();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).not.toHaveProperty('dryRun');
  expect(await everything()).not.toEqual(before);
  return res;
};

/** The answer without `dryRun` and with the named id fields (new rows' random ids) blanked, at any depth. */
const sameBut = (body: Record<string, unknown>, ids: readonly string[] = []) => {
  const blank = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(blank);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'dryRun').map(([k, x]) => [k, ids.includes(k) ? '<id>' : blank(x)]));
  };
  return blank(body);
};

const balanceOf = async (userId: string) => {
  const [u] = await (await getDb()).select({ b: users.virtualBalance }).from(users).where(eq(users.id, userId));
  return u!.b;
};

describe('a dry run answers what the real call answers, and changes nothing', () => {
  it('a prediction buy (a new position, then more of it; the side alias too)', async () => {
    const m = await newMarket();
    const u = await referredUser('1000');
    const preview = await expectPreview(() => buy(u, m.id, { outcome: 'YES', amount: '123.45', dryRun: true }));
    const real = await expectReal(() => buy(u, m.id, { outcome: 'YES', amount: '123.45' }));
    expect(sameBut(preview.body, ['id', 'positionId'])).toEqual(sameBut(real.body, ['id', 'positionId']));
    expect(preview.body.newBalance).toBe('876.55');

    // Into the position that now exists: its id too is the real one.
    const again = await expectPreview(() => buy(u, m.id, { side: 'no', amount: 40, dryRun: true }));
    const againReal = await expectReal(() => buy(u, m.id, { side: 'no', amount: 40 }));
    expect(sameBut(again.body, ['id', 'positionId'])).toEqual(sameBut(againReal.body, ['id', 'positionId']));
    const more = await expectPreview(() => buy(u, m.id, { outcome: 'YES', amount: '10', dryRun: true }));
    const moreReal = await expectReal(() => buy(u, m.id, { outcome: 'YES', amount: '10' }));
    expect(more.body).toEqual({ ...moreReal.body, dryRun: true });
    await expectLedgerChain([u.id, u.referredById!]);
  });

  it('a buy and a sell that meet resting limit orders (the matching engine, in its own transaction)', async () => {
    const m = await newMarket();
    const maker = await seedUser({ balance: '500' });
    const place = (body: Record<string, unknown>) => post(placeOrderRoute, `/api/markets/predictions/${m.id}/orders`, maker, body, { params: { id: m.id } });
    const filled = async (orderId: string) =>
      (await (await getDb()).select({ f: predictionOrders.filledAmount }).from(predictionOrders).where(eq(predictionOrders.id, orderId)))[0]!.f;
    const resting = await place({ outcome: 'NO', amount: 60, limitPrice: 0.6 });
    expect(resting.status).toBe(201);
    const u = await referredUser('1000');
    const preview = await expectPreview(() => buy(u, m.id, { outcome: 'YES', amount: 50, dryRun: true }));
    const real = await expectReal(() => buy(u, m.id, { outcome: 'YES', amount: 50 }));
    expect(sameBut(preview.body, ['id', 'positionId'])).toEqual(sameBut(real.body, ['id', 'positionId']));
    expect(dec(await filled(resting.body.order.id)).gt(0)).toBe(true);

    // A resting order buying YES at a price above the maker's: the sale goes to it.
    const bid = await place({ outcome: 'YES', amount: 100, limitPrice: 0.9 });
    expect(bid.status).toBe(201);
    const body = { outcome: 'YES', shares: 20 };
    const sale = await expectPreview(() => sell(u, m.id, { ...body, dryRun: true }));
    const saleReal = await expectReal(() => sell(u, m.id, body));
    expect(sale.body).toEqual({ ...saleReal.body, dryRun: true });
    expect(dec(await filled(bid.body.order.id)).gt(0)).toBe(true);
    await expectLedgerChain([u.id, maker.id, u.referredById!]);
  });

  it('a prediction sell, by position and by outcome', async () => {
    const m = await newMarket();
    const u = await referredUser('1000');
    const bought = await buy(u, m.id, { outcome: 'NO', amount: '200' });
    expect(bought.status).toBe(200);
    const byPosition = { positionId: bought.body.positionId, shares: '37.5' };
    const preview = await expectPreview(() => sell(u, m.id, { ...byPosition, dryRun: true }));
    const real = await expectReal(() => sell(u, m.id, byPosition));
    expect(preview.body).toEqual({ ...real.body, dryRun: true });

    // The whole rest, named by outcome.
    const rest = String(real.body.remainingShares);
    const all = await expectPreview(() => sell(u, m.id, { outcome: 'NO', shares: rest, dryRun: true }));
    const allReal = await expectReal(() => sell(u, m.id, { outcome: 'NO', shares: rest }));
    expect(all.body).toEqual({ ...allReal.body, dryRun: true });
    expect(allReal.body.remainingShares).toBe(0);
    await expectLedgerChain([u.id, u.referredById!]);
  });

  it('a perp open, including the liquidation sweep the real open runs after its commit', async () => {
    const victim = await seedUser({ balance: '100' });
    const victimOpen = await open(victim, { ticker: 'NEXA', side: 'short', size: 1000, leverage: 100 });
    expect(victimOpen.status).toBe(200);
    const u = await referredUser('10000');
    // 50,000 of NEXA moves its mark by the most a trade may (1%): past the 100x short's liquidation price.
    const body = { ticker: 'nexa', side: 'LONG', amount: 50_000, leverage: 10 };
    const preview = await expectPreview(() => open(u, { ...body, dryRun: true }));
    const victimRow = async () => (await (await getDb()).select().from(perpPositions).where(eq(perpPositions.id, victimOpen.body.position.id)))[0]!;
    expect((await victimRow()).status).toBe('open');
    const real = await expectReal(() => open(u, body));
    expect(sameBut(preview.body, ['id'])).toEqual(sameBut(real.body, ['id']));
    expect(preview.body.position.liquidationPrice).toBe(real.body.position.liquidationPrice);
    expect(preview.body.newBalance).toBe(real.body.newBalance);
    // The real open's sweep liquidated the short: the preview's sweep had, and left no trace.
    expect((await victimRow()).status).toBe('liquidated');
    await expectLedgerChain([u.id, u.referredById!, victim.id]);
  });

  it.each(['path', 'variant', 'body'] as const)('a perp close (the %s form), and a body-less close still closes', async (form) => {
    const u = await referredUser('5000');
    const opened = await open(u, { ticker: 'QBIT', side: 'short', size: 900, leverage: 3 });
    expect(opened.status).toBe(200);
    const id = opened.body.position.id as string;
    const preview = await expectPreview(() => closeForms[form](u, id, { dryRun: true }));
    const real = await expectReal(() => closeForms[form](u, id, form === 'body' ? {} : undefined));
    expect(preview.body).toEqual({ ...real.body, dryRun: true });
    expect(preview.body.position.status).toBe('closed');

    // `{}` and `{dryRun: false}` are the real thing.
    const second = await open(u, { ticker: 'QBIT', side: 'long', size: 100, leverage: 2 });
    const third = await open(u, { ticker: 'QBIT', side: 'long', size: 100, leverage: 2 });
    await expectReal(() => closeForms[form](u, second.body.position.id, {}));
    await expectReal(() => closeForms[form](u, third.body.position.id, { dryRun: false }));
    await expectLedgerChain([u.id, u.referredById!]);
  });

  it('a pool deposit and a withdrawal with a performance fee', async () => {
    const { pool } = await seedPool({ seed: '10000' });
    const u = await referredUser('3000');
    const preview = await expectPreview(() => deposit(u, pool.id, { amount: 1500, dryRun: true }));
    const real = await expectReal(() => deposit(u, pool.id, { amount: 1500 }));
    expect(sameBut(preview.body, ['id'])).toEqual(sameBut(real.body, ['id']));
    expect(preview.body.newBalance).toBe('1500');

    // The pool gains 10%, so the withdrawal pays a fee on the profit (and the referrer a share of it);
    // it holds a perp too, valued at the mark.
    await withTransaction((tx) => credit(tx, { userId: pool.accountUserId, amount: '1150', type: 'bonus', description: 'Test windfall' }));
    expect((await openPoolPerp({ poolId: pool.id, ticker: 'HELX', side: 'long', size: '2000', leverage: '2' })).ok).toBe(true);
    const w = { depositId: real.body.deposit.id, shares: '400.5' };
    const wPreview = await expectPreview(() => withdraw(u, pool.id, { ...w, dryRun: true }));
    const wReal = await expectReal(() => withdraw(u, pool.id, w));
    expect(sameBut(wPreview.body, ['id'])).toEqual(sameBut(wReal.body, ['id']));
    expect(wPreview.body.newBalance).toBe(wReal.body.newBalance);
    expect(wReal.body.withdrawal.performanceFee).toBeGreaterThan(0);
    // (Not expectPoolBooks here: it counts the whole fee as the manager's, and the referrer took half.)
    await expectLedgerChain([u.id, u.referredById!, pool.accountUserId, pool.npcActorId]);
  });

  it("a withdrawal that closes the pool's perp to raise cash (and sweeps after): the preview closes nothing", async () => {
    const { pool } = await seedPool({ seed: '10000' });
    const u = await seedUser({ balance: '5000' });
    const d = await deposit(u, pool.id, { amount: 5000 });
    const perp = await openPoolPerp({ poolId: pool.id, ticker: 'NEXA', side: 'long', size: '26000', leverage: '2' });
    expect(perp.ok).toBe(true);
    const w = { depositId: d.body.deposit.id, shares: 5000 };
    const preview = await expectPreview(() => withdraw(u, pool.id, { ...w, dryRun: true }));
    const status = async () => (await (await getDb()).select().from(perpPositions).where(eq(perpPositions.id, perp.id!)))[0]!.status;
    expect(await status()).toBe('open');
    const real = await expectReal(() => withdraw(u, pool.id, w));
    expect(await status()).toBe('closed');
    expect(sameBut(preview.body, ['id'])).toEqual(sameBut(real.body, ['id']));
    await expectPoolBooks([pool.id]);
  });
});

describe('a dry run that would fail answers the real error', () => {
  /** The same status and error body (code, message, details) for the dry run and the real call, and nothing changed by either. */
  const expectSameError = async (dry: () => Promise<TCallResult>, real: () => Promise<TCallResult>, code: string) => {
    const before = await everything();
    const a = await dry();
    const b = await real();
    expect(a.status).toBeGreaterThanOrEqual(400);
    expect(a.body.error.code).toBe(code);
    expect({ status: a.status, error: a.body.error }).toEqual({ status: b.status, error: b.body.error });
    expect(await everything()).toEqual(before);
  };

  it('buy: INSUFFICIENT_BALANCE, MARKET_CLOSED, NOT_FOUND; sell: INSUFFICIENT_SHARES', async () => {
    const m = await newMarket();
    const u = await seedUser({ balance: '20' });
    await expectSameError(() => buy(u, m.id, { outcome: 'YES', amount: 50, dryRun: true }), () => buy(u, m.id, { outcome: 'YES', amount: 50 }), 'INSUFFICIENT_BALANCE');
    expect((await buy(u, m.id, { outcome: 'YES', amount: 10 })).status).toBe(200);
    await expectSameError(
      () => sell(u, m.id, { outcome: 'YES', shares: 1000, dryRun: true }),
      () => sell(u, m.id, { outcome: 'YES', shares: 1000 }),
      'INSUFFICIENT_SHARES',
    );
    await expectSameError(() => buy(u, 'no-such-market', { outcome: 'NO', amount: 5, dryRun: true }), () => buy(u, 'no-such-market', { outcome: 'NO', amount: 5 }), 'NOT_FOUND');
    await resolveMarket({ marketId: m.id, outcome: 'NO' });
    await expectSameError(() => buy(u, m.id, { outcome: 'NO', amount: 5, dryRun: true }), () => buy(u, m.id, { outcome: 'NO', amount: 5 }), 'MARKET_CLOSED');
  });

  it('perps: INSUFFICIENT_BALANCE, an unknown ticker, POSITION_CLOSED, FORBIDDEN', async () => {
    const u = await seedUser({ balance: '100' });
    const other = await seedUser({ balance: '100' });
    const big = { ticker: 'NEXA', side: 'long', size: 5000, leverage: 2 };
    await expectSameError(() => open(u, { ...big, dryRun: true }), () => open(u, big), 'INSUFFICIENT_BALANCE');
    const unknown = { ticker: 'NOPE', side: 'long', size: 10, leverage: 2 };
    await expectSameError(() => open(u, { ...unknown, dryRun: true }), () => open(u, unknown), 'VALIDATION_ERROR');
    const opened = await open(u, { ticker: 'NEXA', side: 'long', size: 50, leverage: 2 });
    const id = opened.body.position.id as string;
    await expectSameError(() => closeForms.path(other, id, { dryRun: true }), () => closeForms.path(other, id), 'FORBIDDEN');
    expect((await closeForms.path(u, id)).status).toBe(200);
    await expectSameError(() => closeForms.variant(u, id, { dryRun: true }), () => closeForms.variant(u, id), 'POSITION_CLOSED');
  });

  it('pools: INSUFFICIENT_BALANCE, INSUFFICIENT_SHARES, INSUFFICIENT_LIQUIDITY', async () => {
    const { pool } = await seedPool({ seed: '10000' });
    const u = await seedUser({ balance: '3000' });
    await expectSameError(() => deposit(u, pool.id, { amount: 3001, dryRun: true }), () => deposit(u, pool.id, { amount: 3001 }), 'INSUFFICIENT_BALANCE');
    const d = await deposit(u, pool.id, { amount: 3000 });
    const depositId = d.body.deposit.id as string;
    await expectSameError(
      () => withdraw(u, pool.id, { depositId, shares: 3000.5, dryRun: true }),
      () => withdraw(u, pool.id, { depositId, shares: 3000.5 }),
      'INSUFFICIENT_SHARES',
    );
    // The cash goes into prediction shares and a perp: the perp closes, and still the cash falls short.
    expect((await openPoolPerp({ poolId: pool.id, ticker: 'HELX', side: 'long', size: '1000', leverage: '2' })).ok).toBe(true);
    expect((await buyPoolPrediction({ poolId: pool.id, marketId: 'seed-q-3', outcome: 'YES', amount: '11900' })).ok).toBe(true);
    await expectSameError(
      () => withdraw(u, pool.id, { depositId, shares: 3000, dryRun: true }),
      () => withdraw(u, pool.id, { depositId, shares: 3000 }),
      'INSUFFICIENT_LIQUIDITY',
    );
  });

  it('a malformed dryRun is a 400 like any other bad field, and moves nothing', async () => {
    const m = await newMarket();
    const u = await seedUser();
    const opened = await open(u, { ticker: 'NEXA', side: 'long', size: 10, leverage: 2 });
    const before = await everything();
    for (const dryRun of ['true', 1, null]) {
      const res = await buy(u, m.id, { outcome: 'YES', amount: 5, dryRun });
      expect(res.status, JSON.stringify(dryRun)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const res = await closeForms.path(u, opened.body.position.id, { dryRun: true, extra: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(await everything()).toEqual(before);
  });
});

describe('a dry run and the Idempotency-Key', () => {
  const keysOf = async (userId: string) => {
    const [r] = await (await getDb()).select({ n: count() }).from(idempotencyKeys).where(eq(idempotencyKeys.userId, userId));
    return r!.n;
  };
  const tradesOf = async (userId: string) => {
    const [r] = await (await getDb()).select({ n: count() }).from(trades).where(eq(trades.userId, userId));
    return r!.n;
  };

  it('a dry run stores no answer under its key: the real call with the same key afterwards does the real thing', async () => {
    const m = await newMarket();
    const u = await seedUser();
    const key = crypto.randomUUID();
    const body = { outcome: 'YES', amount: '25' };
    const preview = await expectPreview(() => buy(u, m.id, { ...body, dryRun: true }, key));
    expect(await keysOf(u.id)).toBe(0);
    // The same preview again is previewed again, not replayed.
    await expectPreview(() => buy(u, m.id, { ...body, dryRun: true }, key));
    const real = await expectReal(() => buy(u, m.id, body, key));
    expect(real.headers.get('idempotent-replayed')).toBeNull();
    expect(sameBut(preview.body, ['id', 'positionId'])).toEqual(sameBut(real.body, ['id', 'positionId']));
    expect(await tradesOf(u.id)).toBe(1);
    // The key now holds the real answer: a repeat replays it and moves nothing.
    const replay = await buy(u, m.id, body, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(real.body);
    expect(await tradesOf(u.id)).toBe(1);
  });

  it("a dry run with a key already used by a real call previews afresh: it never replays the real answer", async () => {
    const u = await seedUser({ balance: '3000' });
    const key = crypto.randomUUID();
    const body = { ticker: 'MNTL', side: 'short', size: 300, leverage: 4 };
    const real = await open(u, body, key);
    expect(real.status).toBe(200);
    const balance = await balanceOf(u.id);
    const preview = await expectPreview(() => open(u, { ...body, dryRun: true }, key));
    expect(preview.body.position.id).not.toBe(real.body.position.id);
    // What a second open would do now: another debit of the same cost.
    expect(dec(balance).minus(preview.body.newBalance).toFixed()).toBe(dec(3000).minus(balance).toFixed());
    expect(await keysOf(u.id)).toBe(1);
  });
});

describe('runDryRun (db/dry-run.ts)', () => {
  it("answers fn's value or throws fn's error, and writes nothing", async () => {
    const m = await newMarket();
    const u = await seedUser();
    const caller = callerOfUser(u);
    const before = await everything();
    const preview = await runDryRun(() => buyShares({ caller, marketId: m.id, outcome: 'YES', amount: '30' }));
    const refused = await runDryRun(() => buyShares({ caller, marketId: m.id, outcome: 'YES', amount: '3000' })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('INSUFFICIENT_BALANCE');
    expect(await everything()).toEqual(before);
    const real = await buyShares({ caller, marketId: m.id, outcome: 'YES', amount: '30' });
    expect(sameBut(preview, ['id', 'positionId'])).toEqual(sameBut(real, ['id', 'positionId']));
  });

  it('inside a request transaction it is a savepoint: the dry run vanishes, the enclosing work commits', async () => {
    const m = await newMarket();
    const u = await seedUser();
    const caller = callerOfUser(u);
    const { preview, second } = await withRequestTransaction(async () => {
      await buyShares({ caller, marketId: m.id, outcome: 'NO', amount: '10' });
      const preview = await runDryRun(() => buyShares({ caller, marketId: m.id, outcome: 'NO', amount: '20' }));
      const second = await buyShares({ caller, marketId: m.id, outcome: 'NO', amount: '20' });
      return { preview, second };
    });
    expect(preview).toEqual(second);
    const rows = await (await getDb()).select().from(trades).where(and(eq(trades.userId, u.id), eq(trades.marketId, m.id)));
    expect(rows.map((r) => Number(r.amount)).sort()).toEqual([10, 20]);
    expect(dec(await balanceOf(u.id)).toFixed()).toBe(second.newBalance);
    await expectLedgerChain([u.id]);
  });
});
