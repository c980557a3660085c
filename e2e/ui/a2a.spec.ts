import { expect, test } from '@playwright/test';
import { mintToken } from '../fixtures/auth';

test('an agent reads the card at /.well-known and calls the JSON-RPC endpoint it names', async ({ request }, testInfo) => {
  const card = await request.get('/.well-known/agent-card.json');
  expect(card.status()).toBe(200);
  const body = await card.json();
  expect(body).toMatchObject({ protocolVersion: '0.3.0', preferredTransport: 'JSONRPC' });
  expect(body.url).toMatch(/\/api\/a2a$/);
  expect((await request.get('/.well-known/agent-card')).status()).toBe(200);

  const markets = await (await request.get('/api/markets/predictions?limit=1')).json();
  const marketId = markets.questions[0].id as string;
  const token = await mintToken(`e2e|a2a${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`);
  const unauthorized = await request.post(new URL(body.url).pathname, { data: { jsonrpc: '2.0', id: 1, method: 'a2a.getMarketPrices', params: { marketId } } });
  expect(unauthorized.status()).toBe(401);
  const res = await request.post(new URL(body.url).pathname, {
    headers: { authorization: `Bearer ${token}` },
    data: [
      { jsonrpc: '2.0', id: 1, method: 'a2a.getMarketPrices', params: { marketId } },
      { jsonrpc: '2.0', id: 2, method: 'a2a.getBalance' },
    ],
  });
  expect(res.status()).toBe(200);
  expect(res.headers()['x-ratelimit-limit']).toBeTruthy();
  const [prices, balance] = await res.json();
  expect(prices).toMatchObject({ jsonrpc: '2.0', id: 1, result: { marketId } });
  expect(balance).toMatchObject({ jsonrpc: '2.0', id: 2, result: { balance: expect.stringMatching(/^\d+(\.\d+)?$/) } });
});
