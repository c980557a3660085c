import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/**
 * axe (Deque's rules, WCAG 2.x A and AA) over the trading pages, signed in, on desktop and on a
 * phone (the two projects): no serious or critical violation. Each page is checked once its main
 * content has loaded (no skeletons left), so the check sees what a player reads.
 */
const SERIOUS = new Set(['serious', 'critical']);

const settle = async (page: Page) => {
  await expect(page.getByRole('main')).toBeVisible();
  // Skeletons announce themselves as status regions named "Loading …".
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0, { timeout: 15_000 });
};

const seriousViolations = async (page: Page) => {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => SERIOUS.has(v.impact ?? ''))
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes
      .slice(0, 3)
      .map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1, 2).join(' ')}`)
      .join('\n    ')}`);
};

test('the trading pages have no serious accessibility violation', async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const { page, username } = await signInNewPlayer(browser, `e2e|ax${unique}`, projectContextOptions(testInfo.project.use));
  const markets = await (await page.request.get('/api/markets/predictions?limit=1')).json();
  const perps = await (await page.request.get('/api/markets/perps')).json();
  const pools = await (await page.request.get('/api/pools')).json();
  const paths = [
    '/',
    '/markets',
    `/markets/${markets.questions[0].id}`,
    '/perps',
    `/perps/${perps.markets[0].ticker}`,
    '/pools',
    `/pools/${pools.pools[0].id}`,
    '/portfolio',
    '/wallet',
    '/notifications',
    `/u/${username}`,
    '/leaderboard',
  ];
  const found: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    await settle(page);
    for (const v of await seriousViolations(page)) found.push(`${path}: ${v}`);
  }
  expect(found, found.join('\n')).toEqual([]);
});
