import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { mintToken, projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/** The administrator's token subject: playwright.config.ts lists it in the server's ADMIN_SUBJECTS. */
const ADMIN_SUBJECT = 'e2e|moderation-admin';

const uniqueOf = (projectName: string) => `${projectName.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;

/** axe (WCAG 2.x A and AA): the serious and critical violations on the page as it is now. */
const seriousViolations = async (page: Page) => {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
};

/** A fresh question, created by the administrator, closing five days after the later of the wall and game clocks. */
const createMarket = async (request: APIRequestContext, text: string) => {
  const headers = { authorization: `Bearer ${await mintToken(ADMIN_SUBJECT)}` };
  const control = await (await request.get('/api/game/control', { headers })).json();
  const gameTime = Math.max(Date.now(), control.gameTime ? Date.parse(control.gameTime) : 0);
  const res = await request.post('/api/admin/markets', { headers, data: { text, resolutionDate: new Date(gameTime + 5 * 86_400_000).toISOString() } });
  expect(res.status()).toBe(200);
  return (await res.json()).market as { id: string };
};

test('POST /api/users/{userId}/api-keys from settings: create a capped key, see its secret once, use it, see the Bot badge, revoke it', async ({ browser }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  const unique = uniqueOf(testInfo.project.name);
  const { page, username } = await signInNewPlayer(browser, `e2e|key${unique}`, projectContextOptions(testInfo.project.use));
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const market = await createMarket(page.request, `Will a bot trade within its caps ${unique}?`);

  // Settings → API keys.
  await page.goto('/settings');
  await page.getByRole('link', { name: /Manage API keys/ }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'No keys yet' })).toBeVisible();

  // The form refuses what the contract refuses, under the field.
  const form = main.getByRole('region', { name: 'Create a key' });
  await form.getByRole('textbox', { name: 'Per order', exact: true }).fill('0');
  await form.getByRole('button', { name: 'Create key' }).click();
  await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('Give the key a name of 1 to 64 characters')).toBeVisible();
  await expect(form.getByText('Enter an amount above $0')).toBeVisible();

  // "bot": read and trade, at most $50 an order.
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('bot');
  await expect(form.getByRole('checkbox', { name: /^Read/ })).toBeChecked();
  await form.getByRole('checkbox', { name: /^Trade/ }).check();
  await form.getByRole('textbox', { name: 'Per order', exact: true }).fill('50');
  await form.getByRole('button', { name: 'Create key' }).click();

  // The secret, once: a warning, a copy button, a dismiss.
  const reveal = main.getByRole('region', { name: 'Your new key “bot”' });
  await expect(reveal).toContainText('This secret is shown only once.');
  const secret = await reveal.getByRole('textbox', { name: 'Secret', exact: true }).inputValue();
  expect(secret).toMatch(/^pm_/);
  await reveal.getByRole('button', { name: 'Copy the secret' }).click();
  await expect(reveal.getByRole('button', { name: 'Copy the secret' })).toContainText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  const item = main.getByRole('list', { name: 'Your API keys' }).getByRole('article', { name: 'bot', exact: true });
  await expect(item).toContainText('Active');
  await expect(item).toContainText(secret.slice(0, 11));
  await expect(item.getByRole('list', { name: 'Scopes' })).toContainText('Read');
  await expect(item.getByRole('list', { name: 'Scopes' })).toContainText('Trade');
  await expect(item).toContainText('$50.00');
  expect(await seriousViolations(page)).toEqual([]);
  await reveal.getByRole('button', { name: 'I saved it, hide the secret' }).click();
  await expect(main.getByRole('textbox', { name: 'Secret', exact: true })).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);

  // The key from a bot: it acts as the player, held to its per-order cap.
  const withKey = (init: RequestInit = {}) => ({ ...init, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...init.headers } });
  const me = await fetch(`${baseURL}/api/users/me`, withKey());
  expect(me.status).toBe(200);
  expect((await me.json()).user.username).toBe(username);

  const buy = (amount: number) => fetch(`${baseURL}/api/markets/predictions/${market.id}/buy`, withKey({ method: 'POST', body: JSON.stringify({ outcome: 'YES', amount }) }));
  const tooBig = await buy(100);
  expect(tooBig.status).toBe(403);
  expect((await tooBig.json()).error.code).toBe('KEY_LIMIT_EXCEEDED');
  const fits = await buy(10);
  expect(fits.status).toBe(200);
  expect((await fits.json()).success).toBe(true);

  // The player trades through a key: their profile says so.
  await page.goto(`/u/${username}`);
  const badge = page.getByRole('main').getByTitle('Trades through an API key');
  await expect(badge).toBeVisible();
  await expect(badge).toHaveText(/^Bot/);

  // Revoke, after a confirmation: the next call with the key is 401.
  await page.goto('/settings/api-keys');
  await item.getByRole('button', { name: 'Revoke bot' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke “bot”?' });
  await expect(dialog).toContainText('This cannot be undone.');
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(main.getByRole('status').filter({ hasText: 'Revoked “bot”.' })).toBeVisible();
  await expect(item).toContainText('Revoked');
  await expect(item.getByRole('button', { name: 'Revoke bot' })).toHaveCount(0);
  expect((await fetch(`${baseURL}/api/users/me`, withKey())).status).toBe(401);
  await page.context().close();
});

test('GET /llms.txt: public plain text that names the MCP endpoint', async ({ request }) => {
  const res = await request.get('/llms.txt');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('text/plain; charset=utf-8');
  expect(res.headers()['cache-control']).toContain('max-age=300');
  const text = await res.text();
  expect(text.startsWith('# Playmoney\n')).toBe(true);
  expect(text).toMatch(/\(http:\/\/localhost:\d+\/api\/mcp\)/);
  expect(text).toContain('/.well-known/agent-card.json');
});
