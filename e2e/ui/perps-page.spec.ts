import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/** axe (WCAG 2.x A and AA): the serious and critical violations on the page as it is now. */
const seriousViolations = async (page: Page) => {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
};

test('a ticker page: candles from the keyboard, the tape lists my trades, the "opened" notice is gone after the close', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const { page } = await signInNewPlayer(browser, `e2e|pg${unique}`, projectContextOptions(testInfo.project.use));
  await page.goto('/perps/VRSE');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: 'Verse Media', exact: true })).toBeVisible();

  // Open a 2x long of $100 from the side panel.
  const order = main.getByRole('complementary', { name: 'Order', exact: true });
  await order.getByRole('textbox', { name: 'Size', exact: true }).fill('100');
  await order.getByRole('button', { name: 'Open long', exact: true }).click();
  const opened = order.getByRole('status').filter({ hasText: /Opened a 2x long on VRSE at \$[\d,.]+/ });
  await expect(opened).toBeVisible();

  // The tape lists it first, as mine.
  const tape = main.getByRole('region', { name: 'Recent trades', exact: true });
  const firstRow = tape.getByTestId('perp-tape-row').first();
  await expect(firstRow).toContainText('Long');
  await expect(firstRow).toContainText('Open');
  await expect(firstRow).toContainText('You');
  await expect(firstRow).toContainText('$100.00');

  // Line to candles with the arrow key; the candles describe themselves.
  const chart = main.getByRole('region', { name: 'Price', exact: true });
  const kinds = chart.getByRole('radiogroup', { name: 'Chart type', exact: true });
  await kinds.getByRole('radio', { name: 'Line', exact: true }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(kinds.getByRole('radio', { name: 'Candles', exact: true })).toHaveAttribute('aria-checked', 'true');
  await expect(kinds.getByRole('radio', { name: 'Candles', exact: true })).toBeFocused();
  const candles = chart.getByRole('img', { name: /^VRSE mark price as \d+ hourly candles over the last 24 hours: opened at \$[\d,.]+, high/ });
  await expect(candles).toBeVisible();
  expect(await candles.getByTestId('perp-candle').count()).toBeGreaterThan(0);
  await chart.getByRole('radio', { name: '7d', exact: true }).click();
  await expect(chart.getByRole('img', { name: /4-hour candles over the last 7 days/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Close it: the closed result shows, the "opened" notice does not, and the tape lists the close.
  const position = main.getByRole('list', { name: 'Open positions', exact: true }).getByRole('article', { name: 'Long 2x VRSE position', exact: true });
  await position.getByRole('button', { name: 'Close position', exact: true }).click();
  await expect(main.getByRole('status').filter({ hasText: /Closed your 2x long at \$[\d,.]+/ })).toBeVisible();
  await expect(order.getByRole('status').filter({ hasText: /Opened a/ })).toHaveCount(0);
  await expect(firstRow).toContainText('Close');
  await expect(firstRow).toContainText('You');
  await page.context().close();
});

test('on a 390×844 phone the sticky bar opens the order sheet and a position opens without scrolling', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const options = { ...projectContextOptions(testInfo.project.use), viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
  const { page } = await signInNewPlayer(browser, `e2e|pb${unique}`, options);
  await page.goto('/perps/MNTL');
  await expect(page.getByRole('heading', { level: 1, name: 'Mantle Mining', exact: true })).toBeVisible();

  const bar = page.getByRole('region', { name: 'Trade MNTL', exact: true });
  await expect(bar).toBeInViewport();
  await expect(bar).toContainText(/Mark\s*\$[\d,.]+/);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await bar.getByRole('button', { name: 'Short', exact: true }).tap();

  const sheet = page.getByRole('dialog', { name: 'Open a position on MNTL', exact: true });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByRole('radio', { name: 'Short', exact: true })).toHaveAttribute('aria-checked', 'true');
  await sheet.getByRole('textbox', { name: 'Size', exact: true }).fill('50');
  const submit = sheet.getByRole('button', { name: 'Open short', exact: true });
  await expect(submit).toBeInViewport();
  await submit.tap();
  await expect(sheet.getByRole('status').filter({ hasText: /Opened a 2x short on MNTL at \$[\d,.]+/ })).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);

  // Escape closes the sheet; the position is listed on the page.
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await expect(page.getByRole('list', { name: 'Open positions', exact: true }).getByRole('article', { name: 'Short 2x MNTL position', exact: true })).toHaveCount(1);
  await page.context().close();
});
