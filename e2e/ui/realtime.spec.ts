import { expect, test, type Page } from '@playwright/test';
import { mintToken, projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/** The connection indicator of whichever navigation is showing (sidebar, or the phone's top bar). */
const indicator = (page: Page) => page.getByTestId('connection-indicator').filter({ visible: true });

test('a post made in one browser appears live in the other, behind a "1 new post" pill', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const options = projectContextOptions(testInfo.project.use);
  const a = await signInNewPlayer(browser, `e2e|ra${unique}`, options);
  const b = await signInNewPlayer(browser, `e2e|rb${unique}`, options);

  // A reads the Latest feed; the page's one live connection comes up.
  await a.page.goto('/');
  await expect(indicator(a.page)).toHaveAttribute('data-state', 'open');
  await expect(indicator(a.page)).toHaveAttribute('title', /Live updates: connected/);
  if (testInfo.project.name === 'desktop') await expect(indicator(a.page)).toContainText('Live');
  const latest = a.page.getByRole('feed', { name: 'Latest posts' });
  await expect(latest).toBeVisible();
  await expect(a.page.getByTestId('new-posts-banner')).toHaveCount(0);

  // B posts from their own home feed.
  const content = `Live from the other tab ${unique} #rt${unique}`;
  await b.page.goto('/');
  const composer = b.page.getByRole('form', { name: 'New post' });
  await composer.getByRole('textbox', { name: 'Write a post' }).fill(content);
  await composer.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(composer.getByText('Your post is live.')).toBeVisible();

  // A is told without reloading, and the feed under them has not moved.
  const pill = a.page.getByRole('button', { name: 'Show 1 new post', exact: true });
  await expect(pill).toBeVisible();
  await expect(a.page.getByRole('status').filter({ hasText: '1 new post available' })).toHaveCount(1);
  await expect(latest.getByRole('article').filter({ hasText: content })).toHaveCount(0);

  // The pill shows it (keyboard works as well as a click) and goes away.
  await pill.focus();
  await pill.press('Enter');
  await expect(latest.getByRole('article').filter({ hasText: content })).toHaveCount(1);
  await expect(latest.getByRole('article').first()).toContainText(content);
  await expect(a.page.getByTestId('new-posts-banner')).toHaveCount(0);

  // One's own post needs no pill: B's feed already shows it, and no banner appeared there.
  await expect(b.page.getByRole('feed', { name: 'Latest posts' }).getByRole('article').filter({ hasText: content })).toHaveCount(1);
  await expect(b.page.getByTestId('new-posts-banner')).toHaveCount(0);

  await a.page.context().close();
  await b.page.context().close();
});

test("another player's trade moves the price on an open market page without a reload", async ({ browser, request }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const a = await signInNewPlayer(browser, `e2e|rm${unique}`, projectContextOptions(testInfo.project.use));
  const traderToken = await mintToken(`e2e|rt${unique}`, { email: `rt${unique}@example.test` });

  const list = await (await request.get('/api/markets/predictions?status=active&limit=1')).json();
  const market = list.markets[0] as { id: string; question: string };
  await a.page.goto(`/markets/${market.id}`);
  await expect(a.page.getByRole('main').getByRole('heading', { level: 1, name: market.question })).toBeVisible();
  await expect(indicator(a.page)).toHaveAttribute('data-state', 'open');
  const price = a.page.getByTestId('market-yes-price');
  const before = (await price.textContent())!;

  const res = await request.post(`/api/markets/predictions/${market.id}/buy`, {
    headers: { Authorization: `Bearer ${traderToken}` },
    data: { outcome: 'YES', amount: 200 },
  });
  expect(res.status()).toBe(200);

  // Well inside the page's 15 s staleness: only the live market_update can move it this soon,
  // and it is tinted as a rise for a moment (a YES buy raises the YES price).
  await expect(price.locator('[data-flash="up"]')).toHaveCount(1, { timeout: 8_000 });
  await expect(price).not.toHaveText(before);
  await a.page.context().close();
});

test('the breaking-news ticker steps by keyboard, pauses, and stands still for reduced motion', async ({ page }) => {
  await page.goto('/markets');
  const ticker = page.getByRole('region', { name: 'Breaking news' });
  const headline = ticker.getByTestId('breaking-news-headline');
  await expect(headline).not.toBeEmpty();

  // Previous and Next are buttons in the tab order; focus on the strip holds the rotation, so
  // only the keys change the headline: it changes and comes back.
  const next = ticker.getByRole('button', { name: 'Next headline' });
  await next.focus();
  const first = (await headline.textContent())!;
  await next.press('Enter');
  await expect(headline).not.toHaveText(first);
  await ticker.getByRole('button', { name: 'Previous headline' }).press('Enter');
  await expect(headline).toHaveText(first);

  // The reader can stop the rotation (WCAG 2.2.2) and start it again.
  await ticker.getByRole('button', { name: 'Pause headlines' }).click();
  await expect(ticker.getByRole('button', { name: 'Resume headlines' })).toBeVisible();
  await ticker.getByRole('button', { name: 'Resume headlines' }).click();
  await expect(ticker.getByRole('button', { name: 'Pause headlines' })).toBeVisible();

  // Reduced motion: no rotation at all, so nothing to pause; stepping by hand still works.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await expect(ticker.getByRole('button', { name: /headlines$/ })).toHaveCount(0);
  await expect(ticker.getByRole('button', { name: 'Next headline' })).toBeVisible();
});
