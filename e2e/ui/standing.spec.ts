import { tickNextMinute } from '../fixtures/tick';
import { expect, test, type Page } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

// Every test signs a player in: its API reads then count against that player's rate limit, not
// the anonymous budget that the specs after this one share.

type TEntry = { rank: number; user: { id: string; username: string; displayName: string }; points: number; pnlHistory: number[] };

const nameOf = (e: TEntry) => e.user.displayName || e.user.username;

/** A board's ranking as the page shows it: a table on wide screens, a list on phones (DataTable). */
const boardOf = (page: Page, isPhone: boolean, name: RegExp) => page.getByRole(isPhone ? 'list' : 'table', { name });

/** The link in whichever navigation is showing: the sidebar, or the phone's menu (opened first). */
const clickNav = async (page: Page, name: string, isPhone: boolean) => {
  if (isPhone) await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('link', { name, exact: true }).filter({ visible: true }).click();
};

const firstPage = async (page: Page, pointsType: string) => {
  const res = await page.request.get(`/api/leaderboard?pointsType=${pointsType}&pageSize=50`);
  expect(res.status()).toBe(200);
  return (await res.json()) as { leaderboard: TEntry[]; pagination: { total: number } };
};

/** The first rows of the board on the page are the API's first entries, in order. */
const expectBoardStartsWith = async (page: Page, isPhone: boolean, caption: RegExp, entries: TEntry[]) => {
  const board = boardOf(page, isPhone, caption);
  await expect(board).toBeVisible();
  const links = board.getByRole('link');
  for (const [i, e] of entries.slice(0, 3).entries()) {
    await expect(links.nth(i)).toHaveText(nameOf(e));
    await expect(links.nth(i)).toHaveAttribute('href', `/u/${e.user.username}`);
  }
};

test('GET /leaderboard: P&L and ROI boards by period, NPCs marked, the period in the address', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const isPhone = testInfo.project.name === 'phone';
  const { page } = await signInNewPlayer(browser, `e2e|lp${unique}`, projectContextOptions(testInfo.project.use));
  const res = await page.request.get('/api/leaderboard?metric=pnl&period=all&pageSize=50');
  expect(res.status()).toBe(200);
  const pnl = (await res.json()) as { metric: string; leaderboard: (TEntry & { kind: string; score: number })[] };
  expect(pnl.metric).toBe('pnl');
  // Ranked by the score, highest first.
  const scores = pnl.leaderboard.map((e) => e.score);
  expect([...scores].sort((a, b) => b - a)).toEqual(scores);

  await page.goto('/leaderboard');
  const tabs = page.getByRole('tablist', { name: 'Leaderboards' });
  await tabs.getByRole('tab', { name: 'P&L', exact: true }).click();
  await expect(page).toHaveURL(/\/leaderboard\?board=pnl$/);
  await expectBoardStartsWith(page, isPhone, /^Leaderboard by profit and loss \(equity less money put in\), all time, page 1 of/, pnl.leaderboard);
  // The world's NPCs compete on it, marked.
  if (pnl.leaderboard.slice(0, 50).some((e) => e.kind === 'actor')) {
    await expect(boardOf(page, isPhone, /^Leaderboard by profit and loss/).getByText('NPC', { exact: true }).first()).toBeVisible();
  }

  // A period: a radio in the keyboard's reach, kept in the address.
  const week = page.getByRole('radio', { name: 'Week', exact: true });
  await week.focus();
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/\/leaderboard\?board=pnl&period=week$/);
  await expect(boardOf(page, isPhone, /^Leaderboard by profit and loss \(equity less money put in\), this week/)).toBeVisible();

  // ROI keeps the period; the address alone opens it.
  await tabs.getByRole('tab', { name: 'ROI', exact: true }).click();
  await expect(page).toHaveURL(/\/leaderboard\?board=roi&period=week$/);
  await page.goto('/leaderboard?board=roi&period=day');
  await expect(page.getByRole('radio', { name: 'Today', exact: true })).toBeChecked();
  await expect(boardOf(page, isPhone, /^Leaderboard by return on what was at stake, today/)).toBeVisible();
  await page.context().close();
});

test('GET /leaderboard: the boards rank players, and each tab changes the address and the list', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const isPhone = testInfo.project.name === 'phone';
  const { page } = await signInNewPlayer(browser, `e2e|lt${unique}`, projectContextOptions(testInfo.project.use));
  const all = await firstPage(page, 'all');
  expect(all.leaderboard.length).toBeGreaterThan(2);

  await clickNav(page, 'Leaderboard', isPhone);
  await expect(page).toHaveURL(/\/leaderboard$/);
  const tabs = page.getByRole('tablist', { name: 'Leaderboards' });
  await expect(tabs.getByRole('tab', { name: 'All', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expectBoardStartsWith(page, isPhone, /^Leaderboard by all points, page 1 of/, all.leaderboard);
  // Ties share a rank and read "=1"; the first entry is rank 1 whether tied or not.
  const firstRow = isPhone ? boardOf(page, true, /^Leaderboard by all points/).getByRole('listitem').first() : boardOf(page, false, /^Leaderboard by all points/).getByRole('row').nth(1);
  const top = all.leaderboard[0]!;
  await expect(firstRow).toContainText(/^=?1(?!\d)/);
  await expect(firstRow).toContainText(top.points.toLocaleString('en-US'));
  // The PnL line over the last daily closes (a dash before the first close).
  if (top.pnlHistory.length > 0) await expect(firstRow.getByRole('img', { name: new RegExp(`^${nameOf(top)}'s lifetime PnL over the last`) })).toBeVisible();
  else await expect(firstRow.getByText('No PnL history yet')).toHaveCount(1);

  // The arrow key moves to Earned: the address says so and the board is the earned one.
  const earned = await firstPage(page, 'earned');
  await tabs.getByRole('tab', { name: 'All', exact: true }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/\/leaderboard\?board=earned$/);
  await expect(tabs.getByRole('tab', { name: 'Earned', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(tabs.getByRole('tab', { name: 'Earned', exact: true })).toBeFocused();
  await expectBoardStartsWith(page, isPhone, /^Leaderboard by points earned by their own activity/, earned.leaderboard);
  if (!isPhone) await expect(boardOf(page, false, /^Leaderboard by points earned/).getByRole('columnheader', { name: 'Earned' })).toBeVisible();

  // Referral: a click; and the address alone opens the same board (linkable).
  const referral = await firstPage(page, 'referral');
  await tabs.getByRole('tab', { name: 'Referral', exact: true }).click();
  await expect(page).toHaveURL(/\/leaderboard\?board=referral$/);
  await expectBoardStartsWith(page, isPhone, /^Leaderboard by points earned by referring players/, referral.leaderboard);
  await expect(boardOf(page, isPhone, /^Leaderboard by all points/)).toHaveCount(0);
  await page.goto('/leaderboard?board=referral');
  await expect(tabs.getByRole('tab', { name: 'Referral', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expectBoardStartsWith(page, isPhone, /^Leaderboard by points earned by referring players/, referral.leaderboard);

  // League: the division table with a link to the league page, or, before any season, the empty state.
  const leagues = await (await page.request.get('/api/leagues')).json();
  await tabs.getByRole('tab', { name: 'League', exact: true }).click();
  await expect(page).toHaveURL(/\/leaderboard\?board=league$/);
  const panel = page.getByRole('tabpanel', { name: 'League' });
  if (leagues.season) {
    await expect(panel.getByRole('link', { name: /^Open the league page/ })).toHaveAttribute('href', /^\/leagues\?tier=\d&division=\d+$/);
  } else {
    await expect(panel.getByRole('heading', { name: 'No league season yet' })).toBeVisible();
  }
  await page.context().close();
});

test('GET /leaderboard: a signed-in player sees their own row pinned and marked "You"', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const p = await signInNewPlayer(browser, `e2e|lb${unique}`, projectContextOptions(testInfo.project.use));
  const me = (await (await p.page.request.get('/api/leaderboard?pageSize=50')).json()).me as TEntry;
  expect(me.user.username).toBe(p.username);

  // A short window, so the board runs past its bottom and the pinned row has something to stay over.
  await p.page.setViewportSize({ width: testInfo.project.use.viewport!.width, height: 560 });
  await p.page.goto('/leaderboard');
  const mine = p.page.getByRole('region', { name: 'Your rank' });
  await expect(mine).toBeVisible();
  await expect(mine).toContainText(p.username);
  await expect(mine.getByText('You', { exact: true }).filter({ visible: true })).toBeVisible();
  await expect(mine.getByTestId('your-rank').filter({ visible: true })).toHaveText(String(me.rank));
  await expect(mine).toHaveCSS('position', 'sticky');
  // At the top of the page the board's end is far below, yet the row is on screen.
  await p.page.evaluate(() => window.scrollTo(0, 0));
  await expect(mine).toBeInViewport();

  // Still there on another board.
  await p.page.getByRole('tab', { name: 'Earned', exact: true }).click();
  await expect(p.page).toHaveURL(/board=earned/);
  await expect(p.page.getByRole('region', { name: 'Your rank' })).toContainText(p.username);
  await p.page.context().close();
});

test('GET /leagues: the season counts down in game time, the formula is explained, and the player is seated', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const isPhone = testInfo.project.name === 'phone';
  const p = await signInNewPlayer(browser, `e2e|lg${unique}`, projectContextOptions(testInfo.project.use));

  // The scheduler's tick records the daily close and seats new players in the current season.
  const tick = await tickNextMinute(p.page.request);
  expect(tick.status()).toBe(200);
  const overview = await (await p.page.request.get('/api/leagues')).json();
  expect(overview.season?.id).toMatch(/^\d{4}-W\d{2}$/);
  expect(overview.me).not.toBeNull();

  await clickNav(p.page, 'Leagues', isPhone);
  await expect(p.page).toHaveURL(/\/leagues$/);
  const main = p.page.getByRole('main');
  const season = main.getByRole('region', { name: `Season ${overview.season.id}` });
  await expect(season).toBeVisible();
  // A live countdown: "2d 04h 12m 05s", ticking each second.
  const countdown = season.getByRole('timer');
  await expect(countdown).toContainText(/^(\d+d )?\d\dh \d\dm \d\ds/);
  const before = await countdown.textContent();
  await expect(countdown).not.toHaveText(before!, { timeout: 5_000 });
  const tierName = `${overview.me.tierName[0].toUpperCase()}${overview.me.tierName.slice(1)}`;
  await expect(season.getByRole('link', { name: `${tierName} ${overview.me.division}` })).toBeVisible();

  // The division: the player's tier is the one picked, and their row is marked with what they still need.
  const division = main.getByRole('region', { name: `${tierName}, division ${overview.me.division}` });
  await expect(division.getByRole('radiogroup', { name: 'Tier' }).getByRole('radio', { name: new RegExp(`^${tierName}`) })).toHaveAttribute('aria-checked', 'true');
  const rows = isPhone ? division.getByRole('listitem') : division.getByRole('row');
  const myRow = rows.filter({ hasText: p.username });
  await expect(myRow).toHaveCount(1);
  await expect(myRow.getByText('You', { exact: true })).toBeVisible();
  await expect(myRow).toContainText(/Needs \d+ more trades? and \d+ more days?/);

  // How the score works, from the rules the server plays by.
  const rules = main.getByRole('region', { name: 'How the league works' });
  await expect(rules).toContainText(`At least ${overview.rules.minTrades} trades and ${overview.rules.minDays} days of daily returns`);
  await expect(rules).toContainText(`The top ${Math.round(overview.rules.promoteShare * 100)}%`);
  await expect(rules.getByRole('listitem').filter({ hasText: /^Score = 100 × R ÷ s for a gain/ })).toBeVisible();
  await expect(main.getByRole('region', { name: 'Past seasons' })).toBeVisible();

  // The player's own profile lists the season they play in.
  await p.page.goto('/profile');
  const history = p.page.getByRole('region', { name: 'League seasons' });
  const seasonRow = (isPhone ? history.getByRole('listitem') : history.getByRole('row')).filter({ hasText: overview.season.id });
  await expect(seasonRow).toContainText('Playing');
  await expect(seasonRow).toContainText(tierName);
  await p.page.context().close();
});

test('GET /u/{username}: the profile shows the reputation score and its breakdown as a chart and as figures', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const { page } = await signInNewPlayer(browser, `e2e|rp${unique}`, projectContextOptions(testInfo.project.use));
  const top = (await firstPage(page, 'all')).leaderboard[0]!;
  const api = await (await page.request.get(`/api/reputation/breakdown/${top.user.id}`)).json();
  expect(api.success).toBe(true);

  await page.goto(`/u/${top.user.username}`);
  const card = page.getByRole('region', { name: 'Reputation', exact: true });
  await expect(card.getByTestId('reputation-score')).toHaveText(api.reputation.score.toLocaleString('en-US'));
  await expect(card).toContainText('/ 1,000');
  const level = `${api.reputation.level[0].toUpperCase()}${api.reputation.level.slice(1)}`;
  await expect(card.getByText(level, { exact: true })).toBeVisible();
  const [trading] = api.breakdown.parts;
  await expect(card.getByRole('img', { name: new RegExp(`^Reputation breakdown, ${api.reputation.score} of 1000: ${trading.label} ${trading.contribution} of ${Math.round(trading.weight * 1000)}`) })).toBeVisible();

  // The figures behind the bars, as a table.
  await card.getByText('Show the figures').click();
  const figures = card.getByRole('table', { name: /parts and penalties/ });
  for (const part of api.breakdown.parts) {
    await expect(figures.getByRole('row', { name: new RegExp(`^${part.label}`) })).toContainText(`${part.contribution.toLocaleString('en-US')} of ${Math.round(part.weight * 1000)}`);
  }
  await expect(figures.getByRole('rowheader', { name: /\(penalty\)$/ })).toHaveCount(api.breakdown.penalties.length);
  await page.context().close();
});

test('GET /registry: the type filter narrows the list, and a search finds one entry', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const { page } = await signInNewPlayer(browser, `e2e|rg${unique}`, projectContextOptions(testInfo.project.use));
  const actors = await (await page.request.get('/api/registry?type=actor&pageSize=25')).json();
  expect(actors.entries.length).toBeGreaterThan(0);

  await page.goto('/registry');
  const types = page.getByRole('radiogroup', { name: 'Type' });
  const list = page.getByRole('list', { name: 'Registry entries' });
  await expect(types.getByRole('radio', { name: 'All', exact: true })).toHaveAttribute('aria-checked', 'true');
  await expect(list.getByRole('article').first()).toBeVisible();

  await types.getByRole('radio', { name: 'NPC actors', exact: true }).click();
  await expect(types.getByRole('radio', { name: 'NPC actors', exact: true })).toHaveAttribute('aria-checked', 'true');
  await expect(list.getByRole('article')).toHaveCount(actors.entries.length);
  await expect(list.getByRole('article', { name: /, NPC actor$/ })).toHaveCount(actors.entries.length);

  const players = await (await page.request.get('/api/registry?type=user&pageSize=25')).json();
  await types.getByRole('radio', { name: 'Players', exact: true }).click();
  await expect(list.getByRole('article', { name: /, NPC actor$/ })).toHaveCount(0);
  await expect(list.getByRole('article', { name: /, Player$/ })).toHaveCount(players.entries.length);

  // All types again, then a search by an actor's username narrows to what the API finds for it.
  const target = actors.entries[0];
  await types.getByRole('radio', { name: 'All', exact: true }).click();
  const found = await (await page.request.get(`/api/registry?search=${encodeURIComponent(target.username)}&pageSize=25`)).json();
  await page.getByRole('searchbox', { name: 'Search the registry' }).fill(target.username);
  const matches = page.getByRole('list', { name: `Registry entries matching ${target.username}` });
  await expect(matches.getByRole('article')).toHaveCount(found.entries.length);
  await expect(matches.getByRole('article', { name: `${target.name}, NPC actor` })).toBeVisible();
  expect(found.entries.length).toBeLessThan(actors.entries.length + players.entries.length);

  await page.getByRole('searchbox', { name: 'Search the registry' }).fill('no-one-is-called-this');
  await expect(page.getByRole('heading', { name: 'Nothing matches “no-one-is-called-this”' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('article')).toHaveCount(0);
  await page.context().close();
});
