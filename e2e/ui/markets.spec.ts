import { expect, test, type Page } from '@playwright/test';
import { AFTER_SIGN_IN_URL, mintToken } from '../fixtures/auth';

/** "28.1%" → 28.1 */
const readYesPrice = async (page: Page) => {
  const text = (await page.getByTestId('market-yes-price').textContent()) ?? '';
  return Number(text.replace(/[^\d.]/g, ''));
};

test('buy YES on an active market, see the position and the price move, then sell it all', async ({ page }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const token = await mintToken(`e2e|mk${unique}`, { email: `mk${unique}@example.test` });

  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'Access token', exact: true }).fill(token);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page).toHaveURL(AFTER_SIGN_IN_URL);

  await page.goto('/markets');
  const main = page.getByRole('main');
  await expect(main.getByRole('tab', { name: 'Active', exact: true })).toHaveAttribute('aria-selected', 'true');
  const firstMarket = main.getByRole('tabpanel').getByRole('link').first();
  await expect(firstMarket).toBeVisible();
  const question = (await firstMarket.textContent())!.trim();
  await firstMarket.click();

  await expect(page).toHaveURL(/\/markets\/[^/]+$/);
  await expect(main.getByRole('heading', { level: 1, name: question })).toBeVisible();
  await expect(page.getByTestId('market-yes-price')).toBeVisible();
  const priceBefore = await readYesPrice(page);
  expect(priceBefore).toBeGreaterThan(0);

  // Buy YES for 50: the preview appears before anything is sent.
  const trade = main.getByRole('complementary', { name: 'Trade' });
  await expect(trade.getByRole('radio', { name: 'YES', exact: true })).toHaveAttribute('aria-checked', 'true');
  await trade.getByRole('textbox', { name: 'Amount', exact: true }).fill('50');
  await expect(trade.getByRole('definition').filter({ hasText: '$0.05' })).toBeVisible();
  await trade.getByRole('button', { name: 'Buy YES', exact: true }).click();
  await expect(trade.getByRole('status').filter({ hasText: /Bought [\d,.]+ YES shares/ })).toBeVisible();

  const shares = page.getByTestId('position-shares');
  await expect(shares).toHaveCount(1);
  await expect(shares).toBeVisible();
  expect(Number((await shares.textContent())!.replace(/,/g, ''))).toBeGreaterThan(0);
  await expect.poll(() => readYesPrice(page)).toBeGreaterThan(priceBefore);

  // Sell the whole position.
  await trade.getByRole('radio', { name: 'Sell', exact: true }).click();
  await trade.getByRole('button', { name: 'Max', exact: true }).click();
  await expect(trade.getByRole('textbox', { name: 'Shares', exact: true })).not.toHaveValue('');
  await trade.getByRole('button', { name: 'Sell YES', exact: true }).click();
  await expect(trade.getByRole('status').filter({ hasText: /Sold [\d,.]+ YES shares/ })).toBeVisible();
  await expect(page.getByTestId('position-shares')).toHaveCount(0);
  await expect(main.getByText('You have no shares in this market yet.')).toBeVisible();
});
