import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/**
 * axe (Deque's rules, WCAG 2.x A and AA) over every page of the app, on desktop and on a phone (the
 * two projects): no serious or critical violation. The list of pages below is checked against the
 * app directory at test time, so a new page.tsx fails the guard test until it is listed here, and is
 * then covered by construction. Dynamic segments take real ids from the seeded world or from what the
 * spec creates through the API (a post, a direct chat, positions, a follower, a report). Pages are read
 * signed in as a new player (on a phone, with the menu open too), the admin console as an
 * administrator, and the public pages signed out. Each page is checked once its main content has
 * loaded (no skeletons left), so the check sees what a player reads.
 */
const SERIOUS = new Set(['serious', 'critical']);

/** The administrator's token subject: playwright.config.ts lists it in the server's ADMIN_SUBJECTS. */
const ADMIN_SUBJECT = 'e2e|moderation-admin';

/** Ids from the seeded world and from what the spec creates, for the pages' dynamic segments. */
type World = {
  marketId: string;
  ticker: string;
  poolId: string;
  groupId: string;
  username: string;
  postId: string;
  tag: string;
  chatId: string;
  reportId: string;
};

type Reader = 'guest' | 'player' | 'admin';

/**
 * Every page.tsx under app/, by its route (as the app directory spells it), with who reads it and
 * the path visited. Guests read the public pages and a few pages that ask them to sign in; a player
 * also reads the admin console's door (refused).
 */
const PAGES: Record<string, { readers: Reader[]; path: (w: World) => string }> = {
  '/': { readers: ['guest', 'player'], path: () => '/' },
  '/sign-in': { readers: ['guest'], path: () => '/sign-in' },
  '/onboarding': { readers: ['player'], path: () => '/onboarding' },
  '/markets': { readers: ['guest', 'player'], path: () => '/markets' },
  '/markets/[id]': { readers: ['guest', 'player'], path: (w) => `/markets/${w.marketId}` },
  '/perps': { readers: ['guest', 'player'], path: () => '/perps' },
  '/perps/[ticker]': { readers: ['guest', 'player'], path: (w) => `/perps/${w.ticker}` },
  '/pools': { readers: ['guest', 'player'], path: () => '/pools' },
  '/pools/[id]': { readers: ['guest', 'player'], path: (w) => `/pools/${w.poolId}` },
  '/portfolio': { readers: ['guest', 'player'], path: () => '/portfolio' },
  '/wallet': { readers: ['player'], path: () => '/wallet' },
  '/notifications': { readers: ['player'], path: () => '/notifications' },
  '/notifications/digest': { readers: ['player'], path: () => '/notifications/digest' },
  '/offline': { readers: ['guest'], path: () => '/offline' },
  '/leaderboard': { readers: ['guest', 'player'], path: () => '/leaderboard' },
  '/leagues': { readers: ['guest', 'player'], path: () => '/leagues' },
  '/points': { readers: ['player'], path: () => '/points' },
  '/referrals': { readers: ['player'], path: () => '/referrals' },
  '/registry': { readers: ['guest', 'player'], path: () => '/registry' },
  '/developers': { readers: ['guest', 'player'], path: () => '/developers' },
  '/status': { readers: ['guest'], path: () => '/status' },
  '/posts/[id]': { readers: ['guest', 'player'], path: (w) => `/posts/${w.postId}` },
  '/tags/[tag]': { readers: ['guest', 'player'], path: (w) => `/tags/${w.tag}` },
  '/u/[username]': { readers: ['guest', 'player'], path: (w) => `/u/${w.username}` },
  '/profile': { readers: ['player'], path: () => '/profile' },
  '/profile/edit': { readers: ['player'], path: () => '/profile/edit' },
  '/settings': { readers: ['player'], path: () => '/settings' },
  '/settings/api-keys': { readers: ['player'], path: () => '/settings/api-keys' },
  '/settings/notifications': { readers: ['player'], path: () => '/settings/notifications' },
  '/settings/blocks': { readers: ['player'], path: () => '/settings/blocks' },
  '/settings/mutes': { readers: ['player'], path: () => '/settings/mutes' },
  '/chats': { readers: ['guest', 'player'], path: () => '/chats' },
  '/chats/[id]': { readers: ['player'], path: (w) => `/chats/${w.chatId}` },
  '/groups': { readers: ['guest', 'player'], path: () => '/groups' },
  '/groups/[groupId]': { readers: ['guest', 'player'], path: (w) => `/groups/${w.groupId}` },
  '/admin': { readers: ['player', 'admin'], path: () => '/admin' },
  '/admin/reports/[reportId]': { readers: ['admin'], path: (w) => `/admin/reports/${w.reportId}` },
  '/admin/users': { readers: ['admin'], path: () => '/admin/users' },
  '/admin/trades': { readers: ['admin'], path: () => '/admin/trades' },
  '/admin/stats': { readers: ['admin'], path: () => '/admin/stats' },
  '/admin/apps': { readers: ['admin'], path: () => '/admin/apps' },
  '/admin/moderation': { readers: ['admin'], path: () => '/admin/moderation' },
};

/** Pages that are not a page.tsx: the 404 page (app/not-found.tsx), read by everyone. */
const NOT_FOUND_PATH = '/no-such-page-on-the-board';

/** The routes of every page.tsx under app/ (route groups "(name)" do not show in the URL). */
const appRoutes = (dir: string, prefix = ''): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isFile()) return entry.name === 'page.tsx' ? [prefix || '/'] : [];
    if (!entry.isDirectory() || entry.name === 'api' || entry.name.startsWith('_')) return [];
    const segment = /^\(.*\)$/.test(entry.name) ? '' : `/${entry.name}`;
    return appRoutes(path.join(dir, entry.name), `${prefix}${segment}`);
  });

const settle = async (page: Page) => {
  await expect(page.getByRole('main')).toBeVisible();
  // Skeletons announce themselves as status regions named "Loading …".
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0, { timeout: 15_000 });
};

const seriousViolations = async (page: Page) => {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    // Only violations are collected (not passes): it halves axe's time on the larger pages.
    .options({ resultTypes: ['violations'] })
    .analyze();
  return results.violations
    .filter((v) => SERIOUS.has(v.impact ?? ''))
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes
      .slice(0, 3)
      .map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1, 2).join(' ')}`)
      .join('\n    ')}`);
};

/** How many tabs read pages at once: the server and the browser overlap their work. */
const TABS = 2;

/**
 * Visits every page `reader` reads (and the 404 page) in `context`, a few tabs at a time, and
 * answers the serious violations found.
 */
const checkPages = async (context: BrowserContext, reader: Reader, world: World) => {
  const queue = [
    ...Object.values(PAGES)
      .filter((p) => p.readers.includes(reader))
      .map((p) => p.path(world)),
    NOT_FOUND_PATH,
  ];
  const found: string[] = [];
  const tab = async () => {
    const page = await context.newPage();
    for (let target = queue.shift(); target !== undefined; target = queue.shift()) {
      await page.goto(target);
      await settle(page);
      for (const v of await seriousViolations(page)) found.push(`${reader} ${target}: ${v}`);
    }
    await page.close();
  };
  await Promise.all(Array.from({ length: TABS }, tab));
  return found.sort();
};

test('every page.tsx of the app is in the list axe reads', () => {
  const routes = appRoutes(fileURLToPath(new URL('../../app', import.meta.url))).sort();
  expect(routes.length).toBeGreaterThan(0);
  expect(Object.keys(PAGES).sort()).toEqual(routes);
});

test.describe('axe over every page', () => {
  let world: World;
  let options: BrowserContextOptions;
  let player: Awaited<ReturnType<typeof signInNewPlayer>>;
  let admin: Awaited<ReturnType<typeof signInNewPlayer>>;

  test.beforeAll(async ({ browser }: { browser: Browser }, testInfo) => {
    test.setTimeout(60_000);
    const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
    options = projectContextOptions(testInfo.project.use);
    player = await signInNewPlayer(browser, `e2e|ax${unique}`, options);
    admin = await signInNewPlayer(browser, ADMIN_SUBJECT, options);
    const request = player.page.request;
    const asPlayer = { authorization: `Bearer ${player.token}` };
    const asAdmin = { authorization: `Bearer ${admin.token}` };

    const markets = await (await request.get('/api/markets/predictions?status=active&limit=1')).json();
    const perps = await (await request.get('/api/markets/perps')).json();
    const pools = await (await request.get('/api/pools')).json();
    const groups = await (await request.get('/api/groups?limit=1')).json();
    const adminId = (await (await admin.page.request.get('/api/users/me')).json()).user.id as string;
    const playerId = (await (await request.get('/api/users/me')).json()).user.id as string;

    const tag = `ax${unique}`.toLowerCase();
    const posted = await request.post('/api/posts', { headers: asPlayer, data: { content: `Every page reads well #${tag}` } });
    expect(posted.status()).toBe(201);
    const postId = (await posted.json()).post.id as string;

    const dm = await request.post('/api/chats/dm', { headers: asPlayer, data: { participantId: adminId } });
    expect(dm.ok()).toBe(true);
    const chatId = (await dm.json()).chat.id as string;
    const message = await request.post(`/api/chats/${chatId}/message`, { headers: asPlayer, data: { content: 'Hello there' } });
    expect(message.ok()).toBe(true);

    // Positions of each kind and a follower, so the portfolio, the wallet and the notifications
    // read as a trading player's do, not only as empty states.
    const trades = await Promise.all([
      request.post(`/api/markets/predictions/${markets.questions[0].id}/buy`, { headers: asPlayer, data: { outcome: 'YES', amount: 10 } }),
      request.post('/api/markets/perps/open', { headers: asPlayer, data: { ticker: perps.markets[0].ticker, side: 'long', size: 50, leverage: 2 } }),
      request.post(`/api/pools/${pools.pools[0].id}/deposit`, { headers: asPlayer, data: { amount: 100 } }),
      admin.page.request.post(`/api/users/${playerId}/follow`, { headers: asAdmin }),
    ]);
    for (const res of trades) expect(res.ok(), await res.text()).toBe(true);

    // The administrator reports the player's post, so the console has a report to open.
    const reported = await admin.page.request.post('/api/moderation/reports', {
      headers: asAdmin,
      data: { reportType: 'post', reportedPostId: postId, category: 'spam', reason: 'An accessibility check report.' },
    });
    expect(reported.status()).toBe(201);

    world = {
      marketId: markets.questions[0].id,
      ticker: perps.markets[0].ticker,
      poolId: pools.pools[0].id,
      groupId: groups.groups[0].id,
      username: player.username,
      postId,
      tag,
      chatId,
      reportId: (await reported.json()).report.id,
    };
  });

  test.afterAll(async () => {
    await player?.page.context().close();
    await admin?.page.context().close();
  });

  test('signed out, the public pages have no serious accessibility violation', async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext(options);
    const found = await checkPages(context, 'guest', world);
    await context.close();
    expect(found, found.join('\n')).toEqual([]);
  });

  test('signed in, a player’s pages have no serious accessibility violation', async () => {
    test.setTimeout(300_000);
    const found = await checkPages(player.page.context(), 'player', world);
    // On a phone the navigation beyond the tab bar is a menu: read it open as well.
    const { page } = player;
    await page.goto('/');
    await settle(page);
    if (await page.getByRole('button', { name: 'Open menu' }).isVisible()) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(page.locator('#mobile-menu')).toBeVisible();
      for (const v of await seriousViolations(page)) found.push(`player ${page.url()} (menu open): ${v}`);
    }
    expect(found, found.join('\n')).toEqual([]);
  });

  test('the admin console has no serious accessibility violation', async () => {
    test.setTimeout(90_000);
    const found = await checkPages(admin.page.context(), 'admin', world);
    expect(found, found.join('\n')).toEqual([]);
  });
});
