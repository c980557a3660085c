import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { mintToken, projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/** The administrator's token subject: playwright.config.ts lists it in the server's ADMIN_SUBJECTS. */
const ADMIN_SUBJECT = 'e2e|moderation-admin';

const uniqueOf = (projectName: string) => `${projectName.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;

/** axe (WCAG 2.x A and AA): the serious and critical violations on the page as it is now. */
const seriousViolations = async (page: Page) => {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
};

/** A fresh question (YES at 50%), created by the administrator, closing five days after the later of the wall and game clocks. */
const createMarket = async (request: APIRequestContext, text: string, opts: { liquidity?: number } = {}) => {
  const headers = { authorization: `Bearer ${await mintToken(ADMIN_SUBJECT)}` };
  const control = await (await request.get('/api/game/control', { headers })).json();
  const gameTime = Math.max(Date.now(), control.gameTime ? Date.parse(control.gameTime) : 0);
  const res = await request.post('/api/admin/markets', { headers, data: { text, resolutionDate: new Date(gameTime + 5 * 86_400_000).toISOString(), ...opts } });
  expect(res.status()).toBe(200);
  return (await res.json()).market as { id: string; question: string };
};

/** The later of the wall clock and the game clock, in ms. */
const gameNow = async (request: APIRequestContext) => {
  const control = await (await request.get('/api/game/control')).json();
  return Math.max(Date.now(), control.gameTime ? Date.parse(control.gameTime) : 0);
};

/** A datetime-local value in this machine's time zone (the browser's too). */
const localDateTime = (ms: number) => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

const balanceOf = async (request: APIRequestContext) => (await (await request.get('/api/users/me')).json()).user.virtualBalance as string;

test('a limit order from the market page: preview, rest in the book and in "Your open orders", cancel; another cancelled from the portfolio', async ({ browser }, testInfo) => {
  const unique = uniqueOf(testInfo.project.name);
  const { page } = await signInNewPlayer(browser, `e2e|lo${unique}`, projectContextOptions(testInfo.project.use));
  const market = await createMarket(page.request, `Will limit orders rest in the book ${unique}?`);
  await page.goto(`/markets/${market.id}`);
  const main = page.getByRole('main');
  const trade = main.getByRole('complementary', { name: 'Trade', exact: true });

  // The Market tab is where the panel opens; Limit is one arrow key away.
  const tabs = trade.getByRole('tablist', { name: 'Order type' });
  await expect(tabs.getByRole('tab', { name: 'Market', exact: true })).toHaveAttribute('aria-selected', 'true');
  await tabs.getByRole('tab', { name: 'Market', exact: true }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab', { name: 'Limit', exact: true })).toHaveAttribute('aria-selected', 'true');
  const form = trade.getByRole('tabpanel', { name: 'Limit' });

  // A price out of range is refused at once, under its box.
  const price = form.getByRole('textbox', { name: 'Limit price', exact: true });
  await form.getByRole('textbox', { name: 'Amount', exact: true }).fill('20');
  await price.fill('150');
  await expect(price).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('Enter a price from 1 to 99 cents, like 45, or a decimal like 0.45.')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Place limit order', exact: true })).toBeDisabled();

  // 10¢ for YES at 50%: nothing fills now, all of it would rest (the server's dryRun says so).
  await price.fill('10');
  const preview = form.getByLabel('Order preview', { exact: true });
  await expect(preview).toContainText('Nothing at this price');
  await expect(preview).toContainText('$20.00 at 10¢');
  await expect(preview).toContainText('$980.00'); // the balance after the reservation
  expect(Number(await balanceOf(page.request))).toBe(1000); // a preview moves nothing

  await form.getByRole('button', { name: 'Place limit order', exact: true }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Order placed: $20.00 rests in the book at 10¢.' })).toBeVisible();
  expect(Number(await balanceOf(page.request))).toBe(980);

  // It rests in the book, at its price, and in "Your open orders".
  const book = main.getByRole('region', { name: 'Order book', exact: true });
  const yesBids = book.getByRole('table', { name: 'YES bids' });
  await expect(yesBids.getByRole('row', { name: /10¢/ })).toContainText('$20.00');
  await expect(book.getByRole('table', { name: 'NO bids' })).toContainText('No NO bids');
  const mine = main.getByRole('region', { name: 'Your open orders', exact: true });
  const item = mine.getByRole('article', { name: 'Buy YES at 10¢', exact: true });
  await expect(item).toContainText('Open');
  await expect(item).toContainText('Good till cancelled');
  expect(await seriousViolations(page)).toEqual([]);

  // Cancel it: refunded, gone from the list and from the book.
  await item.getByRole('button', { name: 'Cancel order: Buy YES at 10¢', exact: true }).click();
  await expect(mine.getByRole('status').filter({ hasText: 'Cancelled Buy YES at 10¢: $20.00 unfilled was refunded.' })).toBeVisible();
  await expect(item).toHaveCount(0);
  await expect(mine.getByText('You have no open orders on this market.')).toBeVisible();
  await expect(book.getByText('No resting orders yet.')).toBeVisible();
  expect(Number(await balanceOf(page.request))).toBe(1000);

  // A NO order good till a date, then cancelled from the portfolio's "Open orders" tab.
  await form.getByRole('radio', { name: 'NO', exact: true }).click();
  await form.getByRole('textbox', { name: 'Amount', exact: true }).fill('15');
  await price.fill('0.2');
  await form.getByRole('combobox', { name: 'Time in force', exact: true }).selectOption('GTD');
  // Two days of game time ahead (other specs move the game clock past the wall clock).
  await form.getByLabel('Expires at', { exact: true }).fill(localDateTime((await gameNow(page.request)) + 2 * 86_400_000));
  await expect(preview).toContainText('$15.00 at 20¢');
  await form.getByRole('button', { name: 'Place limit order', exact: true }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Order placed: $15.00 rests in the book at 20¢.' })).toBeVisible();
  await expect(book.getByRole('table', { name: 'NO bids' }).getByRole('row', { name: /20¢/ })).toContainText('$15.00');

  await page.goto('/portfolio');
  await main.getByRole('tab', { name: 'Open orders', exact: true }).click();
  const orders = main.getByRole('tabpanel', { name: 'Open orders' });
  const noOrder = orders.getByRole('article', { name: 'Buy NO at 20¢', exact: true });
  await expect(noOrder.getByRole('link', { name: market.question })).toBeVisible();
  await expect(noOrder).toContainText('Expires');
  expect(await seriousViolations(page)).toEqual([]);
  await noOrder.getByRole('button', { name: 'Cancel order: Buy NO at 20¢', exact: true }).click();
  await expect(orders.getByRole('status').filter({ hasText: 'Cancelled Buy NO at 20¢: $15.00 unfilled was refunded.' })).toBeVisible();
  await expect(orders.getByText(/You have no open orders\./)).toBeVisible();
  await orders.getByRole('combobox', { name: 'Status', exact: true }).selectOption('cancelled');
  await expect(orders.getByRole('article', { name: 'Buy NO at 20¢', exact: true })).toContainText('Cancelled');
  await page.context().close();
});

test('perps: a stop-loss set on an open position from the UI, a bracket on the open form, a limit order, and their cancels', async ({ browser }, testInfo) => {
  const unique = uniqueOf(testInfo.project.name);
  const { page, token } = await signInNewPlayer(browser, `e2e|so${unique}`, projectContextOptions(testInfo.project.use));
  const opened = await page.request.post('/api/markets/perps/open', { headers: { authorization: `Bearer ${token}` }, data: { ticker: 'VRSE', side: 'long', size: 100, leverage: 2 } });
  expect(opened.ok()).toBe(true);
  const positionId = (await opened.json()).position.id as string;

  await page.goto('/perps/VRSE');
  const main = page.getByRole('main');
  const mark = Number(((await page.getByTestId('perp-mark-price').textContent()) ?? '').replace(/[^\d.]/g, ''));
  expect(mark).toBeGreaterThan(0);
  const stopPrice = (Math.floor(mark * 90) / 100).toFixed(2);

  // On the position: a stop-loss above the mark is refused, one below shows the loss there.
  const position = main.getByRole('list', { name: 'Open positions', exact: true }).getByRole('article', { name: 'Long 2x VRSE position', exact: true });
  await expect(position.getByText('No stop-loss or take-profit on this position.')).toBeVisible();
  await position.getByRole('button', { name: 'Add stop-loss or take-profit', exact: true }).click();
  const stopForm = position.getByRole('form', { name: 'New stop' });
  await expect(stopForm.getByRole('radio', { name: 'Stop-loss', exact: true })).toHaveAttribute('aria-checked', 'true');
  const trigger = stopForm.getByRole('textbox', { name: 'Trigger price', exact: true });
  await trigger.fill((mark * 1.1).toFixed(2));
  await expect(stopForm.getByText(/A stop-loss on a long must be below the mark price/)).toBeVisible();
  await expect(stopForm.getByRole('button', { name: 'Set stop-loss', exact: true })).toBeDisabled();
  await trigger.fill(stopPrice);
  await expect(stopForm.getByTestId('trigger-preview')).toContainText(/Loss at \$[\d,.]+\s*-\$\d/);
  await stopForm.getByRole('button', { name: 'Set stop-loss', exact: true }).click();
  await expect(position.getByRole('status').filter({ hasText: /^Stop-loss set at \$[\d,.]+\.$/ })).toBeVisible();
  const stops = position.getByRole('list', { name: 'Open stops', exact: true });
  await expect(stops.getByRole('listitem')).toHaveCount(1);
  await expect(stops).toContainText('Stop-loss');

  // The API holds it on that position; the ticker's "Your open orders" lists it too.
  const listed = await (await page.request.get('/api/markets/orders?status=open&ticker=VRSE')).json();
  expect(listed.orders).toEqual([expect.objectContaining({ kind: 'perp', type: 'stop_loss', positionId, status: 'open' })]);
  const tickerOrders = main.getByRole('region', { name: 'Your open orders', exact: true });
  await expect(tickerOrders.getByRole('article', { name: /^Stop-loss VRSE at \$/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Cancel it on the position.
  await stops.getByRole('button', { name: /^Cancel order: Stop-loss VRSE at \$/ }).click();
  await expect(position.getByRole('status').filter({ hasText: /^Stop-loss at \$[\d,.]+ cancelled\.$/ })).toBeVisible();
  await expect(position.getByText('No stop-loss or take-profit on this position.')).toBeVisible();

  // The open form: a short with a stop-loss above the entry, placed on the new position.
  const order = main.getByRole('complementary', { name: 'Order', exact: true });
  await order.getByRole('radio', { name: 'Short', exact: true }).click();
  await order.getByRole('textbox', { name: 'Size', exact: true }).fill('50');
  await order.getByRole('button', { name: 'Stop-loss / take-profit' }).click();
  await order.getByRole('textbox', { name: 'Stop-loss price', exact: true }).fill((Math.ceil(mark * 110) / 100).toFixed(2));
  await expect(order.getByTestId('trigger-preview')).toContainText(/Loss at/);
  await order.getByRole('button', { name: 'Open short', exact: true }).click();
  await expect(order.getByRole('status').filter({ hasText: /^Set a stop-loss at \$[\d,.]+\.$/ })).toBeVisible();
  const short = main.getByRole('list', { name: 'Open positions', exact: true }).getByRole('article', { name: 'Short 2x VRSE position', exact: true });
  await expect(short.getByRole('list', { name: 'Open stops', exact: true })).toContainText('Stop-loss');

  // A limit long well below the mark rests with its margin reserved; Cancel all on the ticker takes it and the short's stop.
  await order.getByRole('tab', { name: 'Limit', exact: true }).click();
  const limit = order.getByRole('tabpanel', { name: 'Limit' });
  await limit.getByRole('textbox', { name: 'Limit price', exact: true }).fill((Math.floor(mark * 70) / 100).toFixed(2));
  await limit.getByRole('textbox', { name: 'Size', exact: true }).fill('100');
  await expect(limit.getByLabel('Limit order preview', { exact: true })).toContainText('$50.00'); // margin 100 / 2
  await limit.getByRole('button', { name: 'Place limit long', exact: true }).click();
  await expect(limit.getByRole('status').filter({ hasText: /^Limit long placed: \$100\.00 at 2x opens when the mark reaches \$[\d,.]+\.$/ })).toBeVisible();
  await expect(tickerOrders.getByRole('article', { name: /^Limit long VRSE at \$/ })).toBeVisible();
  await tickerOrders.getByRole('button', { name: 'Cancel all on VRSE', exact: true }).click();
  await expect(tickerOrders.getByRole('status').filter({ hasText: 'Cancelled 2 orders.' })).toBeVisible();
  await expect(tickerOrders.getByText('You have no open orders on this ticker.')).toBeVisible();
  await page.context().close();
});

test("a resting limit order fills after another player's trade, and the page shows it filled", async ({ browser, request }, testInfo) => {
  const unique = uniqueOf(testInfo.project.name);
  const { page } = await signInNewPlayer(browser, `e2e|lf${unique}`, projectContextOptions(testInfo.project.use));
  // A shallow question (liquidity 100): another player's buy moves it far. Closing five days after
  // the game clock, which other specs move past the wall clock.
  const market = await createMarket(request, `Will a resting order fill ${unique}?`, { liquidity: 100 });

  await page.goto(`/markets/${market.id}`);
  const main = page.getByRole('main');
  const trade = main.getByRole('complementary', { name: 'Trade', exact: true });
  await trade.getByRole('tablist', { name: 'Order type' }).getByRole('tab', { name: 'Limit', exact: true }).click();
  const form = trade.getByRole('tabpanel', { name: 'Limit' });
  await form.getByRole('radio', { name: 'NO', exact: true }).click();
  await form.getByRole('textbox', { name: 'Amount', exact: true }).fill('10');
  await form.getByRole('textbox', { name: 'Limit price', exact: true }).fill('40');
  await form.getByRole('button', { name: 'Place limit order', exact: true }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Order placed: $10.00 rests in the book at 40¢.' })).toBeVisible();
  const mine = main.getByRole('region', { name: 'Your open orders', exact: true });
  await expect(mine.getByRole('article', { name: 'Buy NO at 40¢', exact: true })).toBeVisible();

  // Another player buys YES with 100: the maker passes 60¢, where the NO order at 40¢ sells YES cheaper.
  const other = { authorization: `Bearer ${await mintToken(`e2e|lt${unique}`)}` };
  const bought = await request.post(`/api/markets/predictions/${market.id}/buy`, { headers: other, data: { outcome: 'YES', amount: 100 } });
  expect(bought.status()).toBe(200);

  // The order filled: gone from the open orders (live, or on the next read), its NO shares held.
  await page.reload();
  await expect(mine.getByText('You have no open orders on this market.')).toBeVisible();
  const filled = await (await page.request.get(`/api/markets/orders?status=filled&marketId=${market.id}`)).json();
  expect(filled.orders).toEqual([expect.objectContaining({ outcome: 'NO', limitPrice: 0.4, status: 'filled' })]);
  expect(filled.orders[0].shares).toBeGreaterThan(24.99);
  await page.context().close();
});

test('a stop-loss set from the UI closes its position when the mark crosses it', async ({ browser, request }, testInfo) => {
  const unique = uniqueOf(testInfo.project.name);
  const { page, token } = await signInNewPlayer(browser, `e2e|sf${unique}`, projectContextOptions(testInfo.project.use));
  // ORBT: no other spec sets its mark.
  const opened = await page.request.post('/api/markets/perps/open', { headers: { authorization: `Bearer ${token}` }, data: { ticker: 'ORBT', side: 'long', size: 100, leverage: 2 } });
  expect(opened.ok()).toBe(true);
  const positionId = (await opened.json()).position.id as string;
  await page.goto('/perps/ORBT');
  const main = page.getByRole('main');
  const mark = Number(((await page.getByTestId('perp-mark-price').textContent()) ?? '').replace(/[^\d.]/g, ''));
  const position = main.getByRole('list', { name: 'Open positions', exact: true }).getByRole('article', { name: 'Long 2x ORBT position', exact: true });
  await position.getByRole('button', { name: 'Add stop-loss or take-profit', exact: true }).click();
  const stopForm = position.getByRole('form', { name: 'New stop' });
  await stopForm.getByRole('textbox', { name: 'Trigger price', exact: true }).fill((Math.floor(mark * 95) / 100).toFixed(2));
  await stopForm.getByRole('button', { name: 'Set stop-loss', exact: true }).click();
  await expect(position.getByRole('status').filter({ hasText: /^Stop-loss set at \$[\d,.]+\.$/ })).toBeVisible();

  // The administrator moves the mark 10% down: the stop fires before anything else, at the mark.
  const moved = await request.post('/api/admin/perps/ORBT/price', { headers: { authorization: `Bearer ${await mintToken(ADMIN_SUBJECT)}` }, data: { price: Number((mark * 0.9).toFixed(4)) } });
  expect(moved.status()).toBe(200);
  await page.reload();
  await expect(main.getByRole('list', { name: 'Open positions', exact: true }).getByRole('article', { name: 'Long 2x ORBT position', exact: true })).toHaveCount(0);
  const fired = await (await page.request.get('/api/markets/orders?status=triggered&ticker=ORBT')).json();
  expect(fired.orders).toEqual([expect.objectContaining({ kind: 'perp', type: 'stop_loss', positionId, status: 'triggered' })]);
  // Put the mark back for whoever trades ORBT next.
  await request.post('/api/admin/perps/ORBT/price', { headers: { authorization: `Bearer ${await mintToken(ADMIN_SUBJECT)}` }, data: { price: mark } });
  await page.context().close();
});
