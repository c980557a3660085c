import { expect, test, type Locator, type Page } from '@playwright/test';
import { AFTER_SIGN_IN_URL, mintToken } from '../fixtures/auth';

/** The balance in the visible account link (sidebar on desktop, top-bar chip on phones). */
const accountLink = (page: Page) => page.getByRole('link', { name: /balance \$[\d,.]+/ }).filter({ visible: true });

const readBalance = async (page: Page) => {
  const name = (await accountLink(page).getAttribute('aria-label')) ?? '';
  return Number(/balance \$([\d,]+\.\d\d)/.exec(name)![1]!.replace(/,/g, ''));
};

/** "$1,234.56" or "49.9876" → 1234.56 / 49.9876. */
const num = (text: string) => Number(text.replace(/[$,+]/g, ''));

/** The value of a preview row: the <dd> after the <dt> that reads exactly `label`. */
const previewValue = async (preview: Locator, label: string) =>
  (await preview.getByText(label, { exact: true }).locator('xpath=following-sibling::dd').textContent())!.trim();

test('deposit 100 into a seeded pool, see the lot, withdraw half and see the fee, the net and the balance', async ({ page }, testInfo) => {
  // A fresh player per project, so the desktop and phone runs never share a balance or a lot.
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const token = await mintToken(`e2e|pl${unique}`, { email: `pl${unique}@example.test` });
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'Access token', exact: true }).fill(token);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page).toHaveURL(AFTER_SIGN_IN_URL);

  // The list: the four seeded pools, best tier first, each with its tier, manager, price and fee.
  await page.goto('/pools');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: 'Pools', exact: true })).toBeVisible();
  const list = main.getByRole('list', { name: 'Trading pools', exact: true });
  await expect(list.getByRole('article')).toHaveCount(4);
  const reed = list.getByRole('article', { name: 'Reed Macro Fund', exact: true });
  await expect(reed.getByText('Tier S', { exact: true })).toBeVisible();
  await expect(reed).toContainText('Managed by Marcus Reed');
  await expect(reed.getByRole('img', { name: /^Reed Macro Fund share price over the last 24 hours, now \$\d+\.\d{4}$/ })).toBeVisible();
  await expect(reed.getByRole('definition').filter({ hasText: /^20%$/ })).toBeVisible();
  await expect(reed).not.toContainText('Your stake');
  await reed.getByRole('link', { name: 'Reed Macro Fund', exact: true }).click();

  // The pool's page.
  await expect(page).toHaveURL(/\/pools\/seed-pool-1$/);
  await expect(main.getByRole('heading', { level: 1, name: 'Reed Macro Fund', exact: true })).toBeVisible();
  await expect(page.getByTestId('pool-nav')).toHaveText(/^\$[\d,]+\.\d\d$/);
  await expect(page.getByTestId('pool-share-price')).toHaveText(/^\$\d+\.\d{4}$/);
  await expect(main.getByRole('img', { name: /^Reed Macro Fund net asset value over the last 7 days: from \$[\d,.]+ to \$[\d,.]+$/ })).toBeVisible();
  await expect(main.getByRole('region', { name: 'Open positions', exact: true })).toBeVisible();
  await expect(main.getByRole('region', { name: 'Recent activity', exact: true })).toBeVisible();
  await expect(accountLink(page)).toHaveAttribute('aria-label', /balance \$1,000\.00/);
  const lots = main.getByRole('region', { name: 'Your deposits', exact: true });
  await expect(lots).toContainText('You have not deposited into this pool.');

  // Deposit 100: the preview prices the shares at the share price.
  const invest = main.getByRole('complementary', { name: 'Invest', exact: true });
  const bar = page.getByRole('region', { name: 'Invest in this pool', exact: true });
  if (testInfo.project.name === 'phone') {
    // On a phone the bar above the tab bar is one tap from the panel, wherever the page is scrolled.
    await page.mouse.wheel(0, 4000);
    await expect(bar).toBeInViewport();
    await bar.getByRole('button', { name: 'Deposit', exact: true }).click();
    await expect(invest.getByRole('textbox', { name: 'Amount', exact: true })).toBeFocused();
    await expect(invest.getByRole('textbox', { name: 'Amount', exact: true })).toBeInViewport();
  } else {
    await expect(bar).toBeHidden();
  }
  await expect(invest.getByRole('radio', { name: 'Deposit', exact: true })).toHaveAttribute('aria-checked', 'true');
  await invest.getByRole('textbox', { name: 'Amount', exact: true }).fill('100');
  const depositPreview = invest.getByLabel('Deposit preview', { exact: true });
  const price = num(await previewValue(depositPreview, 'Share price'));
  const previewShares = await previewValue(depositPreview, 'Shares you receive');
  expect(price).toBeGreaterThan(0);
  expect(Math.abs(num(previewShares) * price - 100)).toBeLessThan(0.05);
  await invest.getByRole('button', { name: 'Deposit', exact: true }).click();
  await expect(invest.getByRole('status')).toHaveText(
    new RegExp(`^Deposited \\$100\\.00 into Reed Macro Fund: ${previewShares.replace('.', '\\.')} shares at \\$\\d+\\.\\d{4}\\. New balance \\$900\\.00\\.$`),
  );
  await expect(accountLink(page)).toHaveAttribute('aria-label', /balance \$900\.00/);

  // The lot appears, holding those shares, worth about what it cost.
  const lot = lots.getByRole('article', { name: /^Deposit of \$100\.00 on / });
  await expect(lot).toHaveCount(1);
  await expect(lot.getByTestId('lot-shares')).toHaveText(previewShares);
  await expect.poll(async () => num((await lot.getByTestId('lot-value').textContent()) ?? '0')).toBeGreaterThan(99.9);
  await expect(lot.getByTestId('lot-fees-paid')).toHaveText('$0.00');

  // Withdraw half of it, from the lot's own button: the panel switches to withdrawing that lot.
  await lot.getByRole('button', { name: 'Withdraw from this deposit', exact: true }).click();
  await expect(invest.getByRole('radio', { name: 'Withdraw', exact: true })).toHaveAttribute('aria-checked', 'true');
  const sharesBox = invest.getByRole('textbox', { name: 'Shares', exact: true });
  await expect(sharesBox).toBeFocused();
  await invest.getByRole('group', { name: 'Quick shares', exact: true }).getByRole('button', { name: '50%', exact: true }).click();
  const half = num(await sharesBox.inputValue());
  expect(Math.abs(half * 2 - num(previewShares))).toBeLessThan(0.0001);

  const withdrawPreview = invest.getByLabel('Withdrawal preview', { exact: true });
  const value = num(await previewValue(withdrawPreview, 'Value'));
  const fee = num(await previewValue(withdrawPreview, 'Performance fee (20% of profit)'));
  const net = num(await previewValue(withdrawPreview, 'You receive'));
  expect(Math.abs(value - 50)).toBeLessThan(0.05);
  expect(fee).toBeGreaterThanOrEqual(0);
  expect(Math.abs(value - fee - net)).toBeLessThan(0.011);
  await invest.getByRole('button', { name: 'Withdraw', exact: true }).click();

  // The result names the value, the fee and the net, as the preview said; the net reached the balance.
  const result = invest.getByRole('status').filter({ hasText: /^Withdrew / });
  await expect(result).toBeVisible();
  const text = (await result.textContent())!;
  const m = /^Withdrew ([\d.,]+) shares at \$\d+\.\d{4}: value \$([\d,.]+), profit [-+]?\$[\d,.]+, performance fee \$([\d,.]+), net \$([\d,.]+) to your balance\. New balance \$([\d,.]+)\.$/.exec(text);
  expect(m, text).not.toBeNull();
  expect(num(m![1]!)).toBeCloseTo(half, 3);
  expect([num(m![2]!), num(m![3]!), num(m![4]!)]).toEqual([value, fee, net]);
  expect(Math.abs(num(m![5]!) - (900 + net))).toBeLessThan(0.011);
  await expect.poll(() => readBalance(page)).toBe(num(m![5]!));

  // The lot keeps the other half and records the fee it paid.
  await expect.poll(async () => num((await lot.getByTestId('lot-shares').textContent()) ?? '0')).toBeCloseTo(num(previewShares) - half, 3);
  await expect(lot.getByTestId('lot-fees-paid')).toHaveText(`$${fee.toFixed(2)}`);
  await expect(lot.getByTestId('lot-withdrawn')).toHaveText(`$${value.toFixed(2)}`);

  // The list shows the stake, and the portfolio lists the lot with its value, linking to the pool.
  await page.goto('/pools');
  await expect(list.getByRole('article', { name: 'Reed Macro Fund', exact: true })).toContainText('Your stake');
  await page.goto('/portfolio');
  const poolsCard = main.getByRole('region', { name: 'Pool deposits', exact: true });
  const link = poolsCard.getByRole('link', { name: 'Reed Macro Fund', exact: true }).filter({ visible: true });
  await expect(link).toHaveCount(1);
  await expect(poolsCard).toContainText(/\$\d{2}\.\d\d/);
  await link.click();
  await expect(page).toHaveURL(/\/pools\/seed-pool-1$/);
});
