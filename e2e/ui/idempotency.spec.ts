import { expect, test } from '@playwright/test';
import { AFTER_SIGN_IN_URL, mintToken } from '../fixtures/auth';

/**
 * Issue 20: a buy whose answer is lost on the way back (the server traded, the connection dropped)
 * is sent again by the page with the same Idempotency-Key; the server replays its first answer, the
 * player sees one purchase, and one trade exists.
 */
test('a buy whose answer was lost is retried with its key and trades once', async ({ page }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const token = await mintToken(`e2e|idem${unique}`, { email: `idem${unique}@example.test` });
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'Access token', exact: true }).fill(token);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page).toHaveURL(AFTER_SIGN_IN_URL);
  const me = await (await page.request.get('/api/users/me')).json();
  const userId = me.user.id as string;

  await page.goto('/markets');
  const main = page.getByRole('main');
  await main.getByRole('tabpanel').getByRole('link').first().click();
  await expect(page).toHaveURL(/\/markets\/[^/]+$/);
  const marketId = page.url().split('/').pop()!;

  // The first attempt reaches the server and trades, but its answer never reaches the page.
  const keys: string[] = [];
  const replayed: string[] = [];
  await page.route('**/api/markets/predictions/*/buy', async (route) => {
    keys.push((await route.request().headerValue('idempotency-key')) ?? '');
    const answer = await route.fetch();
    if (keys.length === 1) return route.abort('connectionreset');
    replayed.push(answer.headers()['idempotent-replayed'] ?? '');
    return route.fulfill({ response: answer });
  });

  const trade = main.getByRole('complementary', { name: 'Trade' });
  await trade.getByRole('textbox', { name: 'Amount', exact: true }).fill('40');
  await trade.getByRole('button', { name: 'Buy YES', exact: true }).click();
  await expect(trade.getByRole('status').filter({ hasText: /Bought [\d,.]+ YES shares/ })).toBeVisible();

  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[\x21-\x7E]{8,}$/);
  expect(keys[1]).toBe(keys[0]);
  expect(replayed).toEqual(['true']);

  const trades = await (await page.request.get(`/api/trades?userId=${userId}&marketId=${marketId}&type=prediction`)).json();
  expect(trades.trades).toHaveLength(1);

  // A second, deliberate buy of the same amount is a new action: a new key, a second trade.
  await page.unroute('**/api/markets/predictions/*/buy');
  await trade.getByRole('textbox', { name: 'Amount', exact: true }).fill('40');
  await trade.getByRole('button', { name: 'Buy YES', exact: true }).click();
  await expect
    .poll(async () => (await (await page.request.get(`/api/trades?userId=${userId}&marketId=${marketId}&type=prediction`)).json()).trades.length)
    .toBe(2);
});
