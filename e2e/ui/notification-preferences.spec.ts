import { expect, test } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/**
 * Notification preferences (issue 35): from the settings page a player opens the notification
 * settings, turns one kind off with the keyboard-usable select, and the choice is saved (the API
 * answers it) and survives a reload. The notifications page links to the settings and the digest.
 */

const uniqueOf = (projectName: string) => `${projectName.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;

test('a player turns price moves off in the notification settings and the choice survives a reload', async ({ browser }, testInfo) => {
  const unique = uniqueOf(testInfo.project.name);
  const { page, token } = await signInNewPlayer(browser, `e2e|np${unique}`, projectContextOptions(testInfo.project.use));

  // Settings → Notification settings.
  await page.goto('/settings');
  await page.getByRole('link', { name: /Notification settings/ }).click();
  await expect(page).toHaveURL(/\/settings\/notifications$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();

  const main = page.getByRole('main');
  const priceMove = main.getByRole('combobox', { name: 'Price move', exact: true });
  await expect(priceMove).toHaveValue('in_app');
  await expect(main.getByRole('combobox', { name: 'Payout', exact: true })).toHaveValue('in_app');

  // Turned off: saved through PUT /api/notifications/preferences, announced, and answered by the API.
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/notifications/preferences') && r.request().method() === 'PUT');
  await priceMove.selectOption('off');
  expect((await saved).status()).toBe(200);
  await expect(page.getByTestId('notification-preferences-status')).toHaveText(/Price move: off\. Saved\./);
  const answered = await (await page.request.get('/api/notifications/preferences', { headers: { Authorization: `Bearer ${token}` } })).json();
  const byKind = Object.fromEntries((answered.preferences as { kind: string; channel: string }[]).map((p) => [p.kind, p.channel]));
  expect(byKind).toMatchObject({ price_move: 'off', payout: 'in_app' });

  // After a reload the select still says off; the others kept their default.
  await page.reload();
  await expect(main.getByRole('combobox', { name: 'Price move', exact: true })).toHaveValue('off');
  await expect(main.getByRole('combobox', { name: 'Payout', exact: true })).toHaveValue('in_app');

  // With the keyboard: focus the Follow select and pick the daily digest.
  const followSelect = main.getByRole('combobox', { name: 'Follow', exact: true });
  await followSelect.focus();
  const savedFollow = page.waitForResponse((r) => r.url().endsWith('/api/notifications/preferences') && r.request().method() === 'PUT');
  await followSelect.selectOption('digest');
  expect((await savedFollow).status()).toBe(200);
  await expect(followSelect).toBeFocused();

  // The notifications page links to these settings and to the digest.
  await page.goto('/notifications');
  const header = page.getByRole('main');
  await expect(header.getByRole('link', { name: 'Settings', exact: true })).toHaveAttribute('href', '/settings/notifications');
  await header.getByRole('link', { name: 'Digest', exact: true }).click();
  await expect(page).toHaveURL(/\/notifications\/digest$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your digest' })).toBeVisible();
  await page.context().close();
});
