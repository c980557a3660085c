import { expect, test, type APIRequestContext } from '@playwright/test';
import { mintToken, projectContextOptions, signInNewPlayer } from '../fixtures/auth';
import { E2E_CRON_SECRET } from '../fixtures/secret';

/**
 * A liquidation warning reaches the notifications page. A new player opens a 10x short on VRSE
 * (the calmest ticker); the administrator sets its mark 1.5 % under the index, so the funding
 * rate sits at its cap and shorts pay it; the scheduler's tick, run later in game time (the test
 * clock), charges enough periods to eat most of the collateral, and its alerts step warns the
 * holder. The tick also brings the mark back next to the index, so it is the funding, not a price
 * move, that brings the position near its liquidation price: a quarter of its margin buffer or
 * less (lib/notifications/alerts-math.ts).
 */

const TICKER = 'VRSE';
const PERIOD_MS = 8 * 3_600_000;
/** lib/perps/math FUNDING_RATE_CAP: a premium of −1.5 % puts the rate there (it counts beyond ±0.05 %). */
const FUNDING_CAP = 0.001;
const MAINTENANCE = 0.005;
/** Where the drained buffer should land: well under the 25 % warning line, well above liquidation. */
const TARGET_RATIO = 0.13;

type TPosition = { id: string; status: string; size: number; units: number; margin: number; collateral: number; entryPrice: number; liquidationPrice: number; openedAt: string };

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

const indexOf = async (request: APIRequestContext) => {
  const list = await (await request.get('/api/markets/perps')).json();
  return (list.tickers as { ticker: string; indexPrice: number }[]).find((t) => t.ticker === TICKER)!.indexPrice;
};

/** The first funding boundary (00:00, 08:00, 16:00 UTC) after `ms`. */
const nextBoundary = (ms: number) => (Math.floor(ms / PERIOD_MS) + 1) * PERIOD_MS;

test('a liquidation warning reaches the notifications page and links to the ticker', async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const player = await signInNewPlayer(browser, `e2e|tn${unique}`, projectContextOptions(testInfo.project.use));
  const { page } = player;
  const adminToken = await mintToken('e2e|moderation-admin');

  const openPosition = async () => {
    const opened = await page.request.post('/api/markets/perps/open', { headers: bearer(player.token), data: { ticker: TICKER, side: 'short', size: 500, leverage: 10 } });
    expect(opened.status()).toBe(200);
    return (await opened.json()).position as TPosition;
  };

  // Shorts pay funding while the mark sits under the index: 0.1 % of the notional per period.
  const drainBy = async (position: TPosition, sinceMs: number) => {
    const index = await indexOf(page.request);
    const lowMark = Math.round(index * 0.985 * 1e4) / 1e4;
    const price = await page.request.post(`/api/admin/perps/${TICKER}/price`, { headers: bearer(adminToken), data: { price: lowMark } });
    expect(price.status()).toBe(200);
    const perPeriod = position.units * lowMark * FUNDING_CAP;
    const initialBuffer = position.margin - MAINTENANCE * position.size;
    const wanted = MAINTENANCE * position.size + TARGET_RATIO * initialBuffer;
    const periods = Math.max(1, Math.round((position.collateral - wanted) / perPeriod));
    const now = new Date(nextBoundary(sinceMs) + (periods - 1) * PERIOD_MS + 60_000).toISOString();
    const tick = await page.request.post('/api/cron/game-tick', { headers: { Authorization: `Bearer ${E2E_CRON_SECRET}` }, data: { now } });
    expect(tick.status()).toBe(200);
    const body = await tick.json();
    // Periods move each ticker's funding index; the position's collateral reads the accrual.
    expect(body.funding.tickers).toBeGreaterThanOrEqual(1);
    return body.gameTime as string;
  };

  const warnings = async () => {
    const res = await page.request.get('/api/notifications', { headers: bearer(player.token) });
    return ((await res.json()).notifications as { kind: string | null; link: string | null }[]).filter((n) => n.kind === 'liquidation_warning');
  };
  const reread = async (id: string) => {
    const mine = await (await page.request.get('/api/markets/perps/positions', { headers: bearer(player.token) })).json();
    return (mine.positions as TPosition[]).find((p) => p.id === id);
  };

  // The world's own moves in a tick (news can push a price several percent) may leave the buffer
  // above the line, or liquidate the position outright: then charge a little more funding, or
  // start over with a new position. One warning is what the player must end up with.
  for (let round = 0; round < 3 && (await warnings()).length === 0; round++) {
    const position = await openPosition();
    let gameTime = await drainBy(position, Date.parse(position.openedAt));
    for (let extra = 0; extra < 2 && (await warnings()).length === 0; extra++) {
      const current = await reread(position.id);
      if (current?.status !== 'open') break;
      gameTime = await drainBy({ ...position, collateral: current.collateral }, Date.parse(gameTime));
    }
    // A position left open unwarned is closed, so only the next one can be warned.
    if ((await warnings()).length === 0 && (await reread(position.id))?.status === 'open') {
      expect((await page.request.post(`/api/markets/perps/${position.id}/close`, { headers: bearer(player.token) })).status()).toBe(200);
    }
  }
  expect(await warnings()).toHaveLength(1);

  // The notifications page shows it with its title and message, and its link leads to the ticker.
  await page.goto('/notifications');
  const list = page.getByRole('list', { name: 'Notifications' });
  const warning = list.getByRole('listitem').filter({ hasText: `Liquidation warning: ${TICKER}` });
  await expect(warning).toHaveCount(1);
  await expect(warning).toHaveAttribute('data-kind', 'liquidation_warning');
  await expect(warning).toContainText(`10x short on ${TICKER} is close to its liquidation price`);
  // Screen readers hear what it is first (components/notifications: "Liquidation warning, unread: …").
  await expect(warning.getByRole('link')).toHaveAccessibleName(new RegExp(`^Liquidation warning, unread: Liquidation warning: ${TICKER}`));
  await warning.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/perps/${TICKER}$`));
  await page.context().close();
});
