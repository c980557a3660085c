/**
 * POST /api/a2a: JSON-RPC 2.0 exactly (each error code, batches, notifications), the bearer rule,
 * rate limits per call, and the methods over the same state as REST (balance, positions, market
 * data, moderation both ways, discovery through the registry), with the aliases real clients send;
 * message/send's tasks bounded to what tasks/get answers (issue 29).
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as a2aRoute } from '@/app/api/a2a/route';
import { GET as methodsRoute } from '@/app/api/a2a/methods/route';
import { GET as cardRoute } from '@/app/.well-known/agent-card.json/route';
import { GET as cardAliasRoute } from '@/app/.well-known/agent-card/route';
import { A2A_METHOD_TABLE } from '@/lib/a2a/methods';
import { GET as balanceRoute } from '@/app/api/users/[userId]/balance/route';
import { GET as blockStatusRoute } from '@/app/api/users/[userId]/block/route';
import { GET as positionsRoute } from '@/app/api/markets/positions/[userId]/route';
import { GET as marketRoute } from '@/app/api/markets/predictions/[id]/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { POST as blockRoute } from '@/app/api/users/[userId]/block/route';
import { getDb, rowsOf } from '@/db/client';
import { users, type TUserRow } from '@/db/schema';
import { createMarket } from '@/lib/markets/service/create-market';
import { setLimiter } from '@/lib/operations/rate-limit';
import { setFixedTime } from '@/lib/clock/clock';
import { PAYMENT_TTL_MS } from '@/lib/payments/service';
import { MAX_METHOD_NAME_LENGTH, TASK_OUTCOME_MAX_BYTES } from '@/lib/a2a/service/tasks';
import { refreshAllStandings } from '@/lib/standings/refresh';
import { expectLedgerChain } from '@/test/invariants';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';
import { a2aRpc } from '@/lib/contracts/a2a';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import { createResponseCheck } from '@/test/openapi/response-check';

type TRpc = { jsonrpc: '2.0'; id: string | number | null; result?: any; error?: { code: number; message: string; data?: any } };

const rpc = async (body: unknown, token?: string | null, raw?: string) => {
  const res = await call(a2aRoute, '/api/a2a', { method: 'POST', token: token ?? undefined, body: raw === undefined ? body : raw });
  return res as { status: number; body: any; headers: Headers };
};
const one = async (method: string, params: unknown, token: string, id: string | number = 1) => {
  const res = await rpc({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }, token);
  expect(res.status).toBe(200);
  return res.body as TRpc;
};

let alice: TUserRow;
let bob: TUserRow;
let agent: TUserRow;
let aliceToken: string;
let marketId: string;

beforeAll(async () => {
  alice = await seedUser({ username: 'a2a_alice', balance: '1000' });
  bob = await seedUser({ username: 'a2a_bob' });
  agent = await seedUser({ username: 'a2a_agent_one', displayName: 'Agent One' });
  await (await getDb()).update(users).set({ isAgent: true }).where(eq(users.id, agent.id));
  aliceToken = await tokenFor(alice);
  marketId = (await createMarket({ caller: null, text: 'Will the A2A test pass?', resolutionDate: new Date(Date.now() + 30 * 86_400_000), liquidity: 10000 })).id;
  await refreshAllStandings();
});
beforeEach(() => setLimiter(pinnedLimiter()));

describe('the JSON-RPC protocol', () => {
  it('401 in the REST envelope without a bearer token, or with a bad one', async () => {
    for (const token of [null, 'not-a-token']) {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'a2a.getBalance' }, token);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    }
  });

  it("the signed-in player's session cookie works from our own origin only", async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'a2a.getBalance' };
    const same = await call(a2aRoute, '/api/a2a', { method: 'POST', cookie: `pm_session=${aliceToken}`, headers: { origin: 'http://localhost:3000' }, body });
    expect(same.status).toBe(200);
    expect(same.body.result.balance).toMatch(/^\d/);
    const cross = await call(a2aRoute, '/api/a2a', { method: 'POST', cookie: `pm_session=${aliceToken}`, headers: { origin: 'https://evil.example' }, body });
    expect([cross.status, cross.body.error.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('-32700 for a body that is not JSON, -32600 for what is not a request (an empty batch is one)', async () => {
    const parse = await rpc(undefined, aliceToken, '{"jsonrpc": "2.0", "method": ');
    expect([parse.status, parse.body]).toEqual([200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } }]);
    for (const bad of [1, true, { jsonrpc: '1.0', id: 1, method: 'a' }, { jsonrpc: '2.0', id: 1 }, { jsonrpc: '2.0', id: 1, method: 'a', params: 5 }, { jsonrpc: '2.0', id: {}, method: 'a' }]) {
      const res = await rpc(bad, aliceToken);
      expect(res.status, JSON.stringify(bad)).toBe(200);
      expect(res.body.error.code).toBe(-32600);
    }
    const idEcho = await rpc({ jsonrpc: '2.0', id: 'k', method: 7 }, aliceToken);
    expect(idEcho.body.id).toBe('k');
    const empty = await rpc([], aliceToken);
    expect(empty.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('-32601 for an unknown method, -32602 for wrong params (a wrong type is never -32603)', async () => {
    expect((await one('a2a.noSuchMethod', {}, aliceToken)).error).toMatchObject({ code: -32601 });
    for (const params of [{ marketId: 5 }, { marketId: marketId, extra: true }, {}, [1, 2]]) {
      const res = await one('a2a.getMarketData', params, aliceToken);
      expect(res.error?.code, JSON.stringify(params)).toBe(-32602);
    }
    const invalid = await one('a2a.getMarketData', { marketId: 5 }, aliceToken);
    expect(invalid.error!.data).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
  });

  it('a batch answers each call by id, none for notifications; only notifications answer 204', async () => {
    const res = await rpc(
      [
        { jsonrpc: '2.0', id: 'a', method: 'a2a.getMarketPrices', params: { marketId } },
        { jsonrpc: '2.0', method: 'a2a.getMarketPrices', params: { marketId } },
        { jsonrpc: '2.0', id: 2, method: 'nope' },
        { foo: 1 },
      ],
      aliceToken,
    );
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(3);
    expect(res.body[0]).toMatchObject({ id: 'a', result: { marketId } });
    expect(res.body[1]).toMatchObject({ id: 2, error: { code: -32601 } });
    expect(res.body[2]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();

    const notes = await rpc([{ jsonrpc: '2.0', method: 'a2a.getMarketPrices', params: { marketId } }], aliceToken);
    expect(notes.status).toBe(204);
  });

  it('domain failures are -32000 with the REST code and status', async () => {
    const missing = await one('a2a.getMarketData', { marketId: 'no-such-market' }, aliceToken);
    expect(missing.error).toMatchObject({ code: -32000, data: { code: 'NOT_FOUND', status: 404 } });
    const other = await one('a2a.getBalance', { userId: bob.id }, aliceToken);
    expect(other.error).toMatchObject({ code: -32000, data: { code: 'FORBIDDEN', status: 403 } });
  });

  it('each call counts as one request against the caller’s limit; over it, -32000 with RATE_LIMIT_EXCEEDED', async () => {
    const u = await seedUser();
    const token = await tokenFor(u);
    // The block rule allows 10 a minute (as REST's): a batch of 12 blocks refuses the last ones.
    const targets = await Promise.all(Array.from({ length: 12 }, () => seedUser()));
    const res = await rpc(
      targets.map((t, i) => ({ jsonrpc: '2.0', id: i, method: 'moderation.blockUser', params: { userId: t.id } })),
      token,
    );
    const codes = res.body.map((r: TRpc) => (r.error ? r.error.data?.code : 'ok'));
    expect(codes.filter((c: string) => c === 'ok')).toHaveLength(10);
    expect(codes.slice(10)).toEqual(['RATE_LIMIT_EXCEEDED', 'RATE_LIMIT_EXCEEDED']);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('an answer in which no call ran still carries X-RateLimit-* and counts once (401, -32700, -32600, -32601, 413)', async () => {
    const u = await seedUser();
    const token = await tokenFor(u);
    const limitOf = (h: Headers) => [h.get('x-ratelimit-limit'), h.get('x-ratelimit-remaining')];
    // Without a token: the public rule, by address, as REST counts an anonymous request.
    const anon = await rpc({ jsonrpc: '2.0', id: 1, method: 'a2a.getBalance' }, null);
    expect(anon.status).toBe(401);
    expect(anon.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    // With one: the authenticated rule, one request per answer whatever the body held.
    const parse = await rpc(undefined, token, '{"jsonrpc"');
    const [limit, first] = limitOf(parse.headers);
    expect(Number(limit)).toBeGreaterThan(0);
    const invalid = await rpc([], token);
    const unknown = await rpc([{ jsonrpc: '2.0', id: 1, method: 'no.such' }, { jsonrpc: '2.0', id: 2, method: 'no.other' }], token);
    expect(unknown.body.map((r: TRpc) => r.error?.code)).toEqual([-32601, -32601]);
    expect([limitOf(invalid.headers)[1], limitOf(unknown.headers)[1]]).toEqual([String(Number(first) - 1), String(Number(first) - 2)]);
    const huge = await rpc(undefined, token, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'a2a.discover', params: { pad: 'x'.repeat(80 * 1024) } }));
    expect(huge.status).toBe(413);
    expect(limitOf(huge.headers)[1]).toBe(String(Number(first) - 3));
  });
});

describe('the OpenAPI document', () => {
  it('describes every kind of answer POST /api/a2a gives: results, errors, batches, 401, 413', async () => {
    const check = createResponseCheck(() => buildOpenApiDocument('0.0.0-test'));
    const answers = [
      await rpc({ jsonrpc: '2.0', id: 1, method: 'a2a.getBalance' }, aliceToken),
      await rpc({ jsonrpc: '2.0', id: 'x', method: 'no.such' }, aliceToken),
      await rpc([{ jsonrpc: '2.0', id: 1, method: 'a2a.getMarketPrices', params: { marketId } }, { jsonrpc: '2.0', id: 2, method: 'a2a.getInfo', params: {} }, 7], aliceToken),
      await rpc(undefined, aliceToken, 'not json'),
      await rpc({ jsonrpc: '2.0', id: 1, method: 'a2a.getBalance' }, null),
      await rpc(undefined, aliceToken, JSON.stringify({ pad: 'x'.repeat(70 * 1024) })),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 401, 413]);
    for (const a of answers) expect(check(a2aRpc, a.status, a.body), JSON.stringify(a.body).slice(0, 200)).toBeNull();
    // The check can fail: an answer outside the protocol's shape is refused.
    expect(check(a2aRpc, 200, { jsonrpc: '1.0', id: 1, result: 1 })).not.toBeNull();
  });
});

describe('the methods, over the same state as REST', () => {
  it('a2a.getBalance equals the REST balance; a2a.getPositions the REST positions; getUserWallet both', async () => {
    const buy = await call(buyRoute, `/api/markets/predictions/${marketId}/buy`, { method: 'POST', token: aliceToken, params: { id: marketId }, body: { outcome: 'YES', amount: 25 } });
    expect(buy.status).toBe(200);
    const rest = await call(balanceRoute, `/api/users/${alice.id}/balance`, { token: aliceToken, params: { userId: alice.id } });
    const viaRpc = await one('a2a.getBalance', undefined, aliceToken); // no params: one's own
    expect(viaRpc.result.balance).toBe(rest.body.balance);
    expect(viaRpc.result.lifetimePnL).toBe(rest.body.lifetimePnL);
    expect(viaRpc.result.transactions[0]).toEqual(rest.body.transactions[0]);

    const restPositions = await call(positionsRoute, `/api/markets/positions/${alice.id}`, { token: aliceToken, params: { userId: alice.id } });
    const { success: _s, ...expected } = restPositions.body;
    // REST's answer, and Babylon's names of the same lists (CONTRACT.md "Compatibility").
    expect((await one('a2a.getPositions', { userId: alice.id }, aliceToken)).result).toEqual({ ...expected, marketPositions: expected.predictions, perpPositions: expected.perps });

    const wallet = await one('a2a.getUserWallet', { userId: alice.id }, aliceToken);
    expect(wallet.result).toMatchObject({ userId: alice.id, balance: { balance: rest.body.balance }, positions: { predictions: expected.predictions } });
    expect((await one('a2a.getUserWallet', { userId: bob.id }, aliceToken)).error).toMatchObject({ data: { code: 'FORBIDDEN' } });
  });

  it('a2a.getMarketData has the REST yesPrice; getMarketPrices both outcomes; subscribeMarket says where to listen', async () => {
    const rest = await call(marketRoute, `/api/markets/predictions/${marketId}`, { params: { id: marketId } });
    const data = await one('a2a.getMarketData', { marketId }, aliceToken);
    expect(data.result).toMatchObject({
      marketId,
      question: 'Will the A2A test pass?',
      outcomes: ['YES', 'NO'],
      prices: [rest.body.market.yesPrice, rest.body.market.noPrice],
      pricesByOutcome: { YES: rest.body.market.yesPrice, NO: rest.body.market.noPrice },
      volume: rest.body.market.volume,
      liquidity: rest.body.market.liquidity,
      resolved: false,
    });
    const prices = await one('a2a.getMarketPrices', { id: marketId }, aliceToken); // `id` is an alias
    expect(prices.result.prices).toEqual([
      { outcome: 'YES', price: rest.body.market.yesPrice },
      { outcome: 'NO', price: rest.body.market.noPrice },
    ]);
    const sub = await one('a2a.subscribeMarket', { marketId }, aliceToken);
    expect(sub.result).toMatchObject({ subscribed: true, marketId, stream: { channel: 'markets', event: 'market_update' } });
    expect(sub.result.stream.url).toMatch(/\/api\/sse\/events\?channels=markets$/);
  });

  it('a block made over A2A shows in REST and back; the a2a.* aliases and `targetUserId` work', async () => {
    const u = await seedUser();
    const token = await tokenFor(u);
    const blocked = await one('a2a.blockUser', { targetUserId: bob.id, reason: 'spam' }, token);
    expect(blocked.result).toMatchObject({ block: { blockerId: u.id, blockedId: bob.id } });
    const rest = await call(blockStatusRoute, `/api/users/${bob.id}/block`, { token, params: { userId: bob.id } });
    expect(rest.body.isBlocked).toBe(true);
    expect((await one('moderation.getBlocks', {}, token)).result.blocks.map((b: { blocked: { id: string } }) => b.blocked.id)).toEqual([bob.id]);
    expect((await one('moderation.blockUser', { userId: bob.id }, token)).error).toMatchObject({ code: -32000, data: { code: 'ALREADY_BLOCKED', status: 409 } });

    const un = await call(blockRoute, `/api/users/${bob.id}/block`, { method: 'POST', token, params: { userId: bob.id }, body: { action: 'unblock' } });
    expect(un.status).toBe(200);
    expect((await one('moderation.checkBlockStatus', { userId: bob.id }, token)).result).toMatchObject({ isBlocked: false });

    expect((await one('moderation.muteUser', { userId: bob.id }, token)).result).toMatchObject({ mute: { mutedId: bob.id } });
    expect((await one('moderation.checkMuteStatus', { userId: bob.id }, token)).result.isMuted).toBe(true);
    expect((await one('moderation.getMutes', { limit: 5 }, token)).result.mutes).toHaveLength(1);
    expect((await one('a2a.unmuteUser', { userId: bob.id }, token)).result).toMatchObject({ mute: { mutedId: bob.id } });

    const report = await one('moderation.reportUser', { userId: bob.id, category: 'spam', description: 'Posting the same link forty times' }, token);
    expect(report.result.report).toMatchObject({ reportType: 'user', reportedUserId: bob.id, category: 'spam', status: 'pending' });
    const again = await one('moderation.reportUser', { userId: bob.id, category: 'spam', reason: 'Posting the same link forty times' }, token);
    expect(again.error).toMatchObject({ data: { code: 'DUPLICATE_REPORT', status: 409 } });
    expect((await one('moderation.reportPost', { postId: 'no-such-post', category: 'spam', reason: 'Posting the same link forty times' }, token)).error).toMatchObject({
      data: { code: 'POST_NOT_FOUND' },
    });
  });

  it('a2a.discover lists agents from the registry (filters at the top level too); a2a.getInfo one in full', async () => {
    const all = await one('a2a.discover', undefined, aliceToken);
    expect(all.result.agents.map((a: { id: string }) => a.id)).toContain(agent.id);
    expect(all.result.total).toBe(all.result.agents.length);
    expect(all.result.agents[0]).toMatchObject({ type: 'agent', a2a: { methods: expect.arrayContaining(['a2a.getMarketData']) } });
    const none = await one('a2a.discover', { minReputation: 1000 }, aliceToken);
    expect(none.result).toEqual({ agents: [], total: 0 });
    const nested = await one('a2a.discover', { filters: { minReputation: 0, strategies: ['momentum'] }, limit: 1 }, aliceToken);
    expect(nested.result.agents).toHaveLength(1);

    const info = await one('a2a.getInfo', { agentId: agent.id }, aliceToken);
    expect(info.result).toMatchObject({ agentId: agent.id, type: 'agent', name: 'Agent One', active: true, reputation: { score: expect.any(Number) } });
    expect((await one('a2a.getInfo', { agentId: 'nobody' }, aliceToken)).error).toMatchObject({ data: { code: 'NOT_FOUND', status: 404 } });
  });

  it('a banned caller may read but not write', async () => {
    const u = await seedUser({ isBanned: true });
    const token = await tokenFor(u);
    expect((await one('a2a.getMarketPrices', { marketId }, token)).result.marketId).toBe(marketId);
    expect((await one('moderation.muteUser', { userId: bob.id }, token)).error).toMatchObject({ code: -32000, data: { code: 'USER_BANNED', status: 403 } });
  });
});

describe('a2a.paymentRequest and a2a.paymentReceipt', () => {
  const balanceOf = async (u: TUserRow) => (await getDb()).select({ b: users.virtualBalance }).from(users).where(eq(users.id, u.id)).then((r) => r[0]!.b);

  it('the payer settles once, parallel receipts included; the recipient verifies; money is conserved', async () => {
    const payer = await seedUser({ balance: '100' });
    const payee = await seedUser({ balance: '0' });
    const token = await tokenFor(payer);
    const req = await one('a2a.paymentRequest', { recipient: payee.username, amount: '12.5', description: 'market analysis' }, token);
    expect(req.result).toMatchObject({ amount: '12.5', to: payee.id, service: 'market analysis', status: 'pending' });
    expect(Date.parse(req.result.expiresAt)).toBeGreaterThan(Date.now());

    const payeeToken = await tokenFor(payee);
    expect((await one('a2a.paymentReceipt', { requestId: req.result.requestId }, payeeToken)).result).toMatchObject({ verified: false, status: 'pending' });

    const receipts = await Promise.all(Array.from({ length: 5 }, (_, i) => one('a2a.paymentReceipt', { paymentId: req.result.requestId, txHash: '0xabc' }, token, i)));
    expect(receipts.every((r) => r.result?.verified === true && r.result.status === 'paid')).toBe(true);
    expect(new Set(receipts.map((r) => r.result.transactionId)).size).toBe(1);
    expect(await balanceOf(payer)).toBe('87.50000000');
    expect(await balanceOf(payee)).toBe('12.50000000');
    expect((await one('a2a.paymentReceipt', { requestId: req.result.requestId }, payeeToken)).result).toMatchObject({ verified: true, status: 'paid' });
    await expectLedgerChain([payer.id, payee.id]);
  });

  it('refuses: an expired request, more than the balance, oneself, a stranger, bad amounts', async () => {
    const payer = await seedUser({ balance: '10' });
    const payee = await seedUser({ balance: '0' });
    const token = await tokenFor(payer);
    const big = await one('a2a.paymentRequest', { to: payee.id, amount: 11, service: 'too much' }, token);
    const broke = await one('a2a.paymentReceipt', { requestId: big.result.requestId }, token);
    expect(broke.error).toMatchObject({ code: -32000, data: { code: 'INSUFFICIENT_BALANCE', status: 400 } });
    expect((await one('a2a.paymentReceipt', { requestId: big.result.requestId }, await tokenFor(bob))).error).toMatchObject({ data: { code: 'PAYMENT_NOT_FOUND', status: 404 } });
    expect((await one('a2a.paymentRequest', { to: payer.id, amount: 1, service: 'me' }, token)).error).toMatchObject({ data: { code: 'CANNOT_PAY_SELF' } });
    for (const amount of [0, -1, 'abc', 2_000_000]) {
      expect((await one('a2a.paymentRequest', { to: payee.id, amount, service: 'x' }, token)).error?.code, String(amount)).toBe(-32602);
    }
    const late = await one('a2a.paymentRequest', { to: payee.id, amount: 1, service: 'late' }, token);
    setFixedTime(new Date(Date.now() + PAYMENT_TTL_MS + 60_000));
    try {
      const expired = await one('a2a.paymentReceipt', { requestId: late.result.requestId }, token);
      expect(expired.error).toMatchObject({ code: -32000, data: { code: 'PAYMENT_EXPIRED', status: 410 } });
    } finally {
      setFixedTime(undefined);
    }
    expect(await balanceOf(payer)).toBe('10.00000000');
    await expectLedgerChain([payer.id, payee.id]);
  });
});

describe('the agent card', () => {
  it('is public, names the absolute JSON-RPC endpoint and its bearer scheme, with one skill per method group listing every method', async () => {
    const res = await call(cardRoute, '/.well-known/agent-card.json');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      protocolVersion: '0.3.0',
      url: 'http://localhost:3000/api/a2a',
      preferredTransport: 'JSONRPC',
      capabilities: { streaming: true, pushNotifications: true },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      security: [{ bearer: [] }],
    });
    expect(res.body.success).toBeUndefined();
    const listed = res.body.skills.flatMap((s: { examples: string[] }) => s.examples.map((e) => e.split(':')[0]));
    expect(listed.sort()).toEqual(A2A_METHOD_TABLE.map((m) => m.name).sort());
    expect(res.body.skills.map((s: { id: string }) => s.id).sort()).toEqual(['discovery', 'markets', 'moderation', 'orders', 'payments', 'portfolio', 'trading']);
    const alias = await call(cardAliasRoute, '/.well-known/agent-card');
    expect(alias.body).toEqual(res.body);
  });
});

describe('the A2A protocol methods', () => {
  const send = (parts: unknown[], token: string, extra: Record<string, unknown> = {}) =>
    one('message/send', { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts, ...extra } }, token);

  it('message/send runs the method a data part names and answers a completed task holding exactly the direct result', async () => {
    const direct = await one('a2a.getMarketPrices', { marketId }, aliceToken);
    const res = await send([{ kind: 'data', data: { method: 'a2a.getMarketPrices', params: { marketId } } }], aliceToken, { contextId: 'ctx-1' });
    expect(res.result).toMatchObject({ kind: 'task', contextId: 'ctx-1', status: { state: 'completed' }, metadata: { method: 'a2a.getMarketPrices' } });
    const data = res.result.artifacts[0].parts[0].data;
    expect({ ...data, timestamp: undefined }).toEqual({ ...direct.result, timestamp: undefined });

    const got = await one('tasks/get', { id: res.result.id }, aliceToken);
    expect(got.result).toEqual(res.result);
    expect((await one('tasks/get', { id: res.result.id }, await tokenFor(bob))).error).toMatchObject({ code: -32001 });
    expect((await one('tasks/cancel', { id: res.result.id }, aliceToken)).error).toMatchObject({ code: -32002 });
    expect((await one('tasks/cancel', { id: 'no-such-task' }, aliceToken)).error).toMatchObject({ code: -32001 });
  });

  it('a failed call makes a failed task carrying the error; {operation} works too; no data part lists the methods', async () => {
    const failed = await send([{ kind: 'data', data: { operation: 'a2a.getMarketData', params: { marketId: 'nope' } } }], aliceToken);
    expect(failed.result.status).toMatchObject({ state: 'failed' });
    expect(failed.result.status.message.parts[0].data.error).toMatchObject({ code: -32000, data: { code: 'NOT_FOUND' } });
    expect(failed.result.artifacts).toEqual([]);
    const unknown = await send([{ kind: 'data', data: { method: 'message/send' } }], aliceToken);
    expect(unknown.result.status.message.parts[0].data.error).toMatchObject({ code: -32601 });

    const hello = await send([{ kind: 'text', text: 'what can you do?' }], aliceToken);
    expect(hello.result).toMatchObject({ kind: 'message', role: 'agent' });
    expect(hello.result.parts[0].text).toContain('a2a.getMarketData');
    expect((await one('message/send', {}, aliceToken)).error).toMatchObject({ code: -32602 });
  });

  it('a task keeps only what tasks/get answers, at most 4 KiB: a 60 KB message stores no more, and reads back byte for byte', async () => {
    const db = await getDb();
    // Incompressible text, so no storage could make it small by compressing it.
    const noise = Buffer.from(crypto.getRandomValues(new Uint8Array(45_000))).toString('base64');
    expect(noise.length).toBeGreaterThanOrEqual(60_000);
    const res = await send([{ kind: 'text', text: noise }, { kind: 'data', data: { method: 'a2a.getMarketPrices', params: { marketId } } }], aliceToken, { contextId: 'ctx-big' });
    expect(res.result).toMatchObject({ kind: 'task', contextId: 'ctx-big', status: { state: 'completed' } });
    expect(res.result.history).toBeUndefined();
    // The whole row, every column as text (uncompressed): the message is not in it.
    const [row] = rowsOf<{ bytes: number; outcome: string }>(await db.execute(sql`select octet_length(row_to_json(t)::text)::int as bytes, outcome from a2a_tasks t where id = ${res.result.id}`));
    expect(row!.bytes).toBeLessThanOrEqual(TASK_OUTCOME_MAX_BYTES);
    expect(row!.outcome).not.toContain(noise.slice(0, 100));
    // Stored as the text first answered: tasks/get gives back the same bytes (jsonb reordered the keys).
    expect(row!.outcome).toBe(JSON.stringify({ result: res.result.artifacts[0].parts[0].data }));
    const got = await one('tasks/get', { id: res.result.id }, aliceToken);
    expect(JSON.stringify(got.result)).toBe(JSON.stringify(res.result));
  });

  it('a result over the cap is answered in full by message/send; the stored task keeps a note of its size, never the result', async () => {
    const db = await getDb();
    for (let i = 0; i < 8; i++) {
      const bot = await seedUser({ username: `a2a_cap_bot_${i}`, displayName: `Cap Bot ${i}` });
      await db.update(users).set({ isAgent: true }).where(eq(users.id, bot.id));
    }
    await refreshAllStandings();
    const res = await send([{ kind: 'data', data: { method: 'a2a.discover', params: { limit: 100 } } }], aliceToken);
    const full = JSON.stringify(res.result.artifacts[0].parts[0].data);
    expect(Buffer.byteLength(full)).toBeGreaterThan(TASK_OUTCOME_MAX_BYTES);
    expect(res.result.artifacts[0].parts[0].data.agents.length).toBeGreaterThanOrEqual(9);

    const [row] = rowsOf<{ bytes: number }>(await db.execute(sql`select octet_length(row_to_json(t)::text)::int as bytes from a2a_tasks t where id = ${res.result.id}`));
    expect(row!.bytes).toBeLessThanOrEqual(TASK_OUTCOME_MAX_BYTES);
    const got = await one('tasks/get', { id: res.result.id }, aliceToken);
    expect(got.result).toMatchObject({ id: res.result.id, status: { state: 'completed' }, metadata: { method: 'a2a.discover' } });
    expect(got.result.artifacts).toEqual([
      { artifactId: `${res.result.id}-result`, name: 'a2a.discover', parts: [{ kind: 'text', text: expect.stringContaining('message/send answered it in full') }], metadata: { omitted: true, bytes: Buffer.byteLength(full) } },
    ]);
  });

  it('an oversize error keeps its codes and message; an oversize method name is -32602 and stores nothing', async () => {
    const db = await getDb();
    const junk = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`unknown_field_${i}_${'x'.repeat(40)}`, i]));
    const failed = await send([{ kind: 'data', data: { method: 'a2a.getMarketPrices', params: { marketId, ...junk } } }], aliceToken);
    expect(failed.result.status.message.parts[0].data.error).toMatchObject({ code: -32602, data: { code: 'VALIDATION_ERROR', status: 400 } });
    const [row] = rowsOf<{ bytes: number }>(await db.execute(sql`select octet_length(row_to_json(t)::text)::int as bytes from a2a_tasks t where id = ${failed.result.id}`));
    expect(row!.bytes).toBeLessThanOrEqual(TASK_OUTCOME_MAX_BYTES);
    const got = await one('tasks/get', { id: failed.result.id }, aliceToken);
    expect(got.result.status).toMatchObject({ state: 'failed', message: { parts: [{ data: { error: { code: -32602, message: expect.stringMatching(/^Invalid params/), data: { code: 'VALIDATION_ERROR', status: 400 } } } }] } });

    const count = async () => rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from a2a_tasks`))[0]!.n;
    const before = await count();
    const long = await send([{ kind: 'data', data: { method: `a2a.${'m'.repeat(MAX_METHOD_NAME_LENGTH)}` } }], aliceToken);
    expect(long.error).toMatchObject({ code: -32602, data: { code: 'VALIDATION_ERROR' } });
    expect(await count()).toBe(before);
  });

  it('message/stream answers one SSE event, the final task, and ends', async () => {
    const res = await call(a2aRoute, '/api/a2a', {
      method: 'POST',
      token: aliceToken,
      body: { jsonrpc: '2.0', id: 7, method: 'message/stream', params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'data', data: { method: 'a2a.getMarketPrices', params: { marketId } } }] } } },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = String(res.body).split('\n\n').filter((e) => e.startsWith('data:'));
    expect(events).toHaveLength(1);
    const answer = JSON.parse(events[0]!.slice('data:'.length));
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 7, result: { kind: 'task', status: { state: 'completed' } } });
  });

  it('0.3 resubscription and push notifications answer their "not supported" codes (1.0 has them)', async () => {
    expect((await one('tasks/resubscribe', { id: 'x' }, aliceToken)).error).toMatchObject({ code: -32004 });
    expect((await one('tasks/pushNotificationConfig/set', {}, aliceToken)).error).toMatchObject({ code: -32003 });
  });
});

describe('GET /api/a2a/methods', () => {
  it('lists every method of the table with its params as JSON Schema, publicly', async () => {
    const res = await call(methodsRoute, '/api/a2a/methods');
    expect(res.status).toBe(200);
    expect(res.body.methods.map((m: { name: string }) => m.name)).toEqual(A2A_METHOD_TABLE.map((m) => m.name));
    const block = res.body.methods.find((m: { name: string }) => m.name === 'moderation.blockUser');
    expect(block).toMatchObject({ aliases: ['a2a.blockUser'], kind: 'write', group: 'moderation', params: { type: 'object', required: ['userId'] } });
    expect(res.body.protocolMethods.map((m: { name: string }) => m.name)).toEqual(['message/send', 'tasks/get', 'tasks/cancel']);
  });
});
