import { expect, test } from '@playwright/test';
import { AFTER_SIGN_IN_URL, mintToken } from '../fixtures/auth';

test('sign in, edit the profile, see the balance', async ({ page }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const token = await mintToken(`e2e|${unique}`, { email: `${unique}@example.test` });

  await page.goto('/sign-in');
  // Production has no development sign-in: only the token form.
  await expect(page.getByRole('textbox', { name: 'Username', exact: true })).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Access token', exact: true }).fill(token);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page).toHaveURL(AFTER_SIGN_IN_URL);

  await page.goto('/profile/edit');
  await page.getByRole('textbox', { name: 'Display name', exact: true }).fill('Playwright Tester');
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(`pw_${unique}`);
  await page.getByRole('textbox', { name: 'Bio', exact: true }).fill('I click through real pages in Chromium.');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();

  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Playwright Tester' })).toBeVisible();
  await expect(page.getByRole('main').getByText(`@pw_${unique}`)).toBeVisible();

  await page.goto('/wallet');
  await expect(page.getByTestId('wallet-balance')).toContainText('1,000');
  // The history is a table on wide screens and a list on phones: one of them is showing.
  await expect(page.getByText('Starting balance').filter({ visible: true })).toHaveCount(1);
});

test('the API answers a signed-out visitor with 401 and rate-limit headers', async ({ request }) => {
  const res = await request.get('/api/users/me');
  expect(res.status()).toBe(401);
  expect(res.headers()['x-ratelimit-limit']).toBeTruthy();
  expect((await res.json()).error.code).toBe('UNAUTHORIZED');
});
