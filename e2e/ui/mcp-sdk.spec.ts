import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from '@playwright/test';
import { mintToken } from '../fixtures/auth';

/**
 * The official MCP SDK client against the production build (issue 33): POST /api/mcp with a bearer
 * token, its default settings (Streamable HTTP; the server is stateless and answers JSON). The
 * client holds every structured result to the tool's outputSchema, so a result outside its
 * declared schema fails here.
 */
const firstMarketId = async (baseURL: string) => {
  const markets = (await (await fetch(`${baseURL}/api/markets/predictions?limit=1`)).json()) as { questions: { id: string }[] };
  return markets.questions[0]!.id;
};

const connect = async (baseURL: string, token: string) => {
  const client = new Client({ name: 'e2e-mcp', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseURL}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
};

const balanceOf = async (client: Client) => {
  const r = await client.callTool({ name: 'a2a.getBalance', arguments: {} });
  return (r.structuredContent as { balance: string }).balance;
};

test('the official MCP SDK lists the tools, reads, previews a trade, trades, and places and cancels a resting order', async ({}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  const token = await mintToken(`e2e|mcp${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`);
  const marketId = await firstMarketId(baseURL);
  const client = await connect(baseURL, token);
  try {
    expect(client.getServerVersion()).toMatchObject({ name: 'playmoney' });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['a2a.getMarketData', 'a2a.getMarketPrices', 'a2a.getBalance', 'a2a.placeOrder', 'a2a.cancelOrder']));
    expect(tools.find((t) => t.name === 'a2a.placeOrder')?.annotations).toMatchObject({ readOnlyHint: false });

    const prices = await client.callTool({ name: 'a2a.getMarketPrices', arguments: { marketId } });
    expect(prices.structuredContent).toMatchObject({ marketId, prices: [{ outcome: 'YES' }, { outcome: 'NO' }] });
    const data = await client.callTool({ name: 'a2a.getMarketData', arguments: { marketId } });
    expect(data.isError, JSON.stringify(data.content)).toBeFalsy();

    const before = await balanceOf(client);
    const preview = await client.callTool({ name: 'a2a.placeOrder', arguments: { marketId, outcome: 'YES', amount: 10, limitPrice: 0.95, timeInForce: 'IOC', dryRun: true } });
    expect(preview.isError, JSON.stringify(preview.content)).toBeFalsy();
    expect(preview.structuredContent).toMatchObject({ dryRun: true });
    expect(await balanceOf(client)).toBe(before);

    const trade = await client.callTool({ name: 'a2a.placeOrder', arguments: { marketId, outcome: 'YES', amount: 10, limitPrice: 0.95, timeInForce: 'IOC' } });
    expect(trade.isError, JSON.stringify(trade.content)).toBeFalsy();
    expect((trade.structuredContent as { fills: unknown[] }).fills.length).toBeGreaterThan(0);
    const afterTrade = await balanceOf(client);
    expect(Number(afterTrade)).toBeLessThan(Number(before));

    const resting = await client.callTool({ name: 'a2a.placeOrder', arguments: { marketId, outcome: 'NO', amount: 5, limitPrice: 0.02 } });
    expect(resting.isError, JSON.stringify(resting.content)).toBeFalsy();
    const order = (resting.structuredContent as { order: { id: string; status: string } }).order;
    expect(order.status).toBe('open');
    const cancelled = await client.callTool({ name: 'a2a.cancelOrder', arguments: { orderId: order.id } });
    expect((cancelled.structuredContent as { order: { status: string } }).order.status).toBe('cancelled');
    expect(await balanceOf(client)).toBe(afterTrade);

    const failed = await client.callTool({ name: 'a2a.cancelOrder', arguments: { orderId: order.id } });
    expect(failed.isError).toBe(true);
    expect(JSON.parse((failed.content as { text: string }[])[0]!.text).error).toMatchObject({ code: 'ORDER_NOT_OPEN', status: 409 });

    const portfolio = await client.readResource({ uri: 'playmoney://portfolio' });
    expect(JSON.parse(String((portfolio.contents[0] as { text: string }).text)).balance.balance).toBe(afterTrade);
  } finally {
    await client.close();
  }
});

test('without a bearer credential the endpoint answers 401 with WWW-Authenticate: Bearer', async ({}, testInfo) => {
  const res = await fetch(`${testInfo.project.use.baseURL!}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
});
