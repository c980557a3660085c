import { expect, test, type Page } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/** The administrator's token subject: playwright.config.ts lists it in the server's ADMIN_SUBJECTS. */
const ADMIN_SUBJECT = 'e2e|moderation-admin';

/** A link in whichever navigation is showing (the sidebar on desktop, the tab bar or the menu on phones). */
const navLink = (page: Page, name: string) => page.getByRole('link', { name, exact: true }).filter({ visible: true }).first();

/** Follows a link of the main navigation; on a phone, destinations beyond the tab bar are in the menu. */
const clickNav = async (page: Page, name: string, isPhone: boolean) => {
  if (isPhone && name !== 'Feed') await page.getByRole('button', { name: 'Open menu' }).click();
  await navLink(page, name).click();
};

/** Posts `content` from the home feed's composer and waits until it is live. */
const writePost = async (page: Page, content: string) => {
  await page.goto('/');
  const composer = page.getByRole('form', { name: 'New post' });
  await composer.getByRole('textbox', { name: 'Write a post' }).fill(content);
  await composer.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(composer.getByText('Your post is live.')).toBeVisible();
};

const latestFeed = (page: Page) => page.getByRole('feed', { name: 'Latest posts' });

test('B blocks A from A’s profile: A’s posts leave B’s feed at once and after a reload; undo from the settings page', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const options = projectContextOptions(testInfo.project.use);
  const a = await signInNewPlayer(browser, `e2e|ma${unique}`, options);
  const b = await signInNewPlayer(browser, `e2e|mb${unique}`, options);

  const content = `Block me if you dare ${unique}`;
  await writePost(a.page, content);
  // B's own post keeps B's feed from being empty once A's posts are gone.
  await writePost(b.page, `Just me here ${unique}`);

  // B sees A's post in the feed and goes to A's profile from it.
  await b.page.goto('/');
  const aPost = latestFeed(b.page).getByRole('article').filter({ hasText: content });
  await expect(aPost).toHaveCount(1);
  await aPost.getByRole('link', { name: new RegExp(`@${a.username}`) }).first().click();
  await expect(b.page).toHaveURL(new RegExp(`/u/${a.username}$`));
  const profilePosts = b.page.getByRole('feed', { name: `Posts by @${a.username}` });
  await expect(profilePosts.getByRole('article').filter({ hasText: content })).toHaveCount(1);

  // The menu works from the keyboard: the down arrow opens it on its first item, Escape closes it
  // and gives focus back to the button.
  const more = b.page.getByRole('button', { name: `More actions for @${a.username}` });
  await expect(more).toHaveAttribute('aria-haspopup', 'menu');
  await more.focus();
  await b.page.keyboard.press('ArrowDown');
  const menu = b.page.getByRole('menu', { name: `More actions for @${a.username}` });
  await expect(menu.getByRole('menuitem', { name: `Mute @${a.username}` })).toBeFocused();
  await b.page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: `Block @${a.username}` })).toBeFocused();
  await b.page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(more).toBeFocused();
  await expect(more).toHaveAttribute('aria-expanded', 'false');

  // Block, confirmed in a dialog.
  await more.click();
  await menu.getByRole('menuitem', { name: `Block @${a.username}` }).click();
  const confirm = b.page.getByRole('dialog', { name: `Block @${a.username}?` });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: `Block @${a.username}`, exact: true }).click();
  await expect(confirm).toHaveCount(0);
  await expect(b.page.getByText(`You blocked @${a.username}.`)).toBeVisible();
  await expect(b.page.getByText('Blocked', { exact: true })).toBeVisible();
  await expect(more).toBeFocused();

  // Back to the feed without reloading: A's post is gone at once; still gone after a reload.
  await clickNav(b.page, 'Feed', testInfo.project.name === 'phone');
  await expect(b.page).toHaveURL(/\/$/);
  await expect(latestFeed(b.page).getByRole('article').first()).toBeVisible();
  await expect(latestFeed(b.page).getByRole('article').filter({ hasText: content })).toHaveCount(0);
  await b.page.reload();
  await expect(latestFeed(b.page).getByRole('article').first()).toBeVisible();
  await expect(latestFeed(b.page).getByRole('article').filter({ hasText: content })).toHaveCount(0);

  // The settings page lists A; unblocking brings the post back.
  await b.page.goto('/profile');
  await b.page.getByRole('link', { name: /^Blocked players/ }).click();
  await expect(b.page).toHaveURL(/\/settings\/blocks$/);
  const blocked = b.page.getByRole('list', { name: 'Blocked players' });
  await expect(blocked.getByRole('listitem')).toHaveCount(1);
  await expect(blocked).toContainText(`@${a.username}`);
  await blocked.getByRole('button', { name: `Unblock @${a.username}` }).click();
  await expect(b.page.getByText(`You unblocked @${a.username}.`, { exact: false })).toBeVisible();
  await expect(b.page.getByRole('heading', { name: 'You have not blocked anyone' })).toBeVisible();
  await b.page.goto('/');
  await expect(latestFeed(b.page).getByRole('article').filter({ hasText: content })).toHaveCount(1);

  await a.page.context().close();
  await b.page.context().close();
});

test('a player reports a post (the form explains each category; a second report is refused) and an administrator resolves it in the console', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const options = projectContextOptions(testInfo.project.use);
  const author = await signInNewPlayer(browser, `e2e|ra${unique}`, options);
  const reporter = await signInNewPlayer(browser, `e2e|rr${unique}`, options);

  const content = `Buy my course, guaranteed 1000x ${unique}`;
  await writePost(author.page, content);

  // A player is turned away from the console.
  await reporter.page.goto('/admin');
  await expect(reporter.page.getByRole('heading', { level: 1, name: 'Not allowed' })).toBeVisible();
  await expect(reporter.page.getByRole('link', { name: 'Admin', exact: true })).toHaveCount(0);

  // The reporter opens the post's menu and reports it.
  await reporter.page.goto('/');
  const post = latestFeed(reporter.page).getByRole('article').filter({ hasText: content });
  await post.getByRole('button', { name: `More actions for this post by @${author.username}` }).click();
  await reporter.page.getByRole('menuitem', { name: 'Report post' }).click();
  const dialog = reporter.page.getByRole('dialog', { name: 'Report a post' });
  await expect(dialog).toBeVisible();
  const categories = dialog.getByRole('group', { name: 'What is wrong?' }).getByRole('radio');
  await expect(categories).toHaveCount(9);
  await expect(categories.first()).toBeFocused();
  await expect(dialog.getByRole('radio', { name: 'Spam' })).toHaveAccessibleDescription(/promotional posts/);

  // Problems show beside their fields; the counter follows the typing.
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByText('Pick the category that fits best.')).toBeVisible();
  await dialog.getByRole('radio', { name: 'Spam' }).check();
  const reason = dialog.getByRole('textbox', { name: 'What happened' });
  await reason.fill('Too short');
  await expect(dialog.getByText('9/2000')).toBeVisible();
  await expect(dialog.getByText('Tell us what happened in at least 10 characters.')).toBeVisible();
  await reason.fill('Advertises a paid course in every post, with a fake return.');
  await dialog.getByRole('textbox', { name: 'Evidence link (optional)' }).fill('not a link');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByText('Enter a link that starts with http:// or https://.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Evidence link (optional)' }).fill('https://example.test/screenshot.png');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  const sent = reporter.page.getByRole('dialog', { name: 'Report sent' });
  await expect(sent).toBeVisible();
  await sent.getByRole('button', { name: 'Done' }).click();
  await expect(sent).toHaveCount(0);

  // The same report again within 24 hours is refused with a clear sentence; Escape closes the dialog.
  await post.getByRole('button', { name: `More actions for this post by @${author.username}` }).click();
  await reporter.page.getByRole('menuitem', { name: 'Report post' }).click();
  await dialog.getByRole('radio', { name: 'Spam' }).check();
  await dialog.getByRole('textbox', { name: 'What happened' }).fill('Advertises a paid course in every post, again.');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('You already reported this in the last 24 hours.');
  await reporter.page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(post.getByRole('button', { name: `More actions for this post by @${author.username}` })).toBeFocused();

  // The administrator finds it in the queue (player reports, newest first) and opens it from the keyboard.
  const admin = await signInNewPlayer(browser, ADMIN_SUBJECT, options);
  await admin.page.goto('/');
  await clickNav(admin.page, 'Admin', testInfo.project.name === 'phone');
  await expect(admin.page).toHaveURL(/\/admin$/);
  await expect(admin.page.getByRole('heading', { level: 1, name: 'Admin console' })).toBeVisible();
  await admin.page.getByRole('combobox', { name: 'Source' }).selectOption('user');
  await admin.page.getByRole('combobox', { name: 'Sort' }).selectOption('created:desc');
  await expect(admin.page).toHaveURL(/source=user/);
  // j and k work from anywhere but a form field: leave the select first.
  await admin.page.getByRole('heading', { name: 'Report queue' }).click();
  const queue = admin.page.getByRole('list', { name: 'Reports' });
  const first = queue.getByRole('link').first();
  await expect(first).toContainText(content);
  await expect(first).toHaveAccessibleName(`Low priority, Pending: Spam report about a post by @${author.username}, from @${reporter.username}`);
  await admin.page.keyboard.press('j');
  await expect(first).toBeFocused();
  await admin.page.keyboard.press('Enter');
  await expect(admin.page).toHaveURL(/\/admin\/reports\/[^/?]+$/);

  // The detail shows the post in context and the reason; resolving needs a resolution text.
  const main = admin.page.getByRole('main');
  await expect(main.getByRole('article', { name: 'Reported post' })).toContainText(content);
  await expect(main.getByRole('region', { name: 'Why it was reported' })).toContainText('Advertises a paid course in every post, with a fake return.');
  await expect(main.getByRole('link', { name: 'https://example.test/screenshot.png' })).toBeVisible();
  await expect(admin.page.getByTestId('report-status')).toHaveText('Pending');
  const decision = main.getByRole('region', { name: 'Decision' });
  await decision.getByRole('button', { name: 'Resolve', exact: true }).click();
  await expect(decision.getByText('Write what you decided and why: it is stored with the report.')).toBeVisible();
  await decision.getByRole('textbox', { name: 'Resolution' }).fill('Spam: post removed from circulation, author warned.');
  await decision.getByRole('button', { name: 'Resolve', exact: true }).click();
  await expect(decision.getByText('Report resolved.')).toBeVisible();
  await expect(admin.page.getByTestId('report-status')).toHaveText('Resolved');
  const trail = main.getByRole('list', { name: 'Audit trail' });
  await expect(trail).toContainText(`@${admin.username} resolved it`);
  await expect(trail).toContainText('Spam: post removed from circulation, author warned.');

  // Back in the queue it is no longer pending.
  await main.getByRole('link', { name: '← Report queue' }).click();
  await expect(admin.page.getByRole('main')).not.toContainText(content);

  await author.page.context().close();
  await reporter.page.context().close();
  await admin.page.context().close();
});

test('an administrator bans a player from user management; the player’s next post is refused and the composer says so', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const options = projectContextOptions(testInfo.project.use);
  const player = await signInNewPlayer(browser, `e2e|bn${unique}`, options);
  const admin = await signInNewPlayer(browser, ADMIN_SUBJECT, options);

  // The player posts once, and keeps the page open.
  await writePost(player.page, `Before the ban ${unique}`);

  // The administrator finds the player and bans them with a reason.
  await admin.page.goto('/admin/users');
  await admin.page.getByRole('searchbox', { name: 'Search' }).fill(player.username);
  const ban = admin.page.getByRole('button', { name: `Ban @${player.username}`, exact: true }).filter({ visible: true });
  await expect(ban).toHaveCount(1);
  await ban.click();
  const dialog = admin.page.getByRole('dialog', { name: `Ban @${player.username}?` });
  await dialog.getByRole('textbox', { name: 'Reason (optional)' }).fill('Spamming course links');
  await dialog.getByRole('button', { name: `Ban @${player.username}`, exact: true }).click();
  await expect(admin.page.getByText(`@${player.username} is banned.`)).toBeVisible();
  await expect(admin.page.getByRole('button', { name: `Unban @${player.username}`, exact: true }).filter({ visible: true })).toHaveCount(1);

  // The player's next post is refused, and the composer says why.
  const composer = player.page.getByRole('form', { name: 'New post' });
  await composer.getByRole('textbox', { name: 'Write a post' }).fill(`After the ban ${unique}`);
  await composer.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(composer.getByRole('alert').filter({ hasText: /banned/i }).first()).toBeVisible();
  await expect(composer.getByText('Your post is live.')).toHaveCount(0);
  await player.page.reload();
  await expect(player.page.getByRole('form', { name: 'New post' }).getByText('Your account is banned: you can read, but not post, trade or change anything.')).toBeVisible();
  await expect(latestFeed(player.page).getByRole('article').filter({ hasText: `After the ban ${unique}` })).toHaveCount(0);

  await player.page.context().close();
  await admin.page.context().close();
});
