import { expect, test } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

// The feed's filters (issue 31, deliverable 7): "Hide NPCs" leaves the NPC actors' posts out,
// "Only what I hold" (signed in) keeps the posts about one's markets; both are switches a keyboard
// flips, and both live in the URL (a reload keeps them).

test('the feed hides NPCs and keeps only what I hold, by keyboard, remembered in the URL', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const p = await signInNewPlayer(browser, `e2e|ff${unique}`, projectContextOptions(testInfo.project.use));
  const { page } = p;
  const auth = { Authorization: `Bearer ${p.token}` };

  // The player holds YES in one market and posts about it; another post names no market.
  const markets = await (await page.request.get('/api/markets/predictions?status=active&limit=2')).json();
  const [held, other] = markets.markets as { id: string; question: string }[];
  expect(held && other).toBeTruthy();
  expect((await page.request.post(`/api/markets/predictions/${held!.id}/buy`, { headers: auth, data: { outcome: 'YES', amount: 10 } })).ok()).toBe(true);
  const aboutHeld = `Holding this one ${unique}`;
  const aboutOther = `Not holding that one ${unique}`;
  expect((await page.request.post('/api/posts', { headers: auth, data: { content: aboutHeld, relatedQuestion: held!.id } })).status()).toBe(201);
  expect((await page.request.post('/api/posts', { headers: auth, data: { content: aboutOther, relatedQuestion: other!.id } })).status()).toBe(201);

  await page.goto('/');
  const feed = page.getByRole('feed', { name: 'Latest posts' });
  await expect(feed.getByText(aboutOther)).toBeVisible();

  // Hide NPCs: Tab to the switch, Space flips it; no NPC author is left, the player's post stays.
  const hideNpcs = page.getByRole('switch', { name: 'Hide NPCs' });
  await hideNpcs.focus();
  await page.keyboard.press('Space');
  await expect(hideNpcs).toBeChecked();
  await expect(page).toHaveURL(/[?&]hideNpcs=1/);
  await expect(feed.getByText(aboutOther)).toBeVisible();
  const api = await (await page.request.get('/api/posts?hideNpcs=true&limit=50', { headers: auth })).json();
  expect((api.posts as { author: { isActor: boolean } }[]).every((x) => !x.author.isActor)).toBe(true);

  // Only what I hold: the post about the held market stays, the other goes.
  const onlyHeld = page.getByRole('switch', { name: 'Only what I hold' });
  await onlyHeld.focus();
  await page.keyboard.press('Space');
  await expect(onlyHeld).toBeChecked();
  await expect(page).toHaveURL(/[?&]held=1/);
  await expect(feed.getByText(aboutHeld)).toBeVisible();
  await expect(feed.getByText(aboutOther)).toHaveCount(0);

  // A reload keeps both.
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Hide NPCs' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Only what I hold' })).toBeChecked();
  await expect(page.getByRole('feed', { name: 'Latest posts' }).getByText(aboutHeld)).toBeVisible();
  await expect(page.getByRole('feed', { name: 'Latest posts' }).getByText(aboutOther)).toHaveCount(0);

  // Off again: the URL forgets them.
  await page.getByRole('switch', { name: 'Only what I hold' }).focus();
  await page.keyboard.press('Space');
  await page.getByRole('switch', { name: 'Hide NPCs' }).focus();
  await page.keyboard.press('Space');
  await expect(page).not.toHaveURL(/hideNpcs|held=/);
  await expect(page.getByRole('feed', { name: 'Latest posts' }).getByText(aboutOther)).toBeVisible();
  await page.context().close();
});

test('signed out, the feed offers "Hide NPCs" but not "Only what I hold"', async ({ browser }, testInfo) => {
  const context = await browser.newContext(projectContextOptions(testInfo.project.use));
  const page = await context.newPage();
  await page.goto('/?held=1');
  await expect(page.getByRole('switch', { name: 'Hide NPCs' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Only what I hold' })).toHaveCount(0);
  // held=1 in a signed-out URL is ignored, not an error: the latest posts load.
  await expect(page.getByRole('feed', { name: 'Latest posts' })).toBeVisible();
  await context.close();
});
