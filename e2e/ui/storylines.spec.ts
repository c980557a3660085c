import { expect, test, type APIRequestContext } from '@playwright/test';
import { mintToken } from '../fixtures/auth';
import { E2E_CRON_SECRET } from '../fixtures/secret';

/**
 * Storylines in the UI (issue 34), over the seeded world with its backfilled 30 days: a market
 * with a developing story shows "Story so far", a resolved one "How it happened" with its calls,
 * the ticker page lists the company's storylines, and an NPC with resolved calls shows its
 * calibration on its profile and on the leaderboard's Voices. Read as a guest: every read is public.
 */

/** Anonymous limits count per client: the spec's API reads name a client of their own. */
const CLIENT = { 'x-e2e-client': 'storylines-spec' };

type TStoryActor = { id: string; username: string; displayName: string };
type TStory = {
  id: string;
  marketId: string;
  title: string;
  status: 'developing' | 'published';
  beats: { seq: number; headline: string; actor: TStoryActor | null; truthful: boolean | null }[];
  calls: { actor: TStoryActor; probability: number; right: boolean }[];
};

const getJson = async (request: APIRequestContext, path: string) => {
  const res = await request.get(path, { headers: CLIENT });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.json();
};

/** The stories of the world's tickers: the first ticker with a developing story, and published ones. */
const findStories = async (request: APIRequestContext) => {
  const perps = await getJson(request, '/api/markets/perps');
  let developing: { ticker: string; story: TStory } | null = null;
  const resolved: TStory[] = [];
  for (const { ticker } of perps.markets as { ticker: string }[]) {
    const res = await request.get(`/api/markets/perps/tickers/${encodeURIComponent(ticker)}/story`, { headers: CLIENT });
    // A ticker without a company of the world (404) tells no stories.
    if (res.status() === 404) continue;
    expect(res.ok(), await res.text()).toBe(true);
    const answer = await res.json();
    const open = (answer.developing as TStory[]).find((s) => s.beats.length > 0);
    if (!developing && open) developing = { ticker, story: open };
    resolved.push(...(answer.resolved as TStory[]));
    if (developing && resolved.some((s) => s.calls.length > 0)) break;
  }
  return { developing, resolved };
};

/**
 * The world a few game hours on (the scheduler's tick, as e2e/ui/chats.spec.ts runs it): later in a
 * run, earlier specs' ticks may have resolved the stories whose beats had landed, and a new
 * question's first beat lands hours after it is asked.
 */
const tickHoursLater = async (request: APIRequestContext, hours: number) => {
  // The game clock, read as a player (the control read is not for guests): a tick earlier than the
  // last one would be skipped, so the spec asks for hours after the later of the two clocks.
  const token = await mintToken('e2e|storylines-clock');
  const status = await request.get('/api/game/control', { headers: { ...CLIENT, Authorization: `Bearer ${token}` } });
  expect(status.ok(), await status.text()).toBe(true);
  const control = (await status.json()) as { gameTime?: string };
  const gameTime = Math.max(Date.now(), control.gameTime ? Date.parse(control.gameTime) : 0);
  const res = await request.post('/api/cron/game-tick', { headers: { Authorization: `Bearer ${E2E_CRON_SECRET}` }, data: { now: new Date(gameTime + hours * 3_600_000).toISOString() } });
  expect(res.ok(), await res.text()).toBe(true);
  expect((await res.json()).skipped, 'the tick ran').toBe(false);
};

// The pages read as a guest too, and anonymous limits count per client: late in a run, every
// earlier spec's guest pages have spent 127.0.0.1's allowance (a profile's card once answered
// "Too many requests"), so each test's pages name a client of their own.
test.beforeEach(async ({ page }, testInfo) => {
  await page.setExtraHTTPHeaders({ 'x-e2e-client': `storylines-page-${testInfo.project.name}-${testInfo.line}` });
});

test('a market with a developing story shows the story so far, and its ticker lists it', async ({ page }) => {
  let { developing } = await findStories(page.request);
  for (let i = 0; i < 4 && !developing; i++) {
    await tickHoursLater(page.request, 6 * (i + 1));
    ({ developing } = await findStories(page.request));
  }
  expect(developing, 'the seeded world has a developing storyline with a landed beat').not.toBeNull();
  const { ticker, story } = developing!;
  // The market's own answer agrees with the ticker's.
  const own = await getJson(page.request, `/api/markets/predictions/${story.marketId}/story`);
  expect(own.story.id).toBe(story.id);

  await page.goto(`/markets/${story.marketId}`);
  const panel = page.getByRole('region', { name: 'Story so far', exact: true });
  await expect(panel).toBeVisible();
  await expect(panel.getByText(story.title, { exact: true })).toBeVisible();
  await expect(panel.getByText('Developing', { exact: true })).toBeVisible();
  const newest = [...story.beats].sort((a, b) => b.seq - a.seq)[0]!;
  const timeline = panel.getByRole('list', { name: 'What has surfaced, newest first' });
  await expect(timeline.getByTestId('story-beat').first()).toContainText(newest.headline);
  await expect(timeline.getByTestId('story-beat')).toHaveCount(story.beats.length);
  // Who said it links to their profile.
  const told = story.beats.find((b) => b.actor);
  if (told?.actor) await expect(panel.getByRole('link', { name: told.actor.displayName || told.actor.username, exact: true }).first()).toHaveAttribute('href', `/u/${told.actor.username}`);
  // Roles and truth stay hidden while the story develops.
  await expect(panel.getByText('How it happened')).toHaveCount(0);

  await page.goto(`/perps/${ticker}`);
  const stories = page.getByRole('region', { name: 'Storylines', exact: true });
  await expect(stories.getByRole('link', { name: story.title }).first()).toBeVisible();
});

test('a resolved market tells how it happened, with the calls', async ({ page }) => {
  const { resolved } = await findStories(page.request);
  const story = resolved.find((s) => s.calls.length > 0) ?? resolved[0];
  expect(story, 'the backfilled month resolved at least one storyline question').toBeDefined();

  await page.goto(`/markets/${story!.marketId}`);
  const panel = page.getByRole('region', { name: 'Story so far', exact: true });
  // A story published by a tick moments ago (the first test may tick): read the page again until it shows.
  await expect(async () => {
    await page.reload();
    await expect(panel.getByText('Revealed', { exact: true })).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  const arc = panel.getByTestId('how-it-happened');
  await expect(arc.getByRole('heading', { name: 'How it happened' })).toBeVisible();
  await expect(arc.getByRole('list', { name: 'The full story, in order' }).getByTestId('story-beat')).toHaveCount(story!.beats.length);
  if (story!.beats.some((b) => b.truthful !== null)) await expect(arc.getByText(/Pointed to the truth|Misleading/).first()).toBeVisible();
  const calls = arc.getByTestId('story-calls');
  await expect(calls.getByRole('heading', { name: 'The calls' })).toBeVisible();
  if (story!.calls.length > 0) {
    const first = story!.calls[0]!;
    await expect(calls.getByRole('link', { name: first.actor.displayName || first.actor.username, exact: true }).filter({ visible: true }).first()).toBeVisible();
    await expect(calls.getByText(first.right ? 'Right' : 'Wrong', { exact: true }).filter({ visible: true }).first()).toBeVisible();
  }
});

test("an NPC's profile shows its calibration, and the leaderboard lists it among the voices", async ({ page }) => {
  const voices = await getJson(page.request, '/api/actors/calibration?limit=10');
  const voice = (voices.actors as { id: string; username: string; displayName: string; resolved: number; brier: number }[])[0];
  expect(voice, 'some NPC has three resolved calls in the backfilled month').toBeDefined();
  const own = await getJson(page.request, `/api/actors/${voice!.id}/calibration`);

  await page.goto(`/u/${voice!.username}`);
  // The NPC's own card (its track record has a player-style "Calibration" region too).
  const card = page.getByTestId('actor-calibration');
  await expect(card).toBeVisible();
  await expect(card.getByText(voice!.brier.toFixed(2), { exact: true })).toBeVisible();
  await expect(card.getByText(String(own.calibration.resolved), { exact: true }).first()).toBeVisible();
  if (own.calibration.rank !== null) await expect(card.getByText(`#${own.calibration.rank}`, { exact: true })).toBeVisible();
  if (own.recent.length > 0) await expect(card.getByTestId('recent-calls').getByRole('listitem')).toHaveCount(own.recent.length);
  // Its posts carry the calibration chip on their author line (the feed's author objects have it).
  const posts = await getJson(page.request, `/api/posts?userId=${voice!.id}&limit=1`);
  if ((posts.posts as unknown[]).length > 0) {
    await expect(page.getByRole('article', { name: `Post by ${voice!.displayName || voice!.username}`, exact: true }).first().getByTestId('calibration-chip')).toContainText(`Brier ${voice!.brier.toFixed(2)}`);
  }

  await page.goto('/leaderboard');
  const board = page.getByRole('region', { name: 'Voices', exact: true });
  await expect(board.getByRole('link', { name: new RegExp(`@${voice!.username.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).filter({ visible: true }).first()).toBeVisible();
});
