/**
 * POST /api/a2a speaking A2A 1.0 beside 0.3 (issue 33): the 1.0 methods by name, in 1.0's
 * ProtoJSON shapes, over the same tasks (SendMessage's data part runs the table's method as
 * message/send does), the A2A-Version header, the stream of SendStreamingMessage, push
 * notification configs and their signed deliveries, and the signed card with its JWKS.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { base64url, createLocalJWKSet, flattenedVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as a2aRoute } from '@/app/api/a2a/route';
import { GET as cardRoute } from '@/app/.well-known/agent-card.json/route';
import { GET as jwksRoute } from '@/app/.well-known/jwks.json/route';
import { getDb } from '@/db/client';
import { a2aPushConfigs, a2aPushDeliveries, a2aTasks, type TUserRow } from '@/db/schema';
import { MAX_ATTEMPTS, backoffMs, deliverPendingPushes } from '@/lib/a2a/push/deliver';
import { MAX_CONFIGS_PER_CALLER } from '@/lib/a2a/push/configs';
import { deleteOldTasks } from '@/lib/a2a/retention';
import { cardSigningPayload } from '@/lib/a2a/v1/canonical';
import { createMarket } from '@/lib/markets/service/create-market';
import { setLimiter } from '@/lib/operations/rate-limit';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';

type TRpc = { jsonrpc: '2.0'; id: string | number | null; result?: any; error?: { code: number; message: string; data?: any } };

const V1 = { 'A2A-Version': '1.0' };
const rpc = async (method: string, params: unknown, token: string, headers: Record<string, string> = V1, id: number | string = 1) => {
  const res = await call(a2aRoute, '/api/a2a', { method: 'POST', token, headers, body: { jsonrpc: '2.0', id, method, params } });
  return res as { status: number; body: any; headers: Headers };
};
const one = async (method: string, params: unknown, token: string, headers: Record<string, string> = V1) => {
  const res = await rpc(method, params, token, headers);
  expect(res.status).toBe(200);
  return res.body as TRpc;
};
const dataMessage = (method: string, params: unknown, extra: Record<string, unknown> = {}) => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ data: { method, params } }], ...extra },
});

const rowCounts = async () => {
  const db = await getDb();
  const [t] = await db.select({ n: count() }).from(a2aTasks);
  const [c] = await db.select({ n: count() }).from(a2aPushConfigs);
  const [d] = await db.select({ n: count() }).from(a2aPushDeliveries);
  return { tasks: Number(t!.n), configs: Number(c!.n), deliveries: Number(d!.n) };
};

// A local receiver of push notifications: /ok answers 204, /fail 500.
type TReceived = { path: string; headers: IncomingMessage['headers']; body: string };
const received: TReceived[] = [];
let server: Server;
let base: string;

let alice: TUserRow;
let bob: TUserRow;
let aliceToken: string;
let bobToken: string;
let marketId: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.statusCode = req.url?.startsWith('/fail') ? 500 : 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  alice = await seedUser({ username: 'a2a1_alice', balance: '1000' });
  bob = await seedUser({ username: 'a2a1_bob' });
  aliceToken = await tokenFor(alice);
  bobToken = await tokenFor(bob);
  marketId = (await createMarket({ caller: null, text: 'Will A2A 1.0 work?', resolutionDate: new Date(Date.now() + 30 * 86_400_000), liquidity: 10000 })).id;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => setLimiter(pinnedLimiter()));

/** Runs the deliverer until `n` notifications reached `path` (the kick after an enqueue may beat it). */
const waitForPushes = async (path: string, n: number) => {
  for (let i = 0; i < 100 && received.filter((r) => r.path === path).length < n; i++) {
    await deliverPendingPushes({ now: new Date(Date.now() + 3_600_000) });
    await new Promise((r) => setTimeout(r, 50));
  }
  return received.filter((r) => r.path === path);
};

describe('the 1.0 methods', () => {
  it('SendMessage runs the data part\'s method and answers {task} in 1.0 shapes; GetTask returns the same task', async () => {
    const res = await one('SendMessage', dataMessage('a2a.getMarketPrices', { marketId }), aliceToken);
    const task = res.result.task;
    expect(task).toMatchObject({
      id: expect.any(String),
      contextId: expect.any(String),
      status: { state: 'TASK_STATE_COMPLETED', timestamp: expect.any(String) },
      artifacts: [{ artifactId: `${task.id}-result`, name: 'a2a.getMarketPrices', parts: [{ data: { marketId } }] }],
      metadata: { method: 'a2a.getMarketPrices' },
    });
    expect(task.kind).toBeUndefined();
    expect(task.artifacts[0].parts[0].kind).toBeUndefined();
    // The same as the direct call.
    const direct = await one('a2a.getMarketPrices', { marketId }, aliceToken);
    expect(task.artifacts[0].parts[0].data).toEqual({ ...direct.result, timestamp: expect.any(String) });
    const got = await one('GetTask', { id: task.id }, aliceToken);
    expect(got.result).toEqual(task);
    // 0.3's tasks/get reads the same task in 0.3's shape.
    expect((await one('tasks/get', { id: task.id }, aliceToken, {})).result).toMatchObject({ kind: 'task', id: task.id, status: { state: 'completed' } });
  });

  it('SendMessage without a data part answers {message} from the agent listing the methods; a failing call is a failed task', async () => {
    const res = await one('SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hello' }] } }, aliceToken);
    expect(res.result.message).toMatchObject({ role: 'ROLE_AGENT', parts: [{ text: expect.stringContaining('a2a.getBalance') }, { data: { methods: expect.any(Array) } }] });
    const failed = await one('SendMessage', dataMessage('a2a.getMarketPrices', { marketId: 'no-such-market' }), aliceToken);
    expect(failed.result.task.status).toMatchObject({ state: 'TASK_STATE_FAILED', message: { role: 'ROLE_AGENT', parts: [{ data: { error: { code: -32000 } } }] } });
  });

  it("another caller's task is TaskNotFound (-32001) for every method that names one", async () => {
    const mine = (await one('SendMessage', dataMessage('a2a.getBalance', {}), aliceToken)).result.task;
    for (const [method, params] of [
      ['GetTask', { id: mine.id }],
      ['CancelTask', { id: mine.id }],
      ['SubscribeToTask', { id: mine.id }],
      ['CreateTaskPushNotificationConfig', { taskId: mine.id, url: `${base}/ok` }],
      ['ListTaskPushNotificationConfigs', { taskId: mine.id }],
      ['GetTaskPushNotificationConfig', { taskId: mine.id, id: 'x' }],
    ] as const) {
      expect((await one(method, params, bobToken)).error, method).toMatchObject({ code: -32001 });
    }
  });

  it('CancelTask of a finished task is TaskNotCancelable (-32002); SubscribeToTask of one is UnsupportedOperation (-32004)', async () => {
    const mine = (await one('SendMessage', dataMessage('a2a.getBalance', {}), aliceToken)).result.task;
    expect((await one('CancelTask', { id: mine.id }, aliceToken)).error).toMatchObject({ code: -32002 });
    const sub = await rpc('SubscribeToTask', { id: mine.id }, aliceToken);
    expect(sub.body.error).toMatchObject({ code: -32004 });
    expect((await one('GetExtendedAgentCard', {}, aliceToken)).error).toMatchObject({ code: -32004 });
  });

  it('SendStreamingMessage answers text/event-stream: one data: event, a JSON-RPC response carrying the final task, then the end', async () => {
    const res = await rpc('SendStreamingMessage', dataMessage('a2a.getMarketPrices', { marketId }), aliceToken, V1, 'stream-1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = res.body as string;
    const events = text.split('\n\n').filter(Boolean);
    expect(events).toHaveLength(1);
    expect(events[0]!.startsWith('data: ')).toBe(true);
    const event = JSON.parse(events[0]!.slice('data: '.length));
    expect(event).toMatchObject({ jsonrpc: '2.0', id: 'stream-1', result: { task: { status: { state: 'TASK_STATE_COMPLETED' } } } });
    const stored = await one('GetTask', { id: event.result.task.id }, aliceToken);
    expect(stored.result).toEqual(event.result.task);
  });

  it('ListTasks pages the caller\'s tasks newest first with pageToken/pageSize/nextPageToken, and filters by state and context', async () => {
    const carol = await seedUser({ username: 'a2a1_carol' });
    const token = await tokenFor(carol);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const params = i === 4 ? { marketId: 'missing' } : { marketId };
      made.push((await one('SendMessage', dataMessage('a2a.getMarketPrices', params, { contextId: i < 2 ? 'ctx-a' : 'ctx-b' }), token)).result.task.id);
    }
    const seen: string[] = [];
    let pageToken = '';
    for (let page = 0; page < 5; page++) {
      const res = (await one('ListTasks', { pageSize: 2, ...(pageToken ? { pageToken } : {}) }, token)).result;
      expect(res).toMatchObject({ pageSize: 2, totalSize: 5 });
      expect(res.tasks.length).toBeLessThanOrEqual(2);
      for (const t of res.tasks) expect(t.artifacts).toBeUndefined();
      seen.push(...res.tasks.map((t: { id: string }) => t.id));
      pageToken = res.nextPageToken;
      if (!pageToken) break;
    }
    expect(seen.sort()).toEqual([...made].sort());
    expect(new Set(seen).size).toBe(5);
    const failed = (await one('ListTasks', { status: 'TASK_STATE_FAILED', includeArtifacts: true }, token)).result;
    expect(failed.tasks.map((t: { id: string }) => t.id)).toEqual([made[4]]);
    expect((await one('ListTasks', { contextId: 'ctx-a' }, token)).result.totalSize).toBe(2);
    expect((await one('ListTasks', { status: 'TASK_STATE_WORKING' }, token)).result).toMatchObject({ tasks: [], totalSize: 0 });
    const withArtifacts = (await one('ListTasks', { pageSize: 1, includeArtifacts: true, status: 'TASK_STATE_COMPLETED' }, token)).result;
    expect(withArtifacts.tasks[0].artifacts[0].parts[0].data).toMatchObject({ marketId });
    // Bob never sees Carol's tasks; bad paging is -32602.
    expect((await one('ListTasks', { contextId: 'ctx-a' }, bobToken)).result.totalSize).toBe(0);
    for (const bad of [{ pageSize: 0 }, { pageSize: 101 }, { pageToken: 'garbage' }, { status: 'TASK_STATE_NOPE' }]) {
      expect((await one('ListTasks', bad, token)).error, JSON.stringify(bad)).toMatchObject({ code: -32602 });
    }
  });
});

describe('version negotiation (A2A-Version)', () => {
  it('none is 0.3 (both versions\' names still answer), 1.0 and 0.3 are served, another version is VersionNotSupported (-32009) and runs nothing', async () => {
    expect((await one('GetTask', { id: 'none' }, aliceToken, {})).error).toMatchObject({ code: -32001 });
    expect((await one('a2a.getBalance', {}, aliceToken, { 'A2A-Version': '0.3' })).result.balance).toBeDefined();
    const before = await rowCounts();
    for (const v of ['2.0', '0.2', 'banana']) {
      const res = await one('SendMessage', dataMessage('a2a.getBalance', {}), aliceToken, { 'A2A-Version': v });
      expect(res.error, v).toMatchObject({ code: -32009 });
    }
    expect(await rowCounts()).toEqual(before);
  });
});

describe('push notifications', () => {
  it('create, get, list and delete a config; the task\'s state is delivered at once, signed with the config\'s secret', async () => {
    const task = (await one('SendMessage', dataMessage('a2a.getMarketPrices', { marketId }), aliceToken)).result.task;
    const made = await one('CreateTaskPushNotificationConfig', { taskId: task.id, id: 'cfg-1', url: `${base}/ok`, token: 'tok-123' }, aliceToken);
    expect(made.result).toEqual({ id: 'cfg-1', taskId: task.id, url: `${base}/ok`, token: 'tok-123', signingSecret: expect.stringMatching(/^whsec_/) });
    const secret = made.result.signingSecret as string;
    expect((await one('GetTaskPushNotificationConfig', { taskId: task.id, id: 'cfg-1' }, aliceToken)).result).toEqual({ id: 'cfg-1', taskId: task.id, url: `${base}/ok`, token: 'tok-123' });
    expect((await one('ListTaskPushNotificationConfigs', { taskId: task.id }, aliceToken)).result).toEqual({
      configs: [{ id: 'cfg-1', taskId: task.id, url: `${base}/ok`, token: 'tok-123' }],
      nextPageToken: '',
    });
    // The same id again on the task is refused.
    expect((await one('CreateTaskPushNotificationConfig', { taskId: task.id, id: 'cfg-1', url: `${base}/ok` }, aliceToken)).error).toMatchObject({ code: -32000, data: { code: 'CONFLICT' } });

    const [push] = await waitForPushes('/ok', 1);
    expect(push!.headers['x-a2a-notification-token']).toBe('tok-123');
    expect(push!.headers['content-type']).toMatch(/application\/json/);
    const sig = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(push!.headers['x-playmoney-signature']));
    expect(sig).not.toBeNull();
    expect(Math.abs(Number(sig![1]) - Date.now() / 1000)).toBeLessThan(60);
    expect(sig![2]).toBe(createHmac('sha256', secret).update(`${sig![1]}.${push!.body}`).digest('hex'));
    expect(sig![2]).not.toBe(createHmac('sha256', 'another-secret').update(`${sig![1]}.${push!.body}`).digest('hex'));
    expect(JSON.parse(push!.body)).toEqual({ task });

    expect((await one('DeleteTaskPushNotificationConfig', { taskId: task.id, id: 'cfg-1' }, aliceToken)).result).toBeNull();
    expect((await one('GetTaskPushNotificationConfig', { taskId: task.id, id: 'cfg-1' }, aliceToken)).error).toMatchObject({ code: -32001 });
    expect((await one('ListTaskPushNotificationConfigs', { taskId: task.id }, aliceToken)).result.configs).toEqual([]);
  });

  it('an order a task placed: its updates are delivered as statusUpdate events of the task', async () => {
    const placed = (await one('SendMessage', dataMessage('a2a.placeOrder', { marketId, outcome: 'YES', amount: 10, limitPrice: 0.02 }), aliceToken)).result.task;
    expect(placed.status.state).toBe('TASK_STATE_COMPLETED');
    const order = placed.artifacts[0].parts[0].data.order;
    expect(order.status).toBe('open');
    await one('CreateTaskPushNotificationConfig', { taskId: placed.id, url: `${base}/ok/orders` }, aliceToken);
    await waitForPushes('/ok/orders', 1);
    expect((await one('a2a.cancelOrder', { orderId: order.id }, aliceToken)).result.order.status).toBe('cancelled');
    const pushes = await waitForPushes('/ok/orders', 2);
    const update = JSON.parse(pushes[1]!.body);
    expect(update).toMatchObject({
      statusUpdate: { taskId: placed.id, contextId: placed.contextId, status: { state: 'TASK_STATE_COMPLETED' }, metadata: { orderUpdate: { event: 'cancelled', order: { id: order.id, status: 'cancelled' } } } },
    });
  });

  it('a failing receiver is retried with backoff, then given up after 6 attempts; the tick drops finished deliveries after a day', async () => {
    expect([1, 2, 3, 4, 5].map(backoffMs)).toEqual([1000, 2000, 4000, 8000, 16000]);
    const task = (await one('SendMessage', dataMessage('a2a.getBalance', {}), aliceToken)).result.task;
    await one('CreateTaskPushNotificationConfig', { taskId: task.id, url: `${base}/fail` }, aliceToken);
    const db = await getDb();
    let row;
    for (let i = 0; i < 40; i++) {
      await deliverPendingPushes({ now: new Date(Date.now() + 3_600_000 * (i + 1)) });
      [row] = await db.select().from(a2aPushDeliveries).innerJoin(a2aPushConfigs, eq(a2aPushDeliveries.configId, a2aPushConfigs.id)).where(eq(a2aPushConfigs.taskId, task.id));
      if (row?.a2a_push_deliveries.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(row!.a2a_push_deliveries).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastError: 'HTTP 500' });
    expect(received.filter((r) => r.path === '/fail')).toHaveLength(MAX_ATTEMPTS);
    await deleteOldTasks(new Date(row!.a2a_push_deliveries.finishedAt!.getTime() + 25 * 3_600_000));
    expect(await db.select().from(a2aPushDeliveries).where(eq(a2aPushDeliveries.id, row!.a2a_push_deliveries.id))).toEqual([]);
  });

  it('refusals write nothing: a bad URL, a missing field, another\'s task, past the cap of configs', async () => {
    const dave = await seedUser({ username: 'a2a1_dave' });
    const token = await tokenFor(dave);
    const task = (await one('SendMessage', dataMessage('a2a.getBalance', {}), token)).result.task;
    const before = await rowCounts();
    for (const url of ['ftp://x.example/a', 'not a url', 'http://user:pw@127.0.0.1/x']) {
      expect((await one('CreateTaskPushNotificationConfig', { taskId: task.id, url }, token)).error, url).toMatchObject({ code: -32602 });
    }
    expect((await one('CreateTaskPushNotificationConfig', { taskId: task.id }, token)).error).toMatchObject({ code: -32602 });
    expect((await one('CreateTaskPushNotificationConfig', { taskId: task.id, url: `${base}/ok` }, bobToken)).error).toMatchObject({ code: -32001 });
    // A message whose push config is refused runs nothing either.
    expect((await one('SendMessage', { ...dataMessage('a2a.getBalance', {}), configuration: { taskPushNotificationConfig: { url: 'ftp://x' } } }, token)).error).toMatchObject({ code: -32602 });
    expect(await rowCounts()).toEqual(before);

    for (let i = 0; i < MAX_CONFIGS_PER_CALLER; i++) {
      expect((await one('CreateTaskPushNotificationConfig', { taskId: task.id, url: `${base}/ok/cap` }, token)).result.id).toEqual(expect.any(String));
    }
    const full = await rowCounts();
    expect((await one('CreateTaskPushNotificationConfig', { taskId: task.id, url: `${base}/ok/cap` }, token)).error).toMatchObject({ code: -32000, data: { code: 'CONFLICT' } });
    expect((await rowCounts()).configs).toBe(full.configs);
    await waitForPushes('/ok/cap', MAX_CONFIGS_PER_CALLER);
  });

  it('SendMessage with configuration.taskPushNotificationConfig makes the config for the new task', async () => {
    const res = await one('SendMessage', { ...dataMessage('a2a.getBalance', {}), configuration: { taskPushNotificationConfig: { url: `${base}/ok/inline`, token: 'inline' } } }, aliceToken);
    const configs = (await one('ListTaskPushNotificationConfigs', { taskId: res.result.task.id }, aliceToken)).result.configs;
    expect(configs).toEqual([{ id: expect.any(String), taskId: res.result.task.id, url: `${base}/ok/inline`, token: 'inline' }]);
    const [push] = await waitForPushes('/ok/inline', 1);
    expect(JSON.parse(push!.body).task.id).toBe(res.result.task.id);
  });
});

describe('the signed card', () => {
  it('advertises 1.0 and 0.3, streaming and push notifications, MCP; its signature verifies with GET /.well-known/jwks.json', async () => {
    const res = await call(cardRoute, '/.well-known/agent-card.json');
    expect(res.status).toBe(200);
    const card = res.body;
    expect(card).toMatchObject({
      protocolVersion: '0.3.0',
      url: 'http://localhost:3000/api/a2a',
      supportedInterfaces: [
        { url: 'http://localhost:3000/api/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'http://localhost:3000/api/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      capabilities: { streaming: true, pushNotifications: true, extensions: [{ params: { url: 'http://localhost:3000/api/mcp' } }] },
    });
    const jwks = await call(jwksRoute, '/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(jwks.body.keys[0].d).toBeUndefined();
    const [sig] = card.signatures;
    const payload = base64url.encode(new TextEncoder().encode(cardSigningPayload(card)));
    const verified = await flattenedVerify({ protected: sig.protected, signature: sig.signature, payload }, createLocalJWKSet(jwks.body));
    expect(verified.protectedHeader).toMatchObject({ typ: 'JOSE', jku: 'http://localhost:3000/.well-known/jwks.json' });
  });
});
