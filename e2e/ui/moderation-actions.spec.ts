import { expect, test, type Page } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/**
 * Moderation that fits the offence (issue 35): the administrator removes one reported post from the
 * report page with a canned reason, and the post's page shows the reason in its place; the admin
 * console's filter selects fit at 1280 px (none truncates its text).
 */

/** The administrator's token subject: playwright.config.ts lists it in the server's ADMIN_SUBJECTS. */
const ADMIN_SUBJECT = 'e2e|moderation-admin';

const latestFeed = (page: Page) => page.getByRole('feed', { name: 'Latest posts' });

/** Posts `content` from the home feed's composer and waits until it is live. */
const writePost = async (page: Page, content: string) => {
  await page.goto('/');
  const composer = page.getByRole('form', { name: 'New post' });
  await composer.getByRole('textbox', { name: 'Write a post' }).fill(content);
  await composer.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(composer.getByText('Your post is live.')).toBeVisible();
};

/** The selects on the page whose text does not fit (scrollWidth beyond clientWidth), by id. */
const overflowingSelects = (page: Page) =>
  page.locator('select').evaluateAll((els) =>
    els.filter((el) => el.getClientRects().length > 0 && el.scrollWidth > el.clientWidth).map((el) => el.id || el.getAttribute('aria-label') || el.outerHTML.slice(0, 80)),
  );

test('an administrator removes a reported post from the report page; the post shows the removal reason', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const options = projectContextOptions(testInfo.project.use);
  const author = await signInNewPlayer(browser, `e2e|xa${unique}`, options);
  const reporter = await signInNewPlayer(browser, `e2e|xr${unique}`, options);

  const content = `Free points, click my link now ${unique}`;
  await writePost(author.page, content);

  // The reporter reports it as spam.
  await reporter.page.goto('/');
  const post = latestFeed(reporter.page).getByRole('article').filter({ hasText: content });
  await post.getByRole('button', { name: `More actions for this post by @${author.username}` }).click();
  await reporter.page.getByRole('menuitem', { name: 'Report post' }).click();
  const dialog = reporter.page.getByRole('dialog', { name: 'Report a post' });
  await dialog.getByRole('radio', { name: 'Spam' }).check();
  await dialog.getByRole('textbox', { name: 'What happened' }).fill('Posts the same scam link over and over.');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(reporter.page.getByRole('dialog', { name: 'Report sent' })).toBeVisible();

  // The administrator opens it from the queue (player reports, newest first).
  const admin = await signInNewPlayer(browser, ADMIN_SUBJECT, options);
  await admin.page.goto('/admin?source=user&sort=created');
  const queue = admin.page.getByRole('list', { name: 'Reports' });
  const first = queue.getByRole('link').filter({ hasText: content }).first();
  await expect(first).toBeVisible();
  await first.click();
  await expect(admin.page).toHaveURL(/\/admin\/reports\/[^/?]+$/);
  const main = admin.page.getByRole('main');
  await expect(main.getByRole('article', { name: 'Reported post' })).toContainText(content);

  // Claiming needs no written resolution.
  const decision = main.getByRole('region', { name: 'Decision' });
  await decision.getByRole('button', { name: 'Review', exact: true }).click();
  await expect(admin.page.getByTestId('report-status')).toHaveText('Reviewing');

  // Remove the post with a canned reason.
  const sanction = main.getByRole('region', { name: 'Sanction' });
  await sanction.getByRole('combobox', { name: 'Reason (shown to the author)' }).selectOption('spam');
  await sanction.getByRole('button', { name: 'Remove post', exact: true }).click();
  await expect(sanction.getByText('Post removed')).toBeVisible();
  await expect(main.getByRole('article', { name: 'Reported post' })).toContainText('Removed: Spam');
  await expect(sanction.getByRole('button', { name: 'Restore post', exact: true })).toBeVisible();
  const postHref = await main.getByRole('article', { name: 'Reported post' }).getByRole('link', { name: 'Open post' }).getAttribute('href');
  expect(postHref).toMatch(/^\/posts\//);

  // The audit trail lists it.
  await admin.page.goto('/admin/moderation');
  await expect(admin.page.getByRole('list', { name: 'Moderation actions' }).getByRole('listitem').filter({ hasText: `@${author.username}` }).first()).toContainText(
    'Removed a post',
  );

  // The post's page shows the reason in its place, not the text.
  await reporter.page.goto(postHref!);
  await expect(reporter.page.getByText(/Removed by a moderator: Spam/).first()).toBeVisible();
  await expect(reporter.page.getByRole('main')).not.toContainText(content);

  await author.page.context().close();
  await reporter.page.context().close();
  await admin.page.context().close();
});

test('the admin console’s filter selects fit at 1280 px', async ({ browser }, testInfo) => {
  const options = projectContextOptions(testInfo.project.use);
  const admin = await signInNewPlayer(browser, ADMIN_SUBJECT, { ...options, viewport: { width: 1280, height: 800 } });
  await admin.page.setViewportSize({ width: 1280, height: 800 });

  await admin.page.goto('/admin');
  await expect(admin.page.getByRole('combobox', { name: 'Category' })).toBeVisible();
  // Pick the longest option of each filter, then measure.
  await admin.page.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Any category' });
  await admin.page.getByRole('combobox', { name: 'Source' }).selectOption('');
  expect(await overflowingSelects(admin.page)).toEqual([]);

  await admin.page.goto('/admin/users');
  await expect(admin.page.getByRole('combobox', { name: 'Show' })).toBeVisible();
  await expect(admin.page.getByRole('combobox', { name: /^Role of @/ }).first()).toBeVisible();
  expect(await overflowingSelects(admin.page)).toEqual([]);

  await admin.page.goto('/admin/moderation');
  await expect(admin.page.getByRole('combobox', { name: 'Action' })).toBeVisible();
  expect(await overflowingSelects(admin.page)).toEqual([]);

  await admin.page.context().close();
});
