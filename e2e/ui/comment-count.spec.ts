import { expect, test } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/**
 * Issue 35's rough edge: "Comments (0)" above a comment that arrived live. The post and its thread
 * are two reads; when the thread is the newer one (a comment came after the post was read), the
 * heading counts what the thread shows, not the post's older count. The post's read is held at its
 * first answer here, so the thread is the newer read deterministically.
 */
test('the comments heading counts the comments the thread shows, even when the post was read before they came', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const writer = await signInNewPlayer(browser, `e2e|cc${unique}`, projectContextOptions(testInfo.project.use));
  const auth = { Authorization: `Bearer ${writer.token}` };
  const posted = await writer.page.request.post('/api/posts', { headers: auth, data: { content: `Counting comments ${unique}` } });
  expect(posted.status()).toBe(201);
  const postId = (await posted.json()).post.id as string;

  // The post as it was read before any comment: every later read of it answers that first answer.
  const first = await writer.page.request.get(`/api/posts/${postId}`);
  expect(first.ok()).toBe(true);
  const stale = await first.json();
  expect(stale.post.commentsCount).toBe(0);
  await writer.page.route(`**/api/posts/${postId}`, (route) => (route.request().method() === 'GET' ? route.fulfill({ json: stale }) : route.fallback()));

  const comment = `First thought on this ${unique}`;
  const made = await writer.page.request.post(`/api/posts/${postId}/comments`, { headers: auth, data: { content: comment } });
  expect(made.status()).toBe(201);

  await writer.page.goto(`/posts/${postId}`);
  const section = writer.page.getByRole('region', { name: /^Comments/ });
  await expect(section.getByText(comment)).toBeVisible();
  await expect(section.getByRole('heading', { name: 'Comments (1)', exact: true })).toBeVisible();
});
