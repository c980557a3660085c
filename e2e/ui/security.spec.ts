import { expect, test } from '@playwright/test';
import { AFTER_SIGN_IN_URL, mintToken } from '../fixtures/auth';

// The production server's answers to hostile and cross-origin clients: security headers on pages
// and the API, a page policy that still lets the app run, JSON for unknown paths and methods,
// bodies refused by size, and the CORS policy of the README (bearer tokens from any origin,
// cookie-authenticated writes from our own origin only).

test('pages carry a nonce-based policy, the app still runs under it, and nothing is blocked', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  const res = await page.goto('/markets');
  const headers = res!.headers();
  const csp = headers['content-security-policy'] ?? '';
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).not.toMatch(/unsafe-eval/);
  expect(csp).toMatch(/frame-ancestors 'none'/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBeTruthy();
  expect(headers['permissions-policy']).toBeTruthy();
  expect(headers['strict-transport-security']).toMatch(/max-age=\d+/);
  // A fresh nonce per page view.
  const again = await page.request.get('/markets');
  expect(again.headers()['content-security-policy']).not.toBe(csp);
  // Client components rendered and fetched live data: scripts ran.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: /Will / }).first()).toBeVisible();
  expect(violations).toEqual([]);
});

test('the API speaks JSON for unknown paths and methods, and refuses an oversized body fast', async ({ request }) => {
  // A client of its own: the pages of earlier specs have spent 127.0.0.1's anonymous budget.
  const headers = { 'x-e2e-client': `security-${Date.now().toString(36)}` };
  const unknown = await request.get('/api/no/such/route', { headers });
  expect(unknown.status()).toBe(404);
  expect(unknown.headers()['content-type']).toMatch(/application\/json/);
  expect(unknown.headers()['x-ratelimit-limit']).toBeTruthy();
  expect((await unknown.json()).error.code).toBe('NOT_FOUND');

  const wrongMethod = await request.put('/api/markets/predictions/x/buy', { headers, data: { amount: 1 } });
  expect(wrongMethod.status()).toBe(405);
  expect(wrongMethod.headers()['allow']).toBe('POST, OPTIONS');
  expect(wrongMethod.headers()['x-ratelimit-remaining']).toBeTruthy();
  expect((await wrongMethod.json()).error.code).toBe('METHOD_NOT_ALLOWED');

  const token = await mintToken(`e2e|big${Date.now().toString(36)}`);
  const started = Date.now();
  const big = await request.post('/api/posts', {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    data: JSON.stringify({ content: 'a'.repeat(1_000_000) }),
  });
  expect(big.status()).toBe(413);
  expect((await big.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
  expect(Date.now() - started).toBeLessThan(5000);
  const health = await request.get('/api/health', { headers });
  expect(health.status()).toBe(200);
  expect(health.headers()['content-security-policy']).toMatch(/default-src 'none'/);
});

test.describe('CORS', () => {
  // The "other site" below is a document of this server under another origin (127.0.0.1 instead of
  // localhost: same machine, so Chromium's local-network rules stay out of the way). Its own
  // policy (an API answer's default-src 'none') would forbid it any fetch at all, so this test
  // alone bypasses page policies; CORS is the browser's, and stays in force.
  test.use({ bypassCSP: true });

  test('a bearer client on another origin reads and writes; a cookie on another origin cannot write', async ({ page, baseURL }) => {
    const api = baseURL!; // http://localhost:<port>
    const otherOrigin = api.replace('localhost', '127.0.0.1');

    // A signed-in player of ours: the session cookie lives on the API's origin.
    const subject = `e2e|cors${Date.now().toString(36)}`;
    const token = await mintToken(subject);
    await page.goto('/sign-in');
    await page.getByRole('textbox', { name: 'Access token', exact: true }).fill(token);
    await page.getByRole('button', { name: 'Sign in with token' }).click();
    await expect(page).toHaveURL(AFTER_SIGN_IN_URL);

    await page.goto(`${otherOrigin}/api/health`);
    const result = await page.evaluate(
      async ({ api, token }) => {
        const read = await fetch(`${api}/api/markets/predictions?limit=1`, { headers: { Authorization: `Bearer ${token}` } });
        const readJson = await read.json();
        const write = await fetch(`${api}/api/posts`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ content: 'Posted from another origin with a bearer token' }),
        });
        let cookieWrite: string;
        try {
          const r = await fetch(`${api}/api/posts`, {
            method: 'POST',
            credentials: 'include',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ content: 'Posted with a cookie from another origin' }),
          });
          cookieWrite = `readable ${r.status}`;
        } catch {
          cookieWrite = 'blocked';
        }
        return {
          readStatus: read.status,
          readOk: readJson.success,
          remaining: read.headers.get('x-ratelimit-remaining'),
          writeStatus: write.status,
          cookieWrite,
        };
      },
      { api, token },
    );
    expect(result.readStatus).toBe(200);
    expect(result.readOk).toBe(true);
    expect(result.remaining).toMatch(/^\d+$/);
    expect(result.writeStatus).toBe(201);
    // The browser refuses to show a credentialed answer to another origin (no Allow-Credentials).
    expect(result.cookieWrite).toBe('blocked');

    // And the server did not act on the cookie: only the bearer post exists.
    const me = await (await page.request.get('/api/users/me')).json();
    const posts = (await (await page.request.get(`/api/users/${me.user.id}/posts`)).json()).posts as { content: string }[];
    expect(posts.map((p) => p.content)).toContain('Posted from another origin with a bearer token');
    expect(posts.map((p) => p.content)).not.toContain('Posted with a cookie from another origin');
  });
});
