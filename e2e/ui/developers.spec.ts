import { expect, test, type Page } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/** The link in whichever navigation is showing: the sidebar, or the phone's menu (opened first). */
const clickNav = async (page: Page, name: string, isPhone: boolean) => {
  if (isPhone) await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('link', { name, exact: true }).filter({ visible: true }).click();
};

test('GET /developers: the methods come from the server table, with aliases and params, and the console asks a visitor to sign in', async ({ browser }, testInfo) => {
  const isPhone = testInfo.project.name === 'phone';
  const context = await browser.newContext(projectContextOptions(testInfo.project.use));
  const page = await context.newPage();
  const card = await (await page.request.get('/.well-known/agent-card.json')).json();
  await page.goto('/developers');
  await expect(page.getByRole('heading', { level: 1, name: 'Agents & A2A' })).toBeVisible();

  // The live card: its endpoint and protocol version, and a link to the card itself.
  const cardSection = page.getByRole('region', { name: 'The agent card' });
  await expect(cardSection).toContainText(card.url);
  await expect(cardSection).toContainText(`A2A ${card.protocolVersion}`);
  await expect(cardSection.getByRole('link', { name: /agent-card\.json/ })).toHaveAttribute('href', '/.well-known/agent-card.json');

  // Every method of the table, grouped; a write method with its alias and its params from JSON Schema.
  await expect(page.getByRole('heading', { level: 4, name: 'a2a.getMarketData', exact: true })).toBeVisible();
  const block = page.getByRole('region', { name: 'moderation.blockUser', exact: true });
  await expect(block).toContainText('a2a.blockUser');
  await expect(block).toContainText('write');
  const params = block.getByRole(isPhone ? 'list' : 'table', { name: 'Params of moderation.blockUser' });
  await expect(params).toContainText('userId');
  await expect(params).toContainText('required');
  await expect(params).toContainText('the other player: id or username');
  await expect(block.getByRole('figure', { name: 'Example params' })).toContainText('"userId": "<userId>"');
  await expect(page.getByRole('heading', { level: 4, name: 'message/send', exact: true })).toBeVisible();

  // Signed out, the console explains it needs a session and links to sign in.
  const console = page.getByRole('region', { name: 'Try it' });
  await expect(console.getByRole('heading', { name: 'Sign in to try the methods' })).toBeVisible();
  await expect(console.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
  await expect(console.getByRole('button', { name: 'Send' })).toHaveCount(0);
  await context.close();
});

test('POST /api/a2a from /developers: a signed-in player calls a method, then sees invalid params refused with -32602', async ({ browser }, testInfo) => {
  const isPhone = testInfo.project.name === 'phone';
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const { page, username } = await signInNewPlayer(browser, `e2e|dev${unique}`, projectContextOptions(testInfo.project.use));
  const markets = await (await page.request.get('/api/markets/predictions?limit=1')).json();
  const marketId = markets.questions[0].id as string;

  await clickNav(page, 'Developers', isPhone);
  await expect(page).toHaveURL(/\/developers$/);
  await expect(page.getByRole('region', { name: "Your agent's registry entry" })).toContainText(`@${username} is a player account, not an agent`);

  const console = page.getByRole('region', { name: 'Try it' });
  const method = console.getByRole('combobox', { name: 'Method' });
  const params = console.getByRole('textbox', { name: 'Params (JSON)' });
  await method.selectOption('a2a.getMarketPrices');
  // Picking a method fills in its example params (its required fields).
  await expect(params).toHaveValue(/"marketId": "<marketId>"/);
  await params.fill(JSON.stringify({ marketId }));
  await console.getByRole('button', { name: 'Send' }).click();
  await expect(console.getByRole('status')).toContainText('Result for a2a.getMarketPrices');
  await expect(console.getByRole('status')).toContainText('HTTP 200');
  await expect(console.getByRole('figure', { name: 'Request' })).toContainText('"method": "a2a.getMarketPrices"');
  const response = console.getByRole('figure', { name: 'Response' });
  await expect(response).toContainText(`"marketId": "${marketId}"`);
  await expect(response).toContainText('"outcome": "YES"');

  // A number where the schema wants a string, sent from the keyboard: -32602 with the REST code.
  await params.fill('{"marketId": 5}');
  await params.press('Control+Enter');
  await expect(console.getByRole('status')).toContainText('-32602 Invalid params');
  await expect(console.getByRole('status')).toContainText('data.code VALIDATION_ERROR');
  await expect(response).toContainText('"code": -32602');
  await expect(response).not.toContainText('"result"');

  // Text that is not JSON is caught before sending.
  await params.fill('{"marketId": ');
  await expect(params).toHaveAttribute('aria-invalid', 'true');
  await expect(console.getByRole('button', { name: 'Send' })).toBeDisabled();

  // "Try it" on a method of the reference sets the console to it, with its example.
  await page.getByRole('button', { name: 'Try moderation.checkBlockStatus' }).click();
  await expect(method).toHaveValue('moderation.checkBlockStatus');
  await expect(params).toHaveValue(/"userId": "<userId>"/);
  await expect(params).toBeFocused();

  // The registry link opens the registry on its agents.
  await page.getByRole('region', { name: "Your agent's registry entry" }).getByRole('link', { name: 'Browse the agents' }).click();
  await expect(page).toHaveURL(/\/registry\?type=agent$/);
  await expect(page.getByRole('radiogroup', { name: 'Type' }).getByRole('radio', { name: 'Agents' })).toHaveAttribute('aria-checked', 'true');
});
