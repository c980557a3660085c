import { expect, test, type Locator } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/**
 * Issue 35, Analytics and a rough edge: the portfolio shows "P&L over time" with range tabs
 * (Day, Week, Month, All), ROI and drawdown figures; choosing Week selects its tab and the series
 * is fetched for it. The wallet's balance column keeps clear of the card's edge (at least 8 px
 * inside the card's box), and a buy line names its question.
 */

const box = async (l: Locator) => {
  const b = await l.boundingBox();
  expect(b).not.toBeNull();
  return b!;
};

test('the portfolio charts P&L over time with range tabs; the wallet’s balance column keeps clear of the card edge', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const p = await signInNewPlayer(browser, `e2e|pnl${unique}`, projectContextOptions(testInfo.project.use));
  const { page } = p;
  const auth = { Authorization: `Bearer ${p.token}` };

  // A trade, so the portfolio has something to show (an empty one shows its empty state instead).
  const markets = await (await page.request.get('/api/markets/predictions?status=active&limit=1')).json();
  const [market] = markets.markets as { id: string; text: string }[];
  expect(market).toBeTruthy();
  expect((await page.request.post(`/api/markets/predictions/${market!.id}/buy`, { headers: auth, data: { outcome: 'YES', amount: 10 } })).ok()).toBe(true);

  // The API answers the series with a live point whose products sum to its P&L.
  const api = await (await page.request.get(`/api/users/me`, { headers: auth })).json();
  const series = await (await page.request.get(`/api/users/${api.user.id}/pnl-history?range=week`, { headers: auth })).json();
  expect(series.points.at(-1).isLive).toBe(true);

  await page.goto('/portfolio');
  const card = page.getByTestId('pnl-history');
  await expect(card).toBeVisible();
  await expect(card.getByRole('heading', { name: 'P&L over time' })).toBeVisible();
  const tabs = card.getByRole('tablist', { name: 'P&L range' });
  for (const name of ['Day', 'Week', 'Month', 'All']) await expect(tabs.getByRole('tab', { name, exact: true })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: 'Month', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(card.getByTestId('pnl-history-roi')).toBeVisible();
  await expect(card.getByTestId('pnl-history-drawdown')).toBeVisible();

  const weekRequest = page.waitForRequest((r) => r.url().includes('/pnl-history') && r.url().includes('range=week'));
  await tabs.getByRole('tab', { name: 'Week', exact: true }).click();
  await weekRequest;
  await expect(tabs.getByRole('tab', { name: 'Week', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(tabs.getByRole('tab', { name: 'Month', exact: true })).toHaveAttribute('aria-selected', 'false');
  // A chart (with its spoken summary) or, before the first daily close, the words saying so.
  await expect(card.getByRole('img', { name: /P&L .*: from .* to .*ROI .*max drawdown/ }).or(card.getByTestId('pnl-history-empty'))).toBeVisible();

  await page.goto('/wallet');
  const history = page.getByRole('region', { name: 'Transactions' });
  await expect(history).toBeVisible();
  const cardBox = await box(history);
  // Wide screens: the table's balance cell; phones: the list's rows (their balance sits at the right).
  const table = history.getByRole('table');
  if (await table.isVisible()) {
    const cell = table.locator('td', { has: page.getByTestId('wallet-balance-after') }).first();
    await expect(cell).toBeVisible();
    const cellBox = await box(cell);
    const text = await box(cell.getByTestId('wallet-balance-after'));
    expect(cellBox.x + cellBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    expect(cardBox.x + cardBox.width - (text.x + text.width)).toBeGreaterThanOrEqual(8);
  } else {
    const item = history.getByRole('listitem').first();
    const itemBox = await box(item);
    const amount = await box(item.locator('p.tabular-nums').last());
    expect(itemBox.x + itemBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width + 0.5);
    expect(cardBox.x + cardBox.width - (amount.x + amount.width)).toBeGreaterThanOrEqual(8);
  }
  // The buy line names its question.
  await expect(history.getByText(`Bought YES in "${market!.text}"`).filter({ visible: true })).toHaveCount(1);
});
