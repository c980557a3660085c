import { expect, test, type Page } from '@playwright/test';
import { AFTER_SIGN_IN_URL, mintToken } from '../fixtures/auth';

/** The balance in the visible account link (sidebar on desktop, top-bar chip on phones). */
const accountLink = (page: Page) => page.getByRole('link', { name: /balance \$[\d,.]+/ }).filter({ visible: true });

const readBalance = async (page: Page) => {
  const name = (await accountLink(page).getAttribute('aria-label')) ?? '';
  return Number(/balance \$([\d,]+\.\d\d)/.exec(name)![1]!.replace(/,/g, ''));
};

test('open a 5x long on a perp, see it listed and in the portfolio, close it and see the result and the balance', async ({ page }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const token = await mintToken(`e2e|pp${unique}`, { email: `pp${unique}@example.test` });

  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'Access token', exact: true }).fill(token);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page).toHaveURL(AFTER_SIGN_IN_URL);

  // Perps is in the navigation, next to Markets (the phone keeps it in the menu).
  if (testInfo.project.name === 'phone') await page.getByRole('button', { name: 'Open menu', exact: true }).click();
  await page.getByRole('navigation', { name: 'Main' }).filter({ visible: true }).getByRole('link', { name: 'Perps', exact: true }).click();
  await expect(page).toHaveURL(/\/perps$/);

  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: 'Perps', exact: true })).toBeVisible();
  const tickers = main.getByRole('list', { name: 'Perpetual tickers', exact: true });
  const firstTicker = tickers.getByRole('link').first();
  await expect(firstTicker).toBeVisible();
  const name = (await firstTicker.textContent())!.trim();
  await firstTicker.click();

  await expect(page).toHaveURL(/\/perps\/[A-Z]+$/);
  await expect(main.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
  await expect(page.getByTestId('perp-mark-price')).toHaveText(/^\$[\d,.]+$/);
  await expect(main.getByRole('img', { name: /mark price over the last 24 hours/ })).toBeVisible();
  await expect(accountLink(page)).toHaveAttribute('aria-label', /balance \$1,000\.00/);

  // The order: long 100 at 5x. Above 25x the panel warns; the slider works from the keyboard.
  const order = main.getByRole('complementary', { name: 'Order', exact: true });
  await expect(order.getByRole('radio', { name: 'Long', exact: true })).toHaveAttribute('aria-checked', 'true');
  await order.getByRole('textbox', { name: 'Size', exact: true }).fill('100');
  const leverage = order.getByRole('slider', { name: 'Leverage', exact: true });
  await leverage.focus();
  await leverage.press('End');
  await expect(order.getByTestId('leverage-value')).toHaveText('100x');
  await expect(order.getByText('High leverage: a small move against you liquidates this position.')).toBeVisible();
  await leverage.press('Home');
  for (let i = 0; i < 4; i++) await leverage.press('ArrowRight');
  await expect(order.getByTestId('leverage-value')).toHaveText('5x');
  await expect(leverage).toHaveValue('5');
  await expect(order.getByText('High leverage: a small move against you liquidates this position.')).toHaveCount(0);

  const preview = order.getByLabel('Order preview', { exact: true });
  await expect(preview.getByRole('definition').filter({ hasText: '$20.00' })).toBeVisible(); // margin 100 / 5
  await expect(preview.getByRole('definition').filter({ hasText: '$20.10' })).toBeVisible(); // plus the 0.1% fee
  await order.getByRole('button', { name: 'Open long', exact: true }).click();
  await expect(order.getByRole('status').filter({ hasText: /Opened a 5x long on [A-Z]+ at \$[\d,.]+/ })).toBeVisible();
  await expect(order.getByRole('textbox', { name: 'Size', exact: true })).toHaveValue('');

  // Margin and fee left the balance.
  await expect(accountLink(page)).toHaveAttribute('aria-label', /balance \$979\.90/);

  const open = main.getByRole('list', { name: 'Open positions', exact: true });
  const position = open.getByRole('article', { name: /^Long 5x [A-Z]+ position$/ });
  await expect(position).toHaveCount(1);
  await expect(position).toContainText('$100.00 size');
  await expect(position.getByTestId('perp-unrealized-pnl')).toHaveText(/[-+]?\$[\d,.]+ \([-+]?[\d.]+%\)/);
  const tickerUrl = page.url();

  // The portfolio lists it too.
  await page.goto('/portfolio');
  const perpsCard = main.getByRole('region', { name: 'Open perpetual positions', exact: true });
  await expect(perpsCard.getByRole('article', { name: /^Long 5x [A-Z]+ position$/ })).toBeVisible();
  // The headline is the account's equity: the cash left ($979.90) and the perp at its mark, so
  // about the $1,000 it started with, less the fee; the perps row carries the perp's P&L.
  const headline = Number(((await page.getByTestId('portfolio-value').textContent()) ?? '').replace(/[^\d.]/g, ''));
  expect(headline).toBeGreaterThan(990);
  expect(headline).toBeLessThan(1000);
  await expect(main.getByTestId('portfolio-product-perps')).toContainText(/-\$0\.\d\d/);

  // Close it.
  await page.goto(tickerUrl);
  await position.getByRole('button', { name: 'Close position', exact: true }).click();
  await expect(main.getByRole('status').filter({ hasText: /Closed your 5x long at \$[\d,.]+: net -\$[\d.]+ after fees and funding/ })).toBeVisible();
  await expect(main.getByText('You have no open positions on this ticker.')).toBeVisible();

  const closed = main.getByRole('list', { name: 'Closed positions', exact: true }).getByRole('article', { name: 'Closed long 5x position', exact: true });
  await expect(closed).toHaveCount(1);
  await expect(closed.getByRole('definition').filter({ hasText: /^\$[\d,.]+$/ }).first()).toBeVisible();
  // Opening and closing at once costs both fees and the price impact twice: a small loss.
  await expect(closed.getByTestId('perp-net-pnl')).toHaveText(/^-\$0\.\d\d$/);

  // The margin came back, less the loss.
  await expect.poll(() => readBalance(page)).toBeGreaterThan(999);
  expect(await readBalance(page)).toBeLessThan(1000);
  await page.goto('/wallet');
  await expect(page.getByTestId('wallet-balance')).toContainText('$999.');
  // Lifetime P&L is the one P&L: the round trip's small loss, the same as the portfolio's.
  await expect(main.getByText('Lifetime P&L', { exact: true }).locator('xpath=following-sibling::dd')).toHaveText(/^-\$0\.\d\d$/);
});
