/**
 * POST /api/mcp (issue 33): the Model Context Protocol over Streamable HTTP, through the real route
 * handler. The framing (bearer only, 401 with WWW-Authenticate, 413, 415, -32700, -32600, the
 * SDK's refusals in the REST envelope, the headers), the tools generated from the A2A method table
 * (every method, JSON Schema inputs, structured results), a read, a dry run that writes nothing, a
 * real trade, a resting order cancelled, tool errors, the resources; and the official SDK client
 * (`@modelcontextprotocol/sdk/client`) driving the handler through its `fetch` option, which holds
 * every structured result to the tool's outputSchema.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DELETE as mcpDelete, GET as mcpGet, POST as mcpRoute } from '@/app/api/mcp/route';
import { GET as balanceRoute } from '@/app/api/users/[userId]/balance/route';
import { getDb, rowsOf } from '@/db/client';
import type { TUserRow } from '@/db/schema';
import { A2A_METHOD_TABLE } from '@/lib/a2a/methods';
import { DEFAULT_JSON_BODY_LIMIT } from '@/lib/http/limits';
import { createMarket } from '@/lib/markets/service/create-market';
import { setLimiter } from '@/lib/operations/rate-limit';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor, type TCallOptions } from '@/test/http';
import { expectLedgerChain } from '@/test/invariants';

const ACCEPT = 'application/json, text/event-stream';
const post = (body: unknown, opts: Omit<TCallOptions, 'body' | 'method'> = {}) =>
  call(mcpRoute, '/api/mcp', { ...opts, method: 'POST', body, headers: { accept: ACCEPT, ...opts.headers } });
const rpc = async (method: string, params: unknown, token: string, headers: Record<string, string> = {}) => {
  const res = await post({ jsonrpc: '2.0', id: 7, method, ...(params === undefined ? {} : { params }) }, { token, headers });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
};
const tool = async (name: string, args: Record<string, unknown>, token: string, headers: Record<string, string> = {}) =>
  (await rpc('tools/call', { name, arguments: args }, token, headers)).body.result;
const errorOf = (result: { isError?: boolean; content: { type: string; text: string }[] }) => {
  expect(result.isError).toBe(true);
  return JSON.parse(result.content[0]!.text).error as { code: string; status: number; message: string; details?: unknown };
};
const balanceOf = async (user: TUserRow, token: string) =>
  (await call(balanceRoute, `/api/users/${user.id}/balance`, { token, params: { userId: user.id } })).body.balance as string;

/** The official client, its fetch routed to the route handlers as Next.js would call them. */
const sdkClient = async (token: string) => {
  const handlers = { POST: mcpRoute, GET: mcpGet, DELETE: mcpDelete } as Record<string, (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>>;
  const viaHandler: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    headers.set('host', 'localhost:3000');
    headers.set('x-client-socket-address', '203.0.113.50');
    return handlers[method]!(new NextRequest(url, { method, headers, body: init?.body as BodyInit | undefined }), { params: Promise.resolve({}) });
  };
  const client = new Client({ name: 'mcp-int-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('http://localhost:3000/api/mcp'), { fetch: viaHandler }));
  return client;
};

let alice: TUserRow;
let aliceToken: string;
let marketId: string;
let ticker: string;

beforeAll(async () => {
  await seedWorld(await getDb());
  alice = await seedUser({ username: 'mcp_alice', balance: '1000' });
  aliceToken = await tokenFor(alice);
  marketId = (await createMarket({ caller: null, text: 'Will the MCP test pass?', resolutionDate: new Date(Date.now() + 30 * 86_400_000), liquidity: 10000 })).id;
  const [row] = rowsOf<{ ticker: string }>(await (await getDb()).execute(sql`select ticker from perp_markets order by ticker limit 1`));
  if (!row) throw new Error('the seeded world has no ticker');
  ticker = row.ticker;
});
beforeEach(() => setLimiter(pinnedLimiter()));

describe('the request, before the protocol', () => {
  it('401 in the REST envelope, with WWW-Authenticate: Bearer, without a bearer credential or with a bad one', async () => {
    for (const token of [undefined, 'not-a-token']) {
      const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
    }
  });

  it('a session cookie is no MCP credential, even from our own origin', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { cookie: `pm_session=${aliceToken}`, headers: { origin: 'http://localhost:3000' } });
    expect([res.status, res.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
  });

  it('413 for a body over the JSON limit (unread), 415 for a body that is not JSON', async () => {
    const big = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(DEFAULT_JSON_BODY_LIMIT) } }), { token: aliceToken });
    expect([big.status, big.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const text = await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', { token: aliceToken, headers: { 'content-type': 'text/plain' } });
    expect([text.status, text.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });

  it('-32700 for text that is not JSON and -32600 for what is no JSON-RPC message, with HTTP 200', async () => {
    const parse = await post('{"jsonrpc": "2.0", "method": ', { token: aliceToken });
    expect([parse.status, parse.body]).toEqual([200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } }]);
    for (const bad of [1, '"x"', { foo: 1 }, { jsonrpc: '1.0', id: 3, method: 'ping' }, []]) {
      const res = await post(bad, { token: aliceToken });
      expect([res.status, res.body.error?.code], JSON.stringify(bad)).toEqual([200, -32600]);
      expect(res.headers.get('x-ratelimit-remaining')).toBeTruthy();
    }
  });

  it("the SDK's refusals (an unsupported MCP-Protocol-Version) answer in the REST envelope; GET and DELETE are 405", async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token: aliceToken, headers: { 'mcp-protocol-version': '1999-01-01' } });
    expect([res.status, res.body.success, res.body.error.code]).toEqual([400, false, 'VALIDATION_ERROR']);
    expect(res.body.error.message).toMatch(/protocol version/i);
    for (const handler of [mcpGet, mcpDelete]) {
      const other = await call(handler, '/api/mcp', { method: handler === mcpGet ? 'GET' : 'DELETE', token: aliceToken, headers: { accept: 'text/event-stream' } });
      expect([other.status, other.body.error.code]).toEqual([405, 'METHOD_NOT_ALLOWED']);
      expect(other.headers.get('allow')).toContain('POST');
    }
  });
});

describe('the protocol', () => {
  it('initialize answers the current revision, the capabilities and no session (stateless), with the API headers', async () => {
    const res = await rpc('initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '0' } }, aliceToken);
    expect(res.body.result).toMatchObject({ protocolVersion: LATEST_PROTOCOL_VERSION, serverInfo: { name: 'playmoney' }, capabilities: { tools: {}, resources: {} } });
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
    const note = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { token: aliceToken });
    expect([note.status, note.body]).toEqual([202, '']);
  });

  it('tools/list has a tool per method of the table, each with a JSON Schema object input and annotations', async () => {
    const { tools } = (await rpc('tools/list', {}, aliceToken)).body.result as { tools: { name: string; description: string; inputSchema: any; outputSchema?: any; annotations: any }[] };
    expect(tools.map((t) => t.name)).toEqual(A2A_METHOD_TABLE.map((m) => m.name));
    for (const m of A2A_METHOD_TABLE) {
      const t = tools.find((x) => x.name === m.name)!;
      expect(t.inputSchema.type, m.name).toBe('object');
      expect(t.inputSchema.$schema).toBeUndefined();
      expect(t.outputSchema?.type, m.name).toBe('object');
      expect(t.annotations.readOnlyHint).toBe(m.kind === 'read');
      expect(t.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
    }
    const place = tools.find((t) => t.name === 'a2a.placeOrder')!;
    expect(place.description).toMatch(/dryRun: true to preview/);
    expect(place.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(place.inputSchema.required).toEqual(expect.arrayContaining(['marketId', 'outcome', 'amount', 'limitPrice']));
  });

  it('a read tool answers structured content and the same JSON as text; the underscore spelling calls it too', async () => {
    const result = await tool('a2a.getMarketPrices', { marketId }, aliceToken);
    expect(result.structuredContent).toMatchObject({ marketId, prices: [{ outcome: 'YES' }, { outcome: 'NO' }] });
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    expect(result.isError).toBeUndefined();
    expect((await tool('a2a_getMarketData', { id: marketId }, aliceToken)).structuredContent).toMatchObject({ marketId, outcomes: ['YES', 'NO'] });
  });

  it('typed errors are tool results with isError and {error: {code, status, message}}; an unknown tool is -32602', async () => {
    expect(errorOf(await tool('a2a.getMarketData', { marketId: 'no-such-market' }, aliceToken))).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(errorOf(await tool('a2a.getMarketData', { marketId: 5 }, aliceToken))).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    const bob = await seedUser();
    expect(errorOf(await tool('a2a.getBalance', { userId: bob.id }, aliceToken))).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    const unknown = await rpc('tools/call', { name: 'a2a.noSuchTool', arguments: {} }, aliceToken);
    expect(unknown.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown tool/) });
    const noMethod = await rpc('no/such/method', {}, aliceToken);
    expect(noMethod.body.error.code).toBe(-32601);
  });

  it('a dry run writes nothing; a real IOC order trades; a resting order is cancelled and refunded; the Idempotency-Key replays', async () => {
    const trader = await seedUser({ balance: '500' });
    const token = await tokenFor(trader);
    const preview = await tool('a2a.placeOrder', { marketId, outcome: 'YES', amount: 20, limitPrice: 0.9, timeInForce: 'IOC', dryRun: true }, token);
    expect(preview.structuredContent).toMatchObject({ dryRun: true });
    expect(await balanceOf(trader, token)).toBe('500');
    expect((await tool('a2a.getOrders', { status: 'all' }, token)).structuredContent.orders).toEqual([]);

    const headers = { 'idempotency-key': `mcp-ioc-${trader.id}` };
    const first = await rpc('tools/call', { name: 'a2a.placeOrder', arguments: { marketId, outcome: 'YES', amount: 20, limitPrice: 0.9, timeInForce: 'IOC' } }, token, headers);
    const traded = first.body.result.structuredContent;
    expect(traded.fills.length).toBeGreaterThan(0);
    const afterTrade = await balanceOf(trader, token);
    expect(Number(afterTrade)).toBeLessThan(500);
    const again = await rpc('tools/call', { name: 'a2a.placeOrder', arguments: { marketId, outcome: 'YES', amount: 20, limitPrice: 0.9, timeInForce: 'IOC' } }, token, headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.result.structuredContent).toEqual(traded);
    expect(await balanceOf(trader, token)).toBe(afterTrade);

    const resting = (await tool('a2a.placeOrder', { marketId, outcome: 'NO', amount: 10, limitPrice: 0.05 }, token)).structuredContent;
    expect(resting.order.status).toBe('open');
    expect(Number(await balanceOf(trader, token))).toBeCloseTo(Number(afterTrade) - 10, 6);
    const cancelled = await tool('a2a.cancelOrder', { orderId: resting.order.id }, token);
    expect(cancelled.structuredContent.order.status).toBe('cancelled');
    expect(await balanceOf(trader, token)).toBe(afterTrade);
    expect(errorOf(await tool('a2a.cancelOrder', { orderId: resting.order.id }, token))).toMatchObject({ code: 'ORDER_NOT_OPEN', status: 409 });
    await expectLedgerChain([trader.id]);
  });

  it('resources: the portfolio, a question and a ticker by address; an unknown address is -32002', async () => {
    const list = await rpc('resources/list', {}, aliceToken);
    expect(list.body.result.resources.map((r: { uri: string }) => r.uri)).toEqual(['playmoney://portfolio']);
    const templates = await rpc('resources/templates/list', {}, aliceToken);
    expect(templates.body.result.resourceTemplates.map((r: { uriTemplate: string }) => r.uriTemplate)).toEqual(['playmoney://markets/{marketId}', 'playmoney://perps/{ticker}']);

    const portfolio = await rpc('resources/read', { uri: 'playmoney://portfolio' }, aliceToken);
    const [content] = portfolio.body.result.contents;
    expect(content).toMatchObject({ uri: 'playmoney://portfolio', mimeType: 'application/json' });
    const wallet = JSON.parse(content.text);
    expect(wallet.userId).toBe(alice.id);
    expect(wallet.balance.balance).toBe(await balanceOf(alice, aliceToken));
    expect(wallet.positions).toBeDefined();

    const market = JSON.parse((await rpc('resources/read', { uri: `playmoney://markets/${marketId}` }, aliceToken)).body.result.contents[0].text);
    expect(market).toMatchObject({ marketId, question: 'Will the MCP test pass?' });
    const perp = JSON.parse((await rpc('resources/read', { uri: `playmoney://perps/${ticker.toLowerCase()}` }, aliceToken)).body.result.contents[0].text);
    expect(perp.ticker).toBe(ticker);

    expect((await rpc('resources/read', { uri: 'playmoney://markets/no-such-market' }, aliceToken)).body.error).toMatchObject({ code: -32002, data: { code: 'NOT_FOUND', status: 404 } });
    expect((await rpc('resources/read', { uri: 'playmoney://perps/NOPE' }, aliceToken)).body.error).toMatchObject({ code: -32002, data: { status: 404 } });
    expect((await rpc('resources/read', { uri: 'https://example.com/x' }, aliceToken)).body.error.code).toBe(-32002);
  });

  it('each tool call counts under its own rule: over it, a RATE_LIMIT_EXCEEDED tool error and the X-RateLimit-* of that count', async () => {
    const u = await seedUser();
    const token = await tokenFor(u);
    const targets = await Promise.all(Array.from({ length: 11 }, () => seedUser()));
    let last: Awaited<ReturnType<typeof rpc>> | undefined;
    for (const t of targets) last = await rpc('tools/call', { name: 'moderation.blockUser', arguments: { userId: t.id } }, token);
    expect(errorOf(last!.body.result)).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: 429 });
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});

describe('the official SDK client', () => {
  let client: Client | undefined;
  afterAll(async () => client?.close());

  it('connects, lists the tools, calls a read, a dry run and a real trade, and reads the portfolio', async () => {
    const trader = await seedUser({ balance: '300' });
    const token = await tokenFor(trader);
    client = await sdkClient(token);
    expect(client.getServerVersion()).toMatchObject({ name: 'playmoney' });
    const { tools } = await client.listTools();
    expect(tools.length).toBe(A2A_METHOD_TABLE.length);

    // callTool holds every structuredContent to the tool's outputSchema (it throws otherwise).
    const prices = await client.callTool({ name: 'a2a.getMarketPrices', arguments: { marketId } });
    expect(prices.structuredContent).toMatchObject({ marketId });
    for (const name of ['a2a.getBalance', 'a2a.getPositions', 'a2a.getUserWallet', 'a2a.getOrderBook', 'a2a.getOrders', 'a2a.getMarketData', 'a2a.subscribeMarket', 'a2a.discover', 'moderation.getBlocks']) {
      const args = name.includes('Market') || name === 'a2a.getOrderBook' ? { marketId } : {};
      const r = await client.callTool({ name, arguments: args });
      expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
    }

    const dry = await client.callTool({ name: 'a2a.placeOrder', arguments: { marketId, outcome: 'NO', amount: 15, limitPrice: 0.9, timeInForce: 'IOC', dryRun: true } });
    expect(dry.structuredContent).toMatchObject({ dryRun: true });
    expect(await balanceOf(trader, token)).toBe('300');
    const real = await client.callTool({ name: 'a2a.placeOrder', arguments: { marketId, outcome: 'NO', amount: 15, limitPrice: 0.9, timeInForce: 'IOC' } });
    expect(real.isError, JSON.stringify(real.content)).toBeFalsy();
    expect(Number(await balanceOf(trader, token))).toBeLessThan(300);

    const failed = await client.callTool({ name: 'a2a.getMarketData', arguments: { marketId: 'no-such-market' } });
    expect(failed.isError).toBe(true);

    const portfolio = await client.readResource({ uri: 'playmoney://portfolio' });
    expect(JSON.parse(String((portfolio.contents[0] as { text: string }).text)).userId).toBe(trader.id);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toHaveLength(2);
    await expectLedgerChain([trader.id]);
  });
});
