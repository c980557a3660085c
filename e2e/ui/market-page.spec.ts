import { expect, test, type APIRequestContext, type Browser, type BrowserContextOptions } from '@playwright/test';
import { mintToken, signInNewPlayer } from '../fixtures/auth';

/** The administrator's token subject: playwright.config.ts lists it in the server's ADMIN_SUBJECTS. */
const ADMIN_SUBJECT = 'e2e|moderation-admin';

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

const uniqueOf = (projectName: string) => `${projectName.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;

/**
 * A fresh question, created by the administrator through the API, closing five days after the
 * later of the wall clock and the game clock (specs that run the test clock move game time ahead).
 */
const createMarket = async (request: APIRequestContext, text: string) => {
  const token = await mintToken(ADMIN_SUBJECT);
  const headers = { authorization: `Bearer ${token}` };
  const control = await (await request.get('/api/game/control', { headers })).json();
  const gameTime = Math.max(Date.now(), control.gameTime ? Date.parse(control.gameTime) : 0);
  const res = await request.post('/api/admin/markets', {
    headers,
    data: { text, resolutionDate: new Date(gameTime + 5 * 86_400_000).toISOString() },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).market as { id: string; question: string };
};

const signIn = (browser: Browser, subject: string, baseURL: string | undefined, options: BrowserContextOptions) =>
  signInNewPlayer(browser, subject, { ...options, baseURL });

test('a phone-sized market page trades from the sticky bar: buy YES, see the position', async ({ browser, baseURL }, testInfo) => {
  const unique = uniqueOf(testInfo.project.name);
  const player = await signIn(browser, `e2e|mp${unique}`, baseURL, PHONE);
  const market = await createMarket(player.page.request, `Will the sticky bar trade on a phone ${unique}?`);
  const { page } = player;

  await page.goto(`/markets/${market.id}`);
  const bar = page.getByRole('region', { name: 'Trade this market' });
  const buyYes = bar.getByRole('button', { name: /^Buy YES/ });
  // Reachable without scrolling: the bar sits inside the 390×844 viewport on arrival.
  await expect(buyYes).toBeInViewport();
  await expect(bar.getByRole('button', { name: /^Buy NO/ })).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  await buyYes.click();
  const sheet = page.getByRole('dialog', { name: /^Trade:/ });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByRole('radio', { name: 'YES', exact: true })).toHaveAttribute('aria-checked', 'true');
  await sheet.getByRole('textbox', { name: 'Amount', exact: true }).fill('25');
  await sheet.getByRole('button', { name: 'Buy YES', exact: true }).click();
  await expect(sheet.getByRole('status').filter({ hasText: /Bought [\d,.]+ YES shares/ })).toBeVisible();

  // Close the sheet: the position is on the page.
  await sheet.getByRole('button', { name: 'Close the trade panel' }).click();
  await expect(sheet).toBeHidden();
  const shares = page.getByTestId('position-shares');
  await expect(shares).toHaveCount(1);
  expect(Number((await shares.textContent())!.replace(/,/g, ''))).toBeGreaterThan(0);

  // Tapping NO opens the sheet on the NO side.
  await bar.getByRole('button', { name: /^Buy NO/ }).click();
  await expect(sheet.getByRole('radio', { name: 'NO', exact: true })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await page.context().close();
});

test('the desktop market page shows the resolution criteria, the holders after a buy and a comment thread', async ({ browser, baseURL }, testInfo) => {
  const unique = uniqueOf(testInfo.project.name);
  const player = await signIn(browser, `e2e|md${unique}`, baseURL, DESKTOP);
  const { page } = player;
  const market = await createMarket(page.request, `Will the market page explain itself ${unique}?`);

  // A post about the market with a comment, through the API as a player would write them.
  const auth = { authorization: `Bearer ${player.token}` };
  const postRes = await page.request.post('/api/posts', { headers: auth, data: { content: `My take on this one ${unique}: YES`, relatedQuestion: market.id } });
  expect(postRes.ok()).toBe(true);
  const postId = (await postRes.json()).post.id as string;
  const comment = `Agreed, the odds look too low here ${unique}`;
  const commentRes = await page.request.post(`/api/posts/${postId}/comments`, { headers: auth, data: { content: comment } });
  expect(commentRes.ok()).toBe(true);

  await page.goto(`/markets/${market.id}`);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Resolution criteria' })).toBeVisible();
  await expect(page.getByTestId('resolution-criteria')).toContainText('resolves YES if the YES price is 50% or more');
  // The sticky bar is for phones only.
  await expect(page.getByRole('region', { name: 'Trade this market' })).toBeHidden();

  const holders = main.getByRole('region', { name: 'Top holders' });
  await expect(holders.getByText('Nobody holds YES yet.')).toBeVisible();
  const trade = main.getByRole('complementary', { name: 'Trade' });
  await trade.getByRole('textbox', { name: 'Amount', exact: true }).fill('40');
  await trade.getByRole('button', { name: 'Buy YES', exact: true }).click();
  await expect(trade.getByRole('status').filter({ hasText: /Bought [\d,.]+ YES shares/ })).toBeVisible();
  await expect(holders.getByRole('list', { name: 'Largest YES holders' }).getByRole('link', { name: player.username })).toBeVisible();
  await expect(holders.getByRole('heading', { name: 'YES holders (1)' })).toBeVisible();
  await expect(main.getByRole('region', { name: 'Your trades' }).getByText(/Bought\s+YES/)).toBeVisible();

  const discussion = main.getByRole('region', { name: /^Discussion/ });
  await expect(discussion.getByText(`My take on this one ${unique}: YES`)).toBeVisible();
  await expect(discussion.getByRole('article', { name: `Comment by @${player.username}` })).toContainText(comment);
  await page.context().close();
});

test("the markets list's search and sort work and stay in the address", async ({ browser, baseURL }, testInfo) => {
  const unique = uniqueOf(testInfo.project.name);
  const player = await signIn(browser, `e2e|ml${unique}`, baseURL, DESKTOP);
  const { page } = player;
  const quiet = await createMarket(page.request, `Will the quiet ${unique} market stay quiet?`);
  const busy = await createMarket(page.request, `Will the busy ${unique} market draw volume?`);
  const buy = await page.request.post(`/api/markets/predictions/${busy.id}/buy`, {
    headers: { authorization: `Bearer ${player.token}` },
    data: { outcome: 'NO', amount: 30 },
  });
  expect(buy.ok()).toBe(true);

  await page.goto('/markets');
  const main = page.getByRole('main');
  await main.getByRole('searchbox', { name: 'Search markets' }).fill(unique);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${unique}`));
  const cards = main.getByRole('tabpanel').getByRole('link');
  await expect(cards).toHaveCount(2);
  // Newest first by default: the busy market was created last.
  await expect(cards.first()).toHaveText(busy.question);

  await main.getByRole('searchbox', { name: 'Search markets' }).fill(`quiet ${unique}`);
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toHaveText(quiet.question);

  await main.getByRole('searchbox', { name: 'Search markets' }).fill(unique);
  await expect(cards).toHaveCount(2);
  await main.getByRole('combobox', { name: 'Sort by' }).selectOption('closing');
  await expect(page).toHaveURL(/[?&]sort=closing/);
  await main.getByRole('combobox', { name: 'Sort by' }).selectOption('volume');
  await expect(page).toHaveURL(/[?&]sort=volume/);
  await expect(cards.first()).toHaveText(busy.question);

  // The address holds the view: a reload shows the same search and sort.
  await page.reload();
  await expect(main.getByRole('searchbox', { name: 'Search markets' })).toHaveValue(unique);
  await expect(main.getByRole('combobox', { name: 'Sort by' })).toHaveValue('volume');
  await expect(cards).toHaveCount(2);

  // Nothing matches: an empty state with a way back.
  await main.getByRole('searchbox', { name: 'Search markets' }).fill(`zz${unique}nothing`);
  await expect(main.getByRole('heading', { name: 'No markets match' })).toBeVisible();
  await main.getByRole('button', { name: 'Clear search and filters' }).click();
  await expect(main.getByRole('searchbox', { name: 'Search markets' })).toHaveValue('');
  await page.context().close();
});
