import { expect, test } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/** The administrator's token subject: playwright.config.ts lists it in the server's ADMIN_SUBJECTS. */
const ADMIN_SUBJECT = 'e2e|moderation-admin';

test('an administrator registers a third-party app from the console; it is in the public registry until removed', async ({ browser }, testInfo) => {
  const options = projectContextOptions(testInfo.project.use);
  const admin = await signInNewPlayer(browser, ADMIN_SUBJECT, options);
  const player = await signInNewPlayer(browser, `e2e|apps${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`, options);
  const name = `Radar ${testInfo.project.name} ${Date.now().toString(36).slice(-5)}`;

  // A player is refused the section.
  await player.page.goto('/admin/apps');
  await expect(player.page.getByText('The admin console is for administrators and moderators.')).toBeVisible();

  const page = admin.page;
  await page.goto('/admin/apps');
  await expect(page.getByRole('link', { name: 'Apps', exact: true })).toBeVisible();
  const form = page.getByRole('form', { name: 'Register an app' });
  // Nothing filled in: every required field says what it needs, nothing is sent.
  await form.getByRole('button', { name: 'Register app' }).click();
  await expect(form.getByText('Give the app a name.')).toBeVisible();
  await expect(form.getByText('Enter the app’s address, starting with https://.')).toBeVisible();

  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await form.getByRole('textbox', { name: 'URL' }).fill('https://radar.example.com');
  await form.getByRole('textbox', { name: 'Owner (username)' }).fill('no_such_owner_e2e');
  await form.getByRole('textbox', { name: /Capabilities/ }).fill('read, alerts');
  await form.getByRole('button', { name: 'Register app' }).click();
  await expect(form.getByText('No account has this username or id.')).toBeVisible();

  await form.getByRole('textbox', { name: 'Owner (username)' }).fill(`@${player.username}`);
  await form.getByRole('button', { name: 'Register app' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${name} is in the registry.` })).toBeVisible();
  const list = page.getByRole('list', { name: 'Registered apps' });
  const row = list.getByRole('listitem').filter({ hasText: name });
  await expect(row).toContainText(`@${player.username}`);
  await expect(row).toContainText('alerts');

  // The public registry lists it, with its owner.
  const registry = await (await page.request.get(`/api/registry?type=app&search=${encodeURIComponent(name)}`)).json();
  expect(registry.entries).toHaveLength(1);
  expect(registry.entries[0]).toMatchObject({ type: 'app', name, url: 'https://radar.example.com', owner: { username: player.username } });

  await row.getByRole('button', { name: `Remove ${name} from the registry` }).click();
  await row.getByRole('button', { name: `Remove ${name}`, exact: true }).click();
  await expect(list.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
  const after = await (await page.request.get(`/api/registry?type=app&search=${encodeURIComponent(name)}`)).json();
  expect(after.entries).toHaveLength(0);
  await admin.page.context().close();
  await player.page.context().close();
});
