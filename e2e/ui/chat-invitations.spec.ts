import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/**
 * Group chats are invitations (issue 29, deliverable 4): whoever a group chat's creator adds sees it
 * in their chat list marked as an invitation, with no message, preview or unread count, cannot read
 * it by its address, and joins only by accepting; declining takes it off their list.
 */

/** A link in whichever navigation is showing (the sidebar on desktop, the tab bar or the menu on phones). */
const navLink = (page: Page, name: string | RegExp) => page.getByRole('link', { name, exact: typeof name === 'string' }).filter({ visible: true }).first();

const conversations = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });
const composerBox = (page: Page) => page.getByRole('textbox', { name: 'Message', exact: true });

/** The serious and critical axe violations (WCAG 2.x A and AA) of what the page shows, as e2e/ui/a11y.spec.ts reads them. */
const seriousViolations = async (page: Page) => {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('\n    ')}`);
};

test('A invites B to a new group chat; B sees the invitation without its messages, accepts with the keyboard and reads A’s message', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const isPhone = testInfo.project.name === 'phone';
  const options = projectContextOptions(testInfo.project.use);
  const a = await signInNewPlayer(browser, `e2e|ia${unique}`, options);
  const b = await signInNewPlayer(browser, `e2e|ib${unique}`, options);
  const aName = (await (await a.page.request.get('/api/users/me')).json()).user.displayName || a.username;

  // A starts a group chat from the Chats page: names it, finds B and adds them.
  const chatName = `Macro desk ${unique}`;
  await a.page.goto('/chats');
  await a.page.getByRole('button', { name: 'New group chat' }).click();
  const dialog = a.page.getByRole('dialog', { name: 'New group chat' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Chat name (optional)' }).fill(chatName);
  await dialog.getByRole('searchbox', { name: 'Add people' }).fill(b.username);
  await dialog.getByRole('list', { name: 'People found' }).getByRole('button', { name: `Add @${b.username}`, exact: true }).click();
  await expect(dialog.getByRole('list', { name: 'People in the chat' }).getByRole('button', { name: `Remove @${b.username}` })).toBeVisible();
  await dialog.getByRole('button', { name: 'Create chat' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(a.page).toHaveURL(/\/chats\/[^/]+$/);
  const chatPath = new URL(a.page.url()).pathname;
  // B is invited, not yet a member.
  await expect(a.page.getByText('1 member · 1 invited')).toBeVisible();

  const hello = `Welcome to the desk ${unique}`;
  await expect(messages(a.page)).toBeVisible();
  await composerBox(a.page).fill(hello);
  await composerBox(a.page).press('Enter');
  await expect(messages(a.page).getByRole('article').filter({ hasText: hello })).toHaveCount(1);

  // Nothing of the chat reaches B's navigation: no unread count for an invitation (the sidebar on desktop).
  await b.page.goto('/');
  if (!isPhone) await expect(navLink(b.page, 'Chats')).toBeVisible();
  await navLink(b.page, /^Chats/).click();
  await expect(b.page).toHaveURL(/\/chats$/);

  // The list shows the invitation, marked as such: not a link, who invited B, no preview, no badge.
  const invitation = conversations(b.page).getByRole('listitem').filter({ hasText: chatName });
  await expect(invitation).toHaveCount(1);
  await expect(invitation).toContainText('Invitation');
  await expect(invitation).toContainText(`${aName} invited you`);
  await expect(invitation.getByRole('link')).toHaveCount(0);
  await expect(invitation.getByTestId('chat-unread-badge')).toHaveCount(0);
  await expect(conversations(b.page)).not.toContainText(hello);
  await expect(invitation.getByRole('button', { name: `Decline the invitation to ${chatName}` })).toBeVisible();

  // The list with an invitation in it reads well.
  const found = await seriousViolations(b.page);
  expect(found, found.join('\n')).toEqual([]);

  // Accept from the keyboard: the chat opens with A's message in it.
  const accept = invitation.getByRole('button', { name: `Accept the invitation to ${chatName}` });
  await accept.focus();
  await expect(accept).toBeFocused();
  await b.page.keyboard.press('Enter');
  await expect(b.page).toHaveURL(new RegExp(`${chatPath}$`));
  const received = messages(b.page).getByRole('article').filter({ hasText: hello });
  await expect(received).toHaveCount(1);
  await expect(received).not.toHaveAttribute('aria-label', /^You, /);

  // B is a member now: the list has the chat as an ordinary one (on desktop, beside the conversation)
  // and B's reply reaches A.
  if (!isPhone) {
    const row = conversations(b.page).getByRole('link').filter({ hasText: chatName });
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute('aria-current', 'page');
    await expect(conversations(b.page).getByText('Invitation', { exact: true })).toHaveCount(0);
  }
  const reply = `Glad to be here ${unique}`;
  await composerBox(b.page).fill(reply);
  await composerBox(b.page).press('Enter');
  await expect(messages(b.page).getByRole('article').filter({ hasText: reply })).toHaveCount(1);
  await expect(messages(a.page).getByRole('article').filter({ hasText: reply })).toHaveCount(1);

  await a.page.context().close();
  await b.page.context().close();
});

test('B cannot read a chat they are invited to by its address; declining, there or in the list, takes it off their list', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const options = projectContextOptions(testInfo.project.use);
  const a = await signInNewPlayer(browser, `e2e|da${unique}`, options);
  const b = await signInNewPlayer(browser, `e2e|db${unique}`, options);
  const asA = { Authorization: `Bearer ${a.token}` };
  const asB = { Authorization: `Bearer ${b.token}` };
  const bId = (await (await b.page.request.get('/api/users/me')).json()).user.id as string;

  // A creates two group chats with B through the API, as any client may, and writes in the first.
  const createChat = async (name: string) => {
    const created = await a.page.request.post('/api/chats', { headers: asA, data: { name, isGroup: true, participantIds: [bId] } });
    expect(created.status(), await created.text()).toBe(201);
    return (await created.json()).chat.id as string;
  };
  const ratesName = `Rates desk ${unique}`;
  const creditName = `Credit desk ${unique}`;
  const ratesId = await createChat(ratesName);
  const creditId = await createChat(creditName);
  const hello = `Not for outsiders ${unique}`;
  const sent = await a.page.request.post(`/api/chats/${ratesId}/message`, { headers: asA, data: { content: hello } });
  expect(sent.ok(), await sent.text()).toBe(true);

  // Opened by its address, the chat shows the invitation and none of its messages.
  await b.page.goto(`/chats/${ratesId}`);
  const invitedHeading = b.page.getByRole('heading', { name: 'You are invited to this chat' });
  await expect(invitedHeading).toBeVisible();
  await expect(messages(b.page)).toHaveCount(0);
  await expect(composerBox(b.page)).toHaveCount(0);
  await expect(b.page.getByText(hello)).toHaveCount(0);
  // Who invited, and the chat's name, come from the chat list once it loads (the page subscribes to it).
  await expect(invitedHeading.locator('..')).toContainText('invited you');
  const declineHere = invitedHeading.locator('..').getByRole('button', { name: `Decline the invitation to ${ratesName}` });
  await expect(declineHere).toBeVisible();

  // Declining there goes back to the list, without that chat; the other invitation is still there.
  await declineHere.click();
  await expect(b.page).toHaveURL(/\/chats$/);
  const credit = conversations(b.page).getByRole('listitem').filter({ hasText: creditName });
  await expect(credit).toContainText('Invitation');
  await expect(conversations(b.page).getByText(ratesName)).toHaveCount(0);

  // Declining in the list takes the other off too, and both stay off after a reload.
  await credit.getByRole('button', { name: `Decline the invitation to ${creditName}` }).click();
  await expect(b.page.getByText(creditName)).toHaveCount(0);
  await b.page.reload();
  await expect(b.page.getByRole('heading', { level: 1, name: 'Chats' })).toBeVisible();
  await expect(b.page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
  await expect(b.page.getByText('No conversations yet')).toBeVisible();
  await expect(b.page.getByText(ratesName)).toHaveCount(0);
  await expect(b.page.getByText(creditName)).toHaveCount(0);

  // The server agrees: B is out of both chats and cannot read them; A's chats no longer list B.
  const list = await b.page.request.get('/api/chats', { headers: asB });
  expect(list.status()).toBe(200);
  const listed = ((await list.json()).chats as { id: string }[]).map((c) => c.id);
  for (const chatId of [ratesId, creditId]) {
    expect(listed).not.toContain(chatId);
    const read = await b.page.request.get(`/api/chats/${chatId}`, { headers: asB });
    expect(read.status()).toBe(403);
    expect((await read.json()).error.code).toBe('NOT_CHAT_MEMBER');
    const asSeenByA = await a.page.request.get(`/api/chats/${chatId}`, { headers: asA });
    expect(asSeenByA.status()).toBe(200);
    expect(((await asSeenByA.json()).chat.participants as { id: string }[]).map((p) => p.id)).not.toContain(bId);
  }

  await a.page.context().close();
  await b.page.context().close();
});
