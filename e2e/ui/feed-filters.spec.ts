import { expect, test, type Locator, type Page } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

// The home feed one can follow (issue 35, deliverable 2): filter tabs (Everyone, Players, My
// markets, Following; a guest gets the first two) kept in ?filter=, NPC trade receipts folded into
// digest lines, and on a phone the stats after the first post, foldable and remembered, with the
// "Show N new posts" pill in the flow where it covers nothing.

const feedTabs = (page: Page) => page.getByRole('tablist', { name: 'Feed' });
const tab = (page: Page, name: string) => feedTabs(page).getByRole('tab', { name, exact: true });

type TBox = { x: number; y: number; width: number; height: number };
const overlaps = (a: TBox, b: TBox) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const boxOf = async (l: Locator) => {
  const box = await l.boundingBox();
  expect(box, 'the element is laid out').not.toBeNull();
  return box!;
};

test('Players hides the NPC posts; My markets and Following need a player; the filter lives in the URL', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const p = await signInNewPlayer(browser, `e2e|ff${unique}`, projectContextOptions(testInfo.project.use));
  const { page } = p;
  const auth = { Authorization: `Bearer ${p.token}` };

  // The world's NPCs post all the time: the plain feed has some.
  const everyone = await (await page.request.get('/api/posts?limit=50')).json();
  expect((everyone.posts as { author: { isActor: boolean } }[]).some((x) => x.author.isActor)).toBe(true);

  // The player holds YES in one market and posts about it; another post names another market.
  const markets = await (await page.request.get('/api/markets/predictions?status=active&limit=2')).json();
  const [held, other] = markets.markets as { id: string }[];
  expect(held && other).toBeTruthy();
  expect((await page.request.post(`/api/markets/predictions/${held!.id}/buy`, { headers: auth, data: { outcome: 'YES', amount: 10 } })).ok()).toBe(true);
  const aboutHeld = `Holding this one ${unique}`;
  const aboutOther = `Not holding that one ${unique}`;
  expect((await page.request.post('/api/posts', { headers: auth, data: { content: aboutHeld, relatedQuestion: held!.id } })).status()).toBe(201);
  expect((await page.request.post('/api/posts', { headers: auth, data: { content: aboutOther, relatedQuestion: other!.id } })).status()).toBe(201);

  await page.goto('/');
  await expect(tab(page, 'Everyone')).toHaveAttribute('aria-selected', 'true');
  for (const name of ['Players', 'My markets', 'Following', 'Favorites']) await expect(tab(page, name)).toBeVisible();
  const latest = page.getByRole('feed', { name: 'Latest posts' });
  await expect(latest.getByText(aboutOther)).toBeVisible();
  // NPC posts show, as posts or folded into a digest line.
  await expect(latest.locator('article[data-npc], [data-testid="receipts-digest"]').first()).toBeVisible();

  // Players, by keyboard (arrow keys move between tabs): no NPC post and no NPC digest is left.
  await tab(page, 'Everyone').focus();
  await page.keyboard.press('ArrowRight');
  await expect(tab(page, 'Players')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/[?&]filter=players/);
  const players = page.getByRole('feed', { name: 'Latest posts by players' });
  await expect(players.getByText(aboutOther)).toBeVisible();
  await expect(players.locator('article[data-npc]')).toHaveCount(0);
  await expect(players.getByTestId('receipts-digest')).toHaveCount(0);
  const api = await (await page.request.get('/api/posts?filter=players&limit=50', { headers: auth })).json();
  expect((api.posts as { author: { isActor: boolean } }[]).every((x) => !x.author.isActor)).toBe(true);

  // My markets: the post about the held market stays, the other goes; a reload keeps the tab.
  await tab(page, 'My markets').click();
  await expect(page).toHaveURL(/[?&]filter=mine/);
  const mine = page.getByRole('feed', { name: 'Posts about your markets' });
  await expect(mine.getByText(aboutHeld)).toBeVisible();
  await expect(mine.getByText(aboutOther)).toHaveCount(0);
  await page.reload();
  await expect(tab(page, 'My markets')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('feed', { name: 'Posts about your markets' }).getByText(aboutHeld)).toBeVisible();

  // Everyone again: the URL forgets the filter.
  await tab(page, 'Everyone').click();
  await expect(page).not.toHaveURL(/filter=/);
  await expect(page.getByRole('feed', { name: 'Latest posts' }).getByText(aboutOther)).toBeVisible();

  // A digest line of NPC trades opens by keyboard when the feed has one (the world's NPCs trade in
  // runs; lib/posts/receipts.test.ts holds the grouping itself).
  const digest = page.getByRole('feed', { name: 'Latest posts' }).getByTestId('receipts-digest').first();
  if ((await digest.count()) > 0) {
    const toggle = digest.getByRole('button', { name: /NPC trades/ });
    await expect(digest.getByRole('article')).toHaveCount(0);
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(await digest.getByRole('article').count()).toBeGreaterThanOrEqual(2);
  }
  await page.context().close();
});

test('signed out, the feed offers Everyone and Players only, and a signed-in filter in the URL reads as Everyone', async ({ browser }, testInfo) => {
  const context = await browser.newContext(projectContextOptions(testInfo.project.use));
  const page = await context.newPage();
  await page.goto('/?filter=mine');
  await expect(tab(page, 'Everyone')).toHaveAttribute('aria-selected', 'true');
  await expect(tab(page, 'Players')).toBeVisible();
  await expect(feedTabs(page).getByRole('tab')).toHaveCount(2);
  await expect(page.getByRole('feed', { name: 'Latest posts' })).toBeVisible();
  // The API refuses a guest the personal filters.
  expect((await page.request.get('/api/posts?filter=mine', { headers: { 'x-e2e-client': `ff-guest-${Date.now().toString(36)}` } })).status()).toBe(401);
  await tab(page, 'Players').click();
  await expect(page.getByRole('feed', { name: 'Latest posts by players' }).locator('article[data-npc]')).toHaveCount(0);
  await context.close();
});

test('on a phone the stats follow the first post and fold away, and the new-posts pill covers no post', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const options = projectContextOptions(testInfo.project.use);
  const isPhone = testInfo.project.name === 'phone';
  const reader = await signInNewPlayer(browser, `e2e|fr${unique}`, options);
  const writer = await signInNewPlayer(browser, `e2e|fw${unique}`, options);
  const { page } = reader;

  await page.goto('/');
  const latest = page.getByRole('feed', { name: 'Latest posts' });
  const first = latest.getByRole('article').first();
  await expect(first).toBeVisible();
  const stats = page.getByRole('region', { name: 'The world right now' });
  await expect(stats).toHaveCount(1);
  await expect(stats.getByText('Open questions', { exact: true })).toBeVisible();
  const firstBox = await boxOf(first);
  const statsBox = await boxOf(stats);
  if (isPhone) {
    // After the first post, not above it.
    expect(statsBox.y).toBeGreaterThanOrEqual(firstBox.y + firstBox.height);
    // Folded by its button, and still folded after a reload (localStorage).
    const fold = stats.getByRole('button', { name: 'World stats' });
    await expect(fold).toHaveAttribute('aria-expanded', 'true');
    await fold.click();
    await expect(fold).toHaveAttribute('aria-expanded', 'false');
    await expect(stats.getByText('Open questions', { exact: true })).toBeHidden();
    await page.reload();
    await expect(page.getByRole('region', { name: 'The world right now' }).getByRole('button', { name: 'World stats' })).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('region', { name: 'The world right now' }).getByText('Open questions', { exact: true })).toBeHidden();
    await page.getByRole('region', { name: 'The world right now' }).getByRole('button', { name: 'World stats' }).click();
    await expect(page.getByRole('region', { name: 'The world right now' }).getByText('Open questions', { exact: true })).toBeVisible();
  } else {
    // From 640 px up they lead the page, with nothing to fold.
    expect(statsBox.y + statsBox.height).toBeLessThanOrEqual(firstBox.y);
    await expect(stats.getByRole('button')).toHaveCount(0);
  }

  // Another player posts: the pill appears in a row of its own, over no post.
  const content = `Pill check ${unique}`;
  expect((await writer.page.request.post('/api/posts', { headers: { Authorization: `Bearer ${writer.token}` }, data: { content } })).status()).toBe(201);
  const pill = page.getByRole('button', { name: 'Show 1 new post', exact: true });
  await expect(pill).toBeVisible();
  const pillBox = await boxOf(pill);
  const articles = latest.getByRole('article');
  const n = Math.min(await articles.count(), 3);
  for (let i = 0; i < n; i++) expect(overlaps(pillBox, await boxOf(articles.nth(i))), `the pill covers article ${i}`).toBe(false);
  expect(pillBox.y + pillBox.height).toBeLessThanOrEqual((await boxOf(latest.getByRole('article').first())).y);
  await pill.click();
  await expect(latest.getByRole('article').first()).toContainText(content);

  await page.context().close();
  await writer.page.context().close();
});
