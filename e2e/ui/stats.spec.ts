import { expect, test } from '@playwright/test';

test('the home page shows the live stats strip from /api/stats', async ({ page, request }) => {
  const api = await (await request.get('/api/stats')).json();
  expect(api.success).toBe(true);
  expect(api.stats.openQuestions).toBeGreaterThan(0);
  await page.goto('/');
  const strip = page.getByRole('region', { name: 'The world right now' });
  for (const label of ['Players', 'Open questions', 'Pool assets']) await expect(strip.getByText(label, { exact: true })).toBeVisible();
  // A count, not a placeholder (other specs may tick the world meanwhile, so not the exact figure).
  await expect(strip.getByText('Open questions', { exact: true }).locator('xpath=following-sibling::dd')).toHaveText(/^[1-9][\d,]*$/);
});
