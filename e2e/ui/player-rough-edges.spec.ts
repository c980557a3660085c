import { expect, test } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/** A 2x2 PNG: the smallest image the upload accepts and re-encodes. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==',
  'base64',
);

const uniqueOf = (projectName: string) => `${projectName.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;

test('Edit profile uploads an avatar, as onboarding does', async ({ browser }, testInfo) => {
  const unique = uniqueOf(testInfo.project.name);
  const { page } = await signInNewPlayer(browser, `e2e|re1${unique}`, projectContextOptions(testInfo.project.use));
  await page.goto('/profile/edit');
  const main = page.getByRole('main');
  // The same picker as onboarding's profile step: a file input for an upload.
  const upload = main.getByLabel('Upload an image');
  await expect(upload).toHaveAttribute('type', 'file');
  await upload.setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: TINY_PNG });
  // The uploaded image's URL lands in the form, and saving keeps it.
  const url = main.getByRole('textbox', { name: 'Profile image URL', exact: true });
  await expect(url).toHaveValue(/\S/);
  const uploaded = await url.inputValue();
  expect(uploaded).not.toMatch(/^\/avatars\//);
  await main.getByRole('textbox', { name: 'Username', exact: true }).fill(`re1_${unique}`);
  await main.getByRole('button', { name: 'Save profile' }).click();
  await expect(main.getByText('Profile saved')).toBeVisible();
  const me = await (await page.request.get('/api/users/me')).json();
  expect(me.user.profileImageUrl).toBe(uploaded);
  await page.context().close();
});

test('onboarding ends with a way into the game: a "Start trading" step that links to the markets', async ({ browser }, testInfo) => {
  const unique = uniqueOf(testInfo.project.name);
  const { page } = await signInNewPlayer(browser, `e2e|re2${unique}`, projectContextOptions(testInfo.project.use));
  await expect(page).toHaveURL(/\/onboarding$/);
  const main = page.getByRole('main');
  const steps = main.getByRole('list', { name: 'Onboarding steps' });
  // The last step of the list is the way in.
  await expect(steps.getByRole('listitem').last()).toContainText('Start trading');

  await main.getByRole('textbox', { name: 'Username', exact: true }).fill(`re2_${unique}`);
  await expect(main.getByText('Available.')).toBeVisible();
  await main.getByRole('textbox', { name: 'Display name', exact: true }).fill(`Rough ${unique}`);
  await main.getByRole('button', { name: 'Continue', exact: true }).click();

  // Profile saved: the registration runs, and trading need not wait for it.
  await expect(steps.locator('[aria-current="step"]')).toContainText('On-chain identity');
  const start = main.getByRole('link', { name: 'Start trading', exact: true });
  await expect(start).toHaveAttribute('href', '/markets');
  await start.click();
  await expect(page).toHaveURL(/\/markets$/);
  await page.context().close();
});

test('the developer console: a market picker fills real ids into the examples, and a buy can be previewed over A2A', async ({ browser }, testInfo) => {
  const unique = uniqueOf(testInfo.project.name);
  const { page } = await signInNewPlayer(browser, `e2e|re3${unique}`, projectContextOptions(testInfo.project.use));
  const markets = await (await page.request.get('/api/markets/predictions?limit=1')).json();
  const marketId = markets.questions[0].id as string;

  await page.goto('/developers');
  const curl = page.getByRole('region', { name: 'curl', exact: true });
  // Before a pick the REST example names the placeholder; after it, the market itself.
  await expect(curl).toContainText('/api/markets/predictions/<marketId>/buy');
  const picker = page.getByRole('combobox', { name: 'Example market' });
  await expect(picker.locator(`option[value="${marketId}"]`)).toHaveCount(1);
  await picker.selectOption(marketId);
  await expect(curl).toContainText(`/api/markets/predictions/${marketId}/buy`);
  await expect(curl).not.toContainText('<marketId>');
  await expect(page.getByRole('region', { name: 'TypeScript, MCP SDK', exact: true })).toContainText(`'a2a.buyShares', arguments: { marketId: '${marketId}'`);

  // The console's examples use it too.
  const console = page.getByRole('region', { name: 'Try it', exact: true });
  const method = console.getByRole('combobox', { name: 'Method' });
  const params = console.getByRole('textbox', { name: 'Params (JSON)' });
  await method.selectOption('a2a.getMarketPrices');
  await expect(params).toHaveValue(new RegExp(`"marketId": "${marketId}"`));
  await expect(params).not.toHaveValue(/<marketId>/);

  // A trading method, from the console's buy preview: a dry run that moves nothing.
  await console.getByRole('button', { name: 'Preview a buy' }).click();
  await expect(method).toHaveValue('a2a.buyShares');
  await expect(params).toHaveValue(new RegExp(`"marketId": "${marketId}"`));
  await expect(params).toHaveValue(/"dryRun": true/);
  await console.getByRole('button', { name: 'Send' }).click();
  await expect(console.getByRole('status')).toContainText('Result for a2a.buyShares');

  // The method list has the trading methods, with "Try it".
  const methods = page.getByRole('region', { name: 'Methods', exact: true });
  await expect(methods.getByRole('heading', { level: 3, name: /^Trading/ })).toBeVisible();
  for (const name of ['a2a.buyShares', 'a2a.sellShares', 'a2a.openPosition', 'a2a.closePosition']) {
    await expect(methods.getByRole('heading', { level: 4, name, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Try a2a.buyShares' })).toBeVisible();
  await page.context().close();
});
