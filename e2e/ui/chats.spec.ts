import { expect, test, type Page } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';
import { E2E_CRON_SECRET } from '../fixtures/secret';

/** A link in whichever navigation is showing (the sidebar on desktop, the tab bar or the menu on phones). */
const navLink = (page: Page, name: string | RegExp) => page.getByRole('link', { name, exact: typeof name === 'string' }).filter({ visible: true }).first();

/** Follows a link of the main navigation; on a phone, destinations beyond the tab bar are in the menu. */
const clickNav = async (page: Page, name: string | RegExp, { isPhone, isInTabBar }: { isPhone: boolean; isInTabBar: boolean }) => {
  if (isPhone && !isInTabBar) await page.getByRole('button', { name: 'Open menu' }).click();
  await navLink(page, name).click();
};

const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });
const composerBox = (page: Page) => page.getByRole('textbox', { name: 'Message', exact: true });

test('B messages A from A’s profile; A finds it unread in Chats, replies, and B sees the reply live', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const isPhone = testInfo.project.name === 'phone';
  const options = projectContextOptions(testInfo.project.use);
  const a = await signInNewPlayer(browser, `e2e|ca${unique}`, options);
  const b = await signInNewPlayer(browser, `e2e|cb${unique}`, options);

  // One's own profile has no Message button; someone else's does.
  await expect(b.page.getByRole('button', { name: /^Message @/ })).toHaveCount(0);
  await b.page.goto(`/u/${a.username}`);
  await b.page.getByRole('button', { name: `Message @${a.username}` }).click();
  await expect(b.page).toHaveURL(/\/chats\/[^/]+$/);
  const chatPath = new URL(b.page.url()).pathname;
  await expect(messages(b.page)).toBeVisible();
  await expect(messages(b.page)).toContainText('No messages yet');

  // B writes; Enter sends and empties the box.
  const hello = `Hi there, fancy a trade? ${unique}`;
  await composerBox(b.page).fill(hello);
  await composerBox(b.page).press('Enter');
  await expect(messages(b.page).getByRole('article').filter({ hasText: hello })).toHaveCount(1);
  await expect(messages(b.page).getByRole('article').filter({ hasText: hello })).toHaveAttribute('aria-label', /^You, /);
  await expect(composerBox(b.page)).toHaveValue('');

  // A's navigation counts the unread message (the sidebar on desktop); the chat list shows it with a badge.
  await a.page.goto('/');
  if (!isPhone) await expect(navLink(a.page, 'Chats, 1 unread')).toBeVisible();
  await clickNav(a.page, /^Chats/, { isPhone, isInTabBar: true });
  await expect(a.page).toHaveURL(/\/chats$/);
  const row = a.page.getByRole('navigation', { name: 'Conversations' }).getByRole('link').filter({ hasText: hello });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('chat-unread-badge')).toContainText('1 unread message');

  // Opening it shows the message under "New messages"; the badges go.
  await row.click();
  await expect(a.page).toHaveURL(new RegExp(`${chatPath}$`));
  const received = messages(a.page).getByRole('article').filter({ hasText: hello });
  await expect(received).toHaveCount(1);
  await expect(received).not.toHaveAttribute('aria-label', /^You, /);
  await expect(a.page.getByRole('separator', { name: 'New messages' })).toBeVisible();
  if (!isPhone) {
    await expect(navLink(a.page, 'Chats')).toBeVisible();
    await expect(a.page.getByRole('navigation', { name: 'Conversations' }).getByTestId('chat-unread-badge')).toHaveCount(0);
  }

  // A replies over two lines: Shift+Enter breaks the line, Enter sends.
  const reply = `Sure, what are you buying? ${unique}`;
  await composerBox(a.page).fill(reply);
  await composerBox(a.page).press('Shift+Enter');
  await composerBox(a.page).pressSequentially('Name the market.');
  await expect(composerBox(a.page)).toHaveValue(`${reply}\nName the market.`);
  await composerBox(a.page).press('Enter');
  await expect(messages(a.page).getByRole('article').filter({ hasText: reply })).toHaveCount(1);

  // B, who has not reloaded, sees the reply arrive.
  await expect(messages(b.page).getByRole('article').filter({ hasText: reply })).toHaveCount(1);
  await expect(messages(b.page).getByRole('article').last()).toContainText('Name the market.');

  // The same text again at once is refused, inline, and stays in the box.
  await composerBox(a.page).fill(`${reply}\nName the market.`);
  await a.page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(a.page.getByRole('alert').filter({ hasText: 'You just sent that.' })).toBeVisible();
  await expect(composerBox(a.page)).toHaveValue(`${reply}\nName the market.`);
  await expect(messages(b.page).getByRole('article').filter({ hasText: reply })).toHaveCount(1);

  // Away from the chat, A's navigation counts B's next message live (well before the 30 s poll).
  await a.page.goto('/');
  await expect(navLink(a.page, 'Chats')).toBeVisible();
  const later = `One more thing ${unique}`;
  await composerBox(b.page).fill(later);
  await composerBox(b.page).press('Enter');
  await expect(messages(b.page).getByRole('article').filter({ hasText: later })).toHaveCount(1);
  await expect(navLink(a.page, 'Chats, 1 unread')).toBeVisible({ timeout: 10_000 });

  await a.page.context().close();
  await b.page.context().close();
});

test('a player joins an open group from Discover and talks in its chat', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const isPhone = testInfo.project.name === 'phone';
  const p = await signInNewPlayer(browser, `e2e|cg${unique}`, projectContextOptions(testInfo.project.use));

  await clickNav(p.page, 'Groups', { isPhone, isInTabBar: false });
  await expect(p.page).toHaveURL(/\/groups$/);
  await expect(p.page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();

  // Discover: search, then join the open group.
  const discover = p.page.getByRole('tabpanel', { name: 'Discover' });
  await discover.getByRole('searchbox', { name: 'Search groups' }).fill('Calibration');
  const row = discover.getByRole('listitem').filter({ has: p.page.getByRole('link', { name: 'Calibration Club', exact: true }) });
  await expect(row).toHaveCount(1);
  await expect(discover.getByRole('listitem')).toHaveCount(1);
  await row.getByRole('button', { name: 'Join Calibration Club' }).click();
  await expect(row.getByText('Member', { exact: true })).toBeVisible();

  // My groups has it now; its page offers Leave and shows the chat.
  await p.page.getByRole('tab', { name: 'My groups' }).click();
  await p.page.getByRole('list', { name: 'Your groups' }).getByRole('link', { name: 'Calibration Club', exact: true }).click();
  await expect(p.page).toHaveURL(/\/groups\/[^/]+$/);
  await expect(p.page.getByRole('heading', { level: 1, name: 'Calibration Club' })).toBeVisible();
  await expect(p.page.getByRole('button', { name: 'Leave Calibration Club' })).toBeVisible();
  await expect(p.page.getByRole('list', { name: 'Members' })).toContainText(`@${p.username}`);

  const text = `Base rates say yes ${unique}`;
  await expect(messages(p.page)).toBeVisible();
  await composerBox(p.page).fill(text);
  await p.page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(messages(p.page).getByRole('article').filter({ hasText: text })).toHaveCount(1);

  // The group's chat is among the player's chats, with the message as its latest.
  await p.page.goto('/chats');
  await expect(p.page.getByRole('navigation', { name: 'Conversations' }).getByRole('link').filter({ hasText: 'Calibration Club' })).toContainText(`You: ${text}`);

  await p.page.context().close();
});

test('a player who trades a ticker is invited to its group by the world, accepts, and posts in the group', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const isPhone = testInfo.project.name === 'phone';
  const p = await signInNewPlayer(browser, `e2e|gi${unique}`, projectContextOptions(testInfo.project.use));
  const request = p.page.request;

  // The player trades $KLDR (through the API, as any client may), then the scheduler's tick runs.
  // It invites at most once an hour of game time: the tick runs two game hours after the last one.
  const open = await request.post('/api/markets/perps/open', {
    headers: { Authorization: `Bearer ${p.token}` },
    data: { ticker: 'KLDR', side: 'long', size: 50, leverage: 2 },
  });
  expect(open.status()).toBe(200);
  const control = await (await request.get('/api/game/control', { headers: { Authorization: `Bearer ${p.token}` } })).json();
  const gameTime = Math.max(Date.now(), control.gameTime ? Date.parse(control.gameTime) : 0);
  const tick = await request.post('/api/cron/game-tick', {
    headers: { Authorization: `Bearer ${E2E_CRON_SECRET}` },
    data: { now: new Date(gameTime + 2 * 3_600_000).toISOString() },
  });
  expect(tick.status()).toBe(200);
  expect((await tick.json()).groups.invites).toBeGreaterThanOrEqual(1);

  // The Invites tab says why, and accepting joins the group.
  await clickNav(p.page, 'Groups', { isPhone, isInTabBar: false });
  await p.page.getByRole('tab', { name: /^Invites/ }).click();
  const invites = p.page.getByRole('tabpanel', { name: /^Invites/ });
  await expect(invites).toContainText('You traded $KLDR this week');
  await invites.getByRole('button', { name: 'Accept the invite to $KLDR Traders' }).click();
  await expect(invites.getByRole('button', { name: 'Accept the invite to $KLDR Traders' })).toHaveCount(0);

  await p.page.getByRole('tab', { name: 'My groups' }).click();
  await p.page.getByRole('list', { name: 'Your groups' }).getByRole('link', { name: '$KLDR Traders', exact: true }).click();
  await expect(p.page.getByRole('heading', { level: 1, name: '$KLDR Traders' })).toBeVisible();
  const text = `Long KLDR, folding laundry at scale ${unique}`;
  await composerBox(p.page).fill(text);
  await composerBox(p.page).press('Enter');
  await expect(messages(p.page).getByRole('article').filter({ hasText: text })).toHaveCount(1);

  await p.page.context().close();
});

