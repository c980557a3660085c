import { expect, test, type Page } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/** A 2×2 PNG, small and valid (the server decodes and re-encodes every upload). */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==',
  'base64',
);

/** The notifications link in whichever navigation is showing (sidebar, or the phone's top bar). */
const notificationsLink = (page: Page, name: string | RegExp) => page.getByRole('link', { name, exact: typeof name === 'string' }).filter({ visible: true });

test('post with an image, comment, like and follow, then read the notifications', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  // Two players, two browser contexts (two cookie jars), shaped like the project's device.
  const options = projectContextOptions(testInfo.project.use);
  const a = await signInNewPlayer(browser, `e2e|sa${unique}`, options);
  const b = await signInNewPlayer(browser, `e2e|sb${unique}`, options);

  // A posts with an image from the home feed's composer.
  const content = `Calling it early ${unique}: rates hold this quarter #e2e${unique}`;
  await a.page.goto('/');
  const composer = a.page.getByRole('form', { name: 'New post' });
  const text = composer.getByRole('textbox', { name: 'Write a post' });
  await text.fill('x'.repeat(281));
  await expect(composer.getByText('281/280')).toBeVisible();
  await expect(composer.getByRole('button', { name: 'Post', exact: true })).toBeDisabled();
  await text.fill(content);
  await composer.getByLabel('Add image').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: TINY_PNG });
  await expect(composer.getByRole('img', { name: 'Image to attach' })).toBeVisible();
  await expect(composer.getByRole('button', { name: 'Remove image' })).toBeVisible();
  await composer.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(composer.getByText('Your post is live.')).toBeVisible();

  const latest = a.page.getByRole('feed', { name: 'Latest posts' });
  const ownPost = latest.getByRole('article').filter({ hasText: content });
  await expect(ownPost).toHaveCount(1);
  await expect(ownPost.getByRole('img', { name: `Image posted by @${a.username}` })).toBeVisible();
  await expect(ownPost.getByRole('link', { name: `#e2e${unique}`.toLowerCase() })).toHaveAttribute('href', `/tags/e2e${unique}`.toLowerCase());

  // B finds the post on A's profile and opens it.
  await b.page.goto(`/u/${a.username}`);
  const profilePost = b.page.getByRole('feed', { name: `Posts by @${a.username}` }).getByRole('article').filter({ hasText: content });
  await profilePost.getByRole('link', { name: /^Comment, 0 comments/ }).click();
  await expect(b.page).toHaveURL(/\/posts\/[^/#]+/);
  const post = b.page.getByRole('main').getByRole('article').filter({ hasText: content }).first();
  await expect(post).toBeVisible();

  // Comment: the 10-character rule is shown, then a real comment lands in the thread.
  const comments = b.page.getByRole('region', { name: /Comments/ });
  const commentBox = comments.getByRole('textbox', { name: 'Add a comment' });
  await commentBox.fill('Too short');
  await comments.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(comments.getByRole('alert')).toContainText('at least 10 characters');
  await commentBox.fill('Bold call, I am taking the other side of this one.');
  await comments.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(comments.getByRole('article', { name: `Comment by @${b.username}` })).toContainText('Bold call');
  await expect(commentBox).toHaveValue('');

  // Like (optimistic, then confirmed) and follow.
  const like = post.getByRole('button', { name: /^Like,/ });
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like).toHaveAccessibleName('Like, 1 like');
  // Share with a quote: the Share toggle is pressed afterwards.
  await post.getByRole('button', { name: 'Share with a quote' }).click();
  await post.getByRole('textbox', { name: 'Your quote' }).fill('Worth a read');
  await post.getByRole('button', { name: 'Share with quote' }).click();
  await expect(post.getByRole('button', { name: /^Share,/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(post.getByRole('button', { name: /^Share,/ })).toHaveAccessibleName('Share, 1 share');
  await b.page.getByRole('button', { name: `Follow @${a.username}` }).click();
  await expect(b.page.getByRole('button', { name: `Following @${a.username}` })).toHaveAttribute('aria-pressed', 'true');

  // The follow shows on A's profile (B's own view of it).
  await b.page.goto(`/u/${a.username}`);
  await expect(b.page.getByRole('button', { name: `Following @${a.username}` })).toBeVisible();
  await b.page.getByRole('tab', { name: /^Followers/ }).click();
  await expect(b.page.getByRole('tabpanel').getByText(`@${b.username}`)).toBeVisible();

  // B stars A: A's post is in B's Favorites feed.
  await b.page.getByRole('button', { name: `Add @${a.username} to favorites` }).click();
  await expect(b.page.getByRole('button', { name: `Remove @${a.username} from favorites` })).toHaveAttribute('aria-pressed', 'true');
  await b.page.goto('/');
  await b.page.getByRole('tab', { name: 'Favorites', exact: true }).click();
  await expect(b.page.getByRole('main').getByRole('article').filter({ hasText: content }).first()).toBeVisible();

  // A: the badge counts the comment, the like, the share and the follow.
  await a.page.goto('/');
  await expect(notificationsLink(a.page, 'Notifications, 4 unread')).toBeVisible();
  await notificationsLink(a.page, 'Notifications, 4 unread').click();
  await expect(a.page).toHaveURL(/\/notifications$/);
  const list = a.page.getByRole('list', { name: 'Notifications' });
  await expect(list.getByRole('listitem')).toHaveCount(4);
  await expect(list.getByRole('link', { name: /Your post was shared/ })).toContainText(`@${b.username} shared your post`);
  await expect(list.getByRole('link', { name: /New comment/ })).toContainText(`@${b.username} commented`);
  await expect(list.getByRole('link', { name: /New like/ })).toContainText(`@${b.username} liked your post`);
  await expect(list.getByRole('link', { name: /New follower/ })).toContainText(`@${b.username} followed you`);

  // Opening one marks it read.
  await list.getByRole('link', { name: /New follower/ }).click();
  await expect(a.page).toHaveURL(new RegExp(`/u/${b.username}$`));
  await expect(notificationsLink(a.page, 'Notifications, 3 unread')).toBeVisible();
  await notificationsLink(a.page, 'Notifications, 3 unread').click();
  await expect(a.page.getByText('3 unread', { exact: true })).toBeVisible();

  // Mark all read: the highlight and the badge go.
  await a.page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(a.page.getByText('You are all caught up.')).toBeVisible();
  await expect(list.locator('[data-unread]')).toHaveCount(0);
  await expect(notificationsLink(a.page, 'Notifications')).toBeVisible();
  await a.page.reload();
  await expect(notificationsLink(a.page, 'Notifications')).toBeVisible();
  await expect(a.page.getByRole('button', { name: 'Mark all read' })).toBeDisabled();

  await a.page.context().close();
  await b.page.context().close();
});
