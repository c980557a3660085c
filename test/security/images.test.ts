/**
 * No image points back into the API (issue 29, items 3 and 12), against a production server on
 * each database. A post's `imageUrl`, a profile's `profileImageUrl` and `coverImageUrl` and
 * signup's `profileImageUrl` are fetched by every reader's browser with that reader's cookie, so
 * they accept only our own uploads (`/api/uploads/<key>`, relative or on our origin) and https
 * URLs on other origins: the onboarding GET planted as an image, a plain http URL, our own
 * `/api/users/me` (absolute, protocol-relative, or reached through `..` from the uploads path),
 * a page path such as `/settings`, are 400 with the field named, and nothing is written.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TJsonResponse } from '../ops/servers';
import { call, expectOk, expectRefused, me, newPlayer, pngBytes, postsOf, security, targets, unique, uploadFile, type TPlayer } from './harness';

const EXTERNAL = 'https://images.example.org/cat.png';

describe.each(targets())('planted image URLs ($name)', (t) => {
  let p: TPlayer;
  let upload: { url: string; publicUrl: string };

  beforeAll(async () => {
    p = await newPlayer(t, 'images');
    upload = expectOk(await uploadFile(t, p.token, await pngBytes(), 'photo.png', 'image/png'), 201);
    expect(upload.url).toMatch(/^\/api\/uploads\//);
  });

  const ours = () => security().publicBaseUrl;
  /** URLs that would make a reader's browser call our API (or a page) with the reader's cookie. */
  const planted = () => [
    '/api/auth/onboard?username=planted&displayName=Planted',
    'http://images.example.org/cat.png',
    `${ours()}/api/users/me`,
    `${ours()}/api/auth/onboard?username=planted&displayName=Planted`,
    `${t.base}/api/users/me`,
    `//${new URL(ours()).host}/api/users/me`,
    '/api/users/me',
    '/api/uploads/../users/me',
    '/api/uploads/%2e%2e/auth/onboard?username=planted&displayName=Planted',
    '/settings',
    'javascript:alert(1)',
  ];

  const refusedNaming = (res: TJsonResponse, field: string) => {
    expectRefused(res, 400);
    expect(JSON.stringify(res.body.error), `the error names ${field}`).toContain(field);
  };

  it('refuses a post whose imageUrl points into our API, at a page, or over http (400 naming imageUrl) and writes no post', async () => {
    const author = await newPlayer(t, 'planter');
    for (const imageUrl of planted()) {
      const res = await call(t, '/api/posts', { token: author.token, body: { content: `look ${unique('i')}`, imageUrl } });
      refusedNaming(res, 'imageUrl');
    }
    expect(await postsOf(t, author.id)).toHaveLength(0);
  });

  it('accepts our own upload (relative or on our origin) and an https image on another origin', async () => {
    const author = await newPlayer(t, 'imager');
    for (const imageUrl of [upload.url, `${ours()}${upload.url}`, EXTERNAL]) {
      const res = await call(t, '/api/posts', { token: author.token, body: { content: `pic ${unique('i')}`, imageUrl } });
      expect(expectOk(res, 201).post.imageUrl).toBeTruthy();
    }
    expect(await postsOf(t, author.id)).toHaveLength(3);
  });

  it('refuses profileImageUrl /settings and cover or profile images into the API; the profile keeps its images', async () => {
    const attempts: [string, string][] = [
      ['profileImageUrl', '/settings'],
      ['coverImageUrl', '/api/auth/onboard?username=planted&displayName=Planted'],
      ['profileImageUrl', `${ours()}/api/users/me`],
    ];
    for (const [field, value] of attempts) {
      const res = await call(t, `/api/users/${p.id}/update-profile`, { token: p.token, body: { [field]: value } });
      refusedNaming(res, field);
    }
    const unchanged = await me(t, p.token);
    expect(unchanged.profileImageUrl).toBeNull();
    expect(unchanged.coverImageUrl).toBeNull();

    expectOk(await call(t, `/api/users/${p.id}/update-profile`, { token: p.token, body: { profileImageUrl: upload.url, coverImageUrl: EXTERNAL } }));
    const updated = await me(t, p.token);
    expect(updated.profileImageUrl).toContain(upload.url);
    expect(updated.coverImageUrl).toBe(EXTERNAL);
  });

  it("refuses signup's profileImageUrl into the API; the player stays not onboarded", async () => {
    const fresh = await newPlayer(t, 'signup');
    const res = await call(t, '/api/users/signup', {
      token: fresh.token,
      body: { username: unique('signup'), displayName: 'Signup', profileImageUrl: '/api/auth/onboard?username=planted&displayName=Planted' },
    });
    refusedNaming(res, 'profileImageUrl');
    const after = await me(t, fresh.token);
    expect(after.profileComplete).toBe(false);
    expect(after.profileImageUrl).toBeNull();
  });
});
