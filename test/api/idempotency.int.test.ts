/**
 * Idempotency keys (README "Idempotent writes", issue 20) through the real route handlers, on both
 * databases: every money and points POST replays its first answer for a repeated key and moves
 * nothing; another body under the same key is 422; concurrent repeats trade once; a failed request
 * keeps its key free; keys are per caller and expire after 24 hours; A2A payments honour the key;
 * a replay is the first answer's exact bytes.
 */
import { and, count, eq, sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as a2aRoute } from '@/app/api/a2a/route';
import { POST as closeRoute } from '@/app/api/markets/perps/[positionId]/close/route';
import { POST as openRoute } from '@/app/api/markets/perps/open/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { POST as sellRoute } from '@/app/api/markets/predictions/[id]/sell/route';
import { POST as transferRoute } from '@/app/api/points/transfer/route';
import { POST as depositRoute } from '@/app/api/pools/[id]/deposit/route';
import { POST as withdrawRoute } from '@/app/api/pools/[id]/withdraw/route';
import { POST as awardRoute } from '@/app/api/users/points/award/route';
import { dbKind, getDb } from '@/db/client';
import { balanceTransactions, idempotencyKeys, trades, perpTrades, poolDeposits, users, type TUserRow } from '@/db/schema';
import { endpoints } from '@/lib/contracts';
import { KEY_TTL_MS } from '@/lib/idempotency/key';
import { deleteExpiredKeys } from '@/lib/idempotency/service';
import { createMarket } from '@/lib/markets/service/create-market';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { seedWorld } from '@/lib/world/seed/world';
import { seedPool, seedUser } from '@/test/factories';
import { call, tokenFor, type TCallResult } from '@/test/http';
import { expectLedgerChain } from '@/test/invariants';

beforeAll(async () => {
  await seedWorld(await getDb());
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

type THandler = Parameters<typeof call>[0];

const post = async (handler: THandler, path: string, user: TUserRow, body: unknown, key?: string, params: Record<string, string> = {}) =>
  call(handler, path, { method: 'POST', token: await tokenFor(user), body, params, headers: key === undefined ? {} : { 'idempotency-key': key } });

const newMarket = async () => {
  const m = await createMarket({ caller: null, text: `Will idempotency hold ${crypto.randomUUID()}?`, resolutionDate: new Date(Date.now() + 7 * 86_400_000), liquidity: 1000 });
  return m.id;
};

const buy = (user: TUserRow, marketId: string, body: unknown, key?: string) =>
  post(buyRoute, `/api/markets/predictions/${marketId}/buy`, user, body, key, { id: marketId });

const countRows = async (table: typeof trades | typeof perpTrades | typeof poolDeposits, userId: string) => {
  const db = await getDb();
  const [r] = await db.select({ n: count() }).from(table).where(eq(table.userId, userId));
  return r!.n;
};

const balanceOf = async (userId: string) => {
  const [u] = await (await getDb()).select({ b: users.virtualBalance }).from(users).where(eq(users.id, userId));
  return u!.b;
};

/** The answer a repeat replays: same status, same body, marked as a replay. */
const expectReplay = (first: TCallResult, again: TCallResult) => {
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  expect(again.status).toBe(first.status);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.body).toEqual(first.body);
};

describe('the money and points POSTs that take a key', () => {
  it('are exactly the operations that move money or points (a new one must say whether it does)', () => {
    const keyed = endpoints
      .filter((e) => e.idempotent)
      .map((e) => `${e.method} ${e.path}`)
      .sort();
    for (const route of [
      'POST /api/markets/predictions/{id}/buy',
      'POST /api/markets/predictions/{id}/sell',
      'POST /api/markets/perps/open',
      'POST /api/markets/perps/position',
      'POST /api/markets/perps/{positionId}/close',
      'POST /api/markets/perps/position/{positionId}/close',
      'POST /api/pools/{id}/deposit',
      'POST /api/pools/{id}/withdraw',
      'POST /api/npc/{actorId}/invest',
      'POST /api/points/transfer',
      'POST /api/users/points/award',
      'POST /api/users/{userId}/verify-share',
      'POST /api/waitlist/bonus/email/verify',
      'POST /api/waitlist/bonus/wallet',
    ]) {
      expect(keyed).toContain(route);
    }
  });
});

describe('a repeated key replays the first answer and moves nothing', () => {
  it('prediction buy and sell', async () => {
    const u = await seedUser();
    const marketId = await newMarket();
    const key = crypto.randomUUID();
    const first = await buy(u, marketId, { outcome: 'YES', amount: '25' }, key);
    expect(first.status).toBe(200);
    const balance = await balanceOf(u.id);
    const again = await buy(u, marketId, { outcome: 'YES', amount: '25' }, key);
    expectReplay(first, again);
    expect(await countRows(trades, u.id)).toBe(1);
    expect(await balanceOf(u.id)).toBe(balance);

    // The same body under a new key is a new trade.
    expect((await buy(u, marketId, { outcome: 'YES', amount: '25' }, crypto.randomUUID())).status).toBe(200);
    expect(await countRows(trades, u.id)).toBe(2);

    const sellKey = crypto.randomUUID();
    const sellBody = { positionId: first.body.positionId, shares: '1' };
    const sold = await post(sellRoute, `/api/markets/predictions/${marketId}/sell`, u, sellBody, sellKey, { id: marketId });
    expect(sold.status).toBe(200);
    const soldAgain = await post(sellRoute, `/api/markets/predictions/${marketId}/sell`, u, sellBody, sellKey, { id: marketId });
    expectReplay(sold, soldAgain);
    expect(await countRows(trades, u.id)).toBe(3);
    await expectLedgerChain([u.id]);
  });

  it('perp open and close', async () => {
    const u = await seedUser({ balance: '5000' });
    const body = { ticker: 'NEXA', side: 'long', size: 200, leverage: 3 };
    const key = crypto.randomUUID();
    const opened = await post(openRoute, '/api/markets/perps/open', u, body, key);
    expect(opened.status).toBe(200);
    expectReplay(opened, await post(openRoute, '/api/markets/perps/open', u, body, key));
    expect(await countRows(perpTrades, u.id)).toBe(1);

    const positionId = opened.body.position.id as string;
    const closeKey = crypto.randomUUID();
    const closePath = `/api/markets/perps/${positionId}/close`;
    const closed = await post(closeRoute, closePath, u, undefined, closeKey, { positionId });
    expect(closed.status).toBe(200);
    expectReplay(closed, await post(closeRoute, closePath, u, undefined, closeKey, { positionId }));
    // Without the key the repeat is a second close of a closed position: refused, not replayed.
    const unkeyed = await post(closeRoute, closePath, u, undefined, undefined, { positionId });
    expect(unkeyed.status).toBeGreaterThanOrEqual(400);
    expect(await countRows(perpTrades, u.id)).toBe(2);
    await expectLedgerChain([u.id]);
  });

  it('pool deposit and withdraw', async () => {
    const { pool } = await seedPool();
    const u = await seedUser({ balance: '2000' });
    const key = crypto.randomUUID();
    const path = `/api/pools/${pool.id}/deposit`;
    const dep = await post(depositRoute, path, u, { amount: '150' }, key, { id: pool.id });
    expect(dep.status).toBe(200);
    expectReplay(dep, await post(depositRoute, path, u, { amount: '150' }, key, { id: pool.id }));
    expect(await countRows(poolDeposits, u.id)).toBe(1);

    const depositId = (dep.body.deposit?.id ?? dep.body.depositId) as string;
    const wKey = crypto.randomUUID();
    const wPath = `/api/pools/${pool.id}/withdraw`;
    const wBody = { depositId, shares: '10' };
    const w = await post(withdrawRoute, wPath, u, wBody, wKey, { id: pool.id });
    expect(w.status).toBe(200);
    const before = await balanceOf(u.id);
    expectReplay(w, await post(withdrawRoute, wPath, u, wBody, wKey, { id: pool.id }));
    expect(await balanceOf(u.id)).toBe(before);
    await expectLedgerChain([u.id]);
  });

  it('points award and transfer', async () => {
    const admin = await seedUser({ isAdmin: true });
    const [a, b] = [await seedUser(), await seedUser()];
    const awardKey = crypto.randomUUID();
    const awardBody = { userId: a.id, amount: 100, reason: 'grant' };
    const awarded = await post(awardRoute, '/api/users/points/award', admin, awardBody, awardKey);
    expect(awarded.status).toBe(200);
    expectReplay(awarded, await post(awardRoute, '/api/users/points/award', admin, awardBody, awardKey));

    const key = crypto.randomUUID();
    const body = { toUserId: b.id, amount: 30, reason: 'thanks' };
    const first = await post(transferRoute, '/api/points/transfer', a, body, key);
    expect(first.status).toBe(200);
    expect(first.body.pointsAfter).toBe(70);
    expectReplay(first, await post(transferRoute, '/api/points/transfer', a, body, key));
    const [row] = await (await getDb()).select({ p: users.reputationPoints }).from(users).where(eq(users.id, a.id));
    expect(row!.p).toBe(70);
  });
});

describe('what a key refuses and what it keeps free', () => {
  it('the same key with another body or another operation is 422; nothing moves', async () => {
    const u = await seedUser();
    const marketId = await newMarket();
    const key = crypto.randomUUID();
    expect((await buy(u, marketId, { outcome: 'YES', amount: '10' }, key)).status).toBe(200);
    const other = await buy(u, marketId, { outcome: 'YES', amount: '11' }, key);
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const elsewhere = await post(openRoute, '/api/markets/perps/open', u, { ticker: 'NEXA', side: 'long', size: 100, leverage: 2 }, key);
    expect(elsewhere.status).toBe(422);
    // Key order in the body does not make another request.
    const reordered = await buy(u, marketId, { amount: '10', outcome: 'YES' }, key);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(await countRows(trades, u.id)).toBe(1);
    expect(await countRows(perpTrades, u.id)).toBe(0);
  });

  it('a failed request stores nothing: the same key may be retried once the cause is gone', async () => {
    const u = await seedUser({ balance: '20' });
    const marketId = await newMarket();
    const key = crypto.randomUUID();
    const refused = await buy(u, marketId, { outcome: 'NO', amount: '50' }, key);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('INSUFFICIENT_BALANCE');
    const db = await getDb();
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, u.id))).toHaveLength(0);
    const ok = await buy(u, marketId, { outcome: 'NO', amount: '15' }, key);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keys are per caller: two players may use the same key', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    const marketId = await newMarket();
    const key = 'shared-key-1';
    const ra = await buy(a, marketId, { outcome: 'YES', amount: '5' }, key);
    const rb = await buy(b, marketId, { outcome: 'YES', amount: '5' }, key);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(rb.headers.get('idempotent-replayed')).toBeNull();
    expect(await countRows(trades, b.id)).toBe(1);
  });

  it('a malformed key is 400 before anything runs', async () => {
    const u = await seedUser();
    const marketId = await newMarket();
    for (const bad of ['', ' ', 'a'.repeat(256), 'has space', 'tab\there', 'é']) {
      const res = await buy(u, marketId, { outcome: 'YES', amount: '5' }, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_PARAMETER');
    }
    expect(await countRows(trades, u.id)).toBe(0);
  });

  it('after 24 hours a key is free again, and the tick deletes it', async () => {
    const u = await seedUser();
    const marketId = await newMarket();
    const key = crypto.randomUUID();
    expect((await buy(u, marketId, { outcome: 'YES', amount: '5' }, key)).status).toBe(200);
    const db = await getDb();
    await db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - KEY_TTL_MS - 1000) })
      .where(and(eq(idempotencyKeys.userId, u.id), eq(idempotencyKeys.key, key)));
    const again = await buy(u, marketId, { outcome: 'YES', amount: '5' }, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await countRows(trades, u.id)).toBe(2);

    await db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - KEY_TTL_MS - 1000) })
      .where(and(eq(idempotencyKeys.userId, u.id), eq(idempotencyKeys.key, key)));
    expect(await deleteExpiredKeys(new Date())).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, u.id))).toHaveLength(0);
  });
});

describe('concurrent repeats of one key', () => {
  it('eight at once trade once; every answer is the same trade', async () => {
    const u = await seedUser();
    const marketId = await newMarket();
    const key = crypto.randomUUID();
    const body = { outcome: 'YES', amount: '12' };
    const answers = await Promise.all(Array.from({ length: 8 }, () => buy(u, marketId, body, key)));
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(new Set(answers.map((a) => a.body.trade?.id ?? a.body.positionId)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(7);
    expect(await countRows(trades, u.id)).toBe(1);
    const db = await getDb();
    const [debits] = await db
      .select({ n: count() })
      .from(balanceTransactions)
      .where(and(eq(balanceTransactions.userId, u.id), sql`${balanceTransactions.type} = 'pred_buy'`));
    expect(debits!.n).toBe(1);
    await expectLedgerChain([u.id]);
  });

  it('a double open of one perp position with one key opens one position', async () => {
    const u = await seedUser({ balance: '3000' });
    const key = crypto.randomUUID();
    const body = { ticker: 'NEXA', side: 'short', size: 300, leverage: 5 };
    const [a, b] = await Promise.all([post(openRoute, '/api/markets/perps/open', u, body, key), post(openRoute, '/api/markets/perps/open', u, body, key)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.position.id).toBe(b.body.position.id);
    expect(await countRows(perpTrades, u.id)).toBe(1);
  });
});

describe('keyed requests and the services\' own lock order', () => {
  it('opposite points transfers with keys, all at once, never deadlock (claiming a key locks no user row)', async () => {
    const admin = await seedUser({ isAdmin: true });
    const [a, b] = [await seedUser(), await seedUser()];
    for (const u of [a, b]) expect((await post(awardRoute, '/api/users/points/award', admin, { userId: u.id, amount: 100, reason: 'grant' })).status).toBe(200);
    const sends = Array.from({ length: 12 }, (_, i) => {
      const [from, to] = i % 2 ? [a, b] : [b, a];
      return post(transferRoute, '/api/points/transfer', from, { toUserId: to.id, amount: 1, reason: `r${i}` }, crypto.randomUUID());
    });
    const answers = await Promise.all(sends);
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(200));
  });
});

describe('a repeat while the first still runs', () => {
  it('waits for it: on PostgreSQL 409 IDEMPOTENCY_KEY_IN_USE past the wait, on PGlite (one transaction at a time) it runs after', async () => {
    const u = await seedUser();
    const marketId = await newMarket();
    const key = crypto.randomUUID();
    const db = await getDb();
    let release!: () => void;
    let holding = true;
    const held = new Promise<void>((r) => (release = r));
    // A first request "still running": its claim on the key is written but not committed.
    const holder = db
      .transaction(async (tx) => {
        await tx.insert(idempotencyKeys).values({ userId: u.id, key, operation: 'buy', requestHash: 'x', status: 0, response: 'null', createdAt: new Date() });
        await Promise.race([held, new Promise((r) => setTimeout(r, 6_000))]);
        holding = false;
        throw new Error('rolled back on purpose');
      })
      .catch(() => 'rolled back');
    await new Promise((r) => setTimeout(r, 100));
    const repeat = buy(u, marketId, { outcome: 'YES', amount: '5' }, key);
    if (dbKind() === 'postgres') {
      const res = await repeat;
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      // Answered while the first request still held the key: it did not wait for it to end.
      expect(holding).toBe(true);
      release();
    } else {
      release();
      const res = await repeat;
      expect(res.status).toBe(200);
    }
    expect(await holder).toBe('rolled back');
  });
});

describe('A2A payments honour the Idempotency-Key header', () => {
  const rpc = async (user: TUserRow, body: unknown, key?: string) =>
    call(a2aRoute, '/api/a2a', { method: 'POST', token: await tokenFor(user), body, headers: key ? { 'idempotency-key': key } : {} });

  it('a retried paymentRequest and paymentReceipt move the money once', async () => {
    const [payer, payee] = [await seedUser(), await seedUser()];
    const reqKey = crypto.randomUUID();
    const ask = { jsonrpc: '2.0', id: 1, method: 'a2a.paymentRequest', params: { to: payee.id, amount: '3', service: 'analysis' } };
    const first = await rpc(payer, ask, reqKey);
    expect(first.body.result?.status).toBe('pending');
    const again = await rpc(payer, ask, reqKey);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.result.requestId).toBe(first.body.result.requestId);

    const payKey = crypto.randomUUID();
    const pay = { jsonrpc: '2.0', id: 2, method: 'a2a.paymentReceipt', params: { requestId: first.body.result.requestId } };
    const paid = await rpc(payer, pay, payKey);
    expect(paid.body.result?.status).toBe('paid');
    const before = await balanceOf(payer.id);
    const repaid = await rpc(payer, pay, payKey);
    expect(repaid.headers.get('idempotent-replayed')).toBe('true');
    expect(repaid.body.result).toEqual(paid.body.result);
    expect(await balanceOf(payer.id)).toBe(before);

    // In a batch each call's key is the header's key and the call's id.
    const batch = [
      { jsonrpc: '2.0', id: 'a', method: 'a2a.paymentRequest', params: { to: payee.id, amount: '1', service: 'one' } },
      { jsonrpc: '2.0', id: 'b', method: 'a2a.paymentRequest', params: { to: payee.id, amount: '1', service: 'two' } },
    ];
    const batchKey = crypto.randomUUID();
    const b1 = await rpc(payer, batch, batchKey);
    const b2 = await rpc(payer, batch, batchKey);
    expect(b1.body.map((r: { result: { requestId: string } }) => r.result.requestId)).toEqual(b2.body.map((r: { result: { requestId: string } }) => r.result.requestId));
    expect(new Set(b1.body.map((r: { result: { requestId: string } }) => r.result.requestId)).size).toBe(2);
    await expectLedgerChain([payer.id]);
    await expectLedgerChain([payee.id]);
  });
});

describe('a replay is byte-identical to the first answer (stored as its text, not jsonb)', () => {
  /** A keyed POST answered as raw bytes: the body exactly as a client reads it. */
  const rawPost = async (handler: THandler, path: string, user: TUserRow, body: unknown, key: string, params: Record<string, string> = {}) => {
    const headers = { host: 'localhost:3000', 'x-client-socket-address': '203.0.113.7', authorization: `Bearer ${await tokenFor(user)}`, 'content-type': 'application/json', 'idempotency-key': key };
    const res = await handler(new NextRequest(new URL(`http://localhost:3000${path}`), { method: 'POST', headers, body: JSON.stringify(body) }), { params: Promise.resolve(params) });
    return { status: res.status, text: await res.text(), replayed: res.headers.get('idempotent-replayed') };
  };
  /** The order jsonb keeps an object's keys in: shorter keys first, then by bytes. */
  const jsonbOrder = (keys: string[]) => [...keys].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const storedResponse = async (userId: string, key: string) =>
    (await (await getDb()).select({ response: idempotencyKeys.response }).from(idempotencyKeys).where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key))))[0]!.response;

  it('a REST replay: the same bytes, for an answer whose keys jsonb would reorder', async () => {
    const u = await seedUser();
    const marketId = await newMarket();
    const key = crypto.randomUUID();
    const path = `/api/markets/predictions/${marketId}/buy`;
    const first = await rawPost(buyRoute, path, u, { outcome: 'YES', amount: '25' }, key, { id: marketId });
    expect(first.status).toBe(200);
    const keys = Object.keys(JSON.parse(first.text) as object);
    expect(keys).not.toEqual(jsonbOrder(keys));
    const again = await rawPost(buyRoute, path, u, { outcome: 'YES', amount: '25' }, key, { id: marketId });
    expect([again.status, again.replayed]).toEqual([200, 'true']);
    expect(again.text).toBe(first.text);
    // The stored text is the operation's answer as first sent, inside the envelope's braces.
    expect(`{"success":true,${(await storedResponse(u.id, key)).slice(1)}`).toBe(first.text);
    expect(await countRows(trades, u.id)).toBe(1);
  });

  it('an A2A replay: the same bytes', async () => {
    const [payer, payee] = [await seedUser(), await seedUser()];
    const key = crypto.randomUUID();
    const ask = { jsonrpc: '2.0', id: 7, method: 'a2a.paymentRequest', params: { to: payee.id, amount: '2', service: 'bytes' } };
    const first = await rawPost(a2aRoute, '/api/a2a', payer, ask, key);
    const result = (JSON.parse(first.text) as { result: object }).result;
    expect(Object.keys(result)).not.toEqual(jsonbOrder(Object.keys(result)));
    const again = await rawPost(a2aRoute, '/api/a2a', payer, ask, key);
    expect(again.replayed).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await storedResponse(payer.id, key)).toBe(JSON.stringify(result));
  });
});
