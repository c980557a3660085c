/**
 * No image points back into the service (issue 29, README "No image points back into the service"):
 * through the real handlers, a post's imageUrl, a profile's profileImageUrl and coverImageUrl, and
 * the onboarding forms refuse any path of this service but its uploads and bundled images (the
 * demonstrated attack: an image that onboards every reader), 400 with a field error and nothing
 * written; uploads, bundled images and https images elsewhere are taken. Migration 0018 clears
 * stored rows by the same rule: its SQL predicate is run here against the service's own check.
 */
import fs from 'node:fs';
import path from 'node:path';
import { count, eq, like, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as onboardGet, POST as onboardPost } from '@/app/api/auth/onboard/route';
import { POST as createPostRoute } from '@/app/api/posts/route';
import { POST as updateProfileRoute } from '@/app/api/users/[userId]/update-profile/route';
import { POST as signupRoute } from '@/app/api/users/signup/route';
import { getDb, rowsOf } from '@/db/client';
import { posts, users, type TUserRow } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { resetEnvCache } from '@/lib/env';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { isAllowedImageUrl } from '@/lib/uploads/image-url';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';

beforeAll(async () => {
  await seedWorld(await getDb());
});
beforeEach(() => setLimiter(createMemoryLimiter()));

const ATTACKS = ['/api/auth/onboard?username=x&displayName=y', 'https://localhost:3000/api/users/me', 'http://localhost:3000/api/auth/onboard?username=x&displayName=y', '/settings', '//localhost:3000/api/users/me'];
const ACCEPTED = ['/api/uploads/0b6f3c2e-1d2a-4b5c-9e8f-123456789abc.png', 'http://localhost:3000/api/uploads/abc.webp', 'https://cdn.example.com/cat.png?w=200', '/avatars/2.svg', '/game-assets/actors/ada_vance.svg'];

const createPost = async (u: TUserRow, imageUrl: unknown) =>
  call(createPostRoute, '/api/posts', { method: 'POST', token: await tokenFor(u), body: { content: 'look at this', imageUrl } });
const postsBy = async (userId: string) => Number((await (await getDb()).select({ n: count() }).from(posts).where(eq(posts.authorId, userId)))[0]!.n);
const updateProfile = async (u: TUserRow, body: Record<string, unknown>) =>
  call(updateProfileRoute, `/api/users/${u.id}/update-profile`, { method: 'POST', token: await tokenFor(u), params: { userId: u.id }, body });
const userRow = async (id: string) => (await (await getDb()).select().from(users).where(eq(users.id, id)))[0]!;

const expectFieldError = (res: { status: number; body: any }, field: string) => {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).toContain(field);
};

describe("a post's imageUrl", () => {
  it('refuses the planted request (a path of this service) with a field error, and writes nothing', async () => {
    const u = await seedUser();
    for (const imageUrl of ATTACKS) {
      const res = await createPost(u, imageUrl);
      expect(res.status, imageUrl).toBe(400);
      expectFieldError(res, 'imageUrl');
    }
    expectFieldError(await createPost(u, 'http://cdn.example.com/cat.png'), 'imageUrl');
    expectFieldError(await createPost(u, 'javascript:alert(1)'), 'imageUrl');
    expect(await postsBy(u.id)).toBe(0);
  });

  it('takes uploads, bundled images and https images elsewhere, and no image at all', async () => {
    const u = await seedUser();
    for (const imageUrl of ACCEPTED) {
      const res = await createPost(u, imageUrl);
      expect(res.status, imageUrl).toBe(201);
      expect(res.body.post.imageUrl).toBe(imageUrl);
    }
    expect((await createPost(u, null)).body.post.imageUrl).toBeNull();
    expect((await createPost(u, '')).body.post.imageUrl).toBeNull();
    expect(await postsBy(u.id)).toBe(ACCEPTED.length + 2);
  });

  describe('with PUBLIC_BASE_URL, the service knows its own origin', () => {
    beforeEach(() => {
      process.env.PUBLIC_BASE_URL = 'https://play.example';
      resetEnvCache();
    });
    afterEach(() => {
      delete process.env.PUBLIC_BASE_URL;
      resetEnvCache();
    });

    it('refuses any other path there, pages included, and takes any https image on another origin', async () => {
      const u = await seedUser();
      for (const imageUrl of ['https://play.example/settings', 'https://PLAY.example:443/api/users/me', 'http://play.example/markets']) {
        expectFieldError(await createPost(u, imageUrl), 'imageUrl');
      }
      expect(await postsBy(u.id)).toBe(0);
      expect((await createPost(u, 'https://play.example/api/uploads/abc.png')).status).toBe(201);
      expect((await createPost(u, 'https://ui-avatars.com/api/?name=x')).status).toBe(201);
    });
  });
});

describe('profile images', () => {
  it('update-profile refuses a path of this service for profileImageUrl and coverImageUrl and keeps the profile', async () => {
    const u = await seedUser();
    expect((await updateProfile(u, { profileImageUrl: '/avatars/1.svg', coverImageUrl: 'https://cdn.example.com/cover.jpg' })).status).toBe(200);
    const before = await userRow(u.id);
    expectFieldError(await updateProfile(u, { displayName: 'Changed', profileImageUrl: '/api/auth/onboard?username=x&displayName=y' }), 'profileImageUrl');
    expectFieldError(await updateProfile(u, { coverImageUrl: 'https://localhost:3000/api/users/me' }), 'coverImageUrl');
    expectFieldError(await updateProfile(u, { profileImageUrl: 'http://cdn.example.com/a.png' }), 'profileImageUrl');
    const after = await userRow(u.id);
    expect([after.displayName, after.profileImageUrl, after.coverImageUrl]).toEqual([before.displayName, '/avatars/1.svg', 'https://cdn.example.com/cover.jpg']);
  });

  it('update-profile takes an upload, relative or absolute, and clears with null', async () => {
    const u = await seedUser();
    const res = await updateProfile(u, { profileImageUrl: '/api/uploads/abc.png', coverImageUrl: 'http://localhost:3000/api/uploads/def.webp' });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ profileImageUrl: '/api/uploads/abc.png', coverImageUrl: 'http://localhost:3000/api/uploads/def.webp' });
    expect((await updateProfile(u, { coverImageUrl: null })).body.user.coverImageUrl).toBeNull();
  });

  it('signup and onboarding refuse it too, and onboard nobody', async () => {
    const u = await seedUser();
    const token = await tokenFor(u);
    const body = { username: `img${Date.now().toString(36).slice(-6)}`, displayName: 'Img', profileImageUrl: '/api/users/me' };
    expectFieldError(await call(signupRoute, '/api/users/signup', { method: 'POST', token, body }), 'profileImageUrl');
    expectFieldError(await call(onboardPost, '/api/auth/onboard', { method: 'POST', token, body }), 'profileImageUrl');
    // The legacy GET reads it from the query: an invalid parameter.
    const legacy = await call(onboardGet, '/api/auth/onboard', { token, query: body });
    expect(legacy.status).toBe(400);
    expect(legacy.body.error.details.issues.map((i: { path: string }) => i.path)).toContain('profileImageUrl');
    const after = await userRow(u.id);
    expect([after.profileComplete, after.username, after.profileImageUrl]).toEqual([false, u.username, null]);
  });
});

// The migration's predicate.

const MIGRATION = fs.readFileSync(path.join(process.cwd(), 'db', 'migrations', '0018_chat_invites_images.sql'), 'utf8');
const updates = MIGRATION.split('--> statement-breakpoint')
  .map((s) => s.replace(/^--.*$/gm, '').trim())
  .filter((s) => s.startsWith('UPDATE'));

/** Every kind of value the rule tells apart, accepted and refused. */
const SAMPLES = [
  ...ACCEPTED,
  ...ATTACKS,
  '',
  '/api/uploads/abc_def',
  '/game-assets/organizations/HELX.svg',
  'https://images.example.org:8443/a/b/c.jpg#top',
  'https://example.com/apiary/bee.png',
  'https://example.com',
  'https://example.com/My%20Photo.jpg',
  '/api/users/me',
  '/api/uploads/../users/me',
  '/api/uploads/a.png?x=1',
  '/api/uploads/%2e%2e%2fusers',
  '/api/uploads/.hidden',
  '/avatars/1.svg/../../api/users/me',
  '/game-assets/x.svg',
  '/uploads/a.png',
  'cat.png',
  ' /avatars/1.svg',
  'javascript:alert(1)',
  'data:image/png;base64,AAAA',
  'HTTPS://cdn.example.com/cat.png',
  'https://user:pass@cdn.example.com/cat.png',
  'https://cdn.example.com@evil.example/cat.png',
  'https://cdn.example.com/cat png.png',
  'https://cdn.example.com\\@evil.example/x.png',
  'https://[::1]/x.png',
  'https://cdn.example.com/ünicode.png',
  'https://cdn.example.com/a/../b.png',
  'https://cdn.example.com/a/./b.png',
  'https://cdn.example.com/a%2fb.png',
  'https://cdn.example.com/a%5Cb.png',
  'https://play.example/API/users/me',
  'https://play.example/%61pi/users/me',
  'https://play.example//api/users/me',
  'https://play.example/api',
  'https://play.example/api?x=1',
  'https://play.example/api/uploads/abc.png?x=1',
  'https://ui-avatars.com/api/?name=x',
  'ftp://cdn.example.com/x.png',
  `https://cdn.example.com/${'a'.repeat(2100)}.png`,
];

describe('migration 0018 clears stored image URLs by the same rule', () => {
  it('has one UPDATE per image column', () => {
    expect(updates.map((s) => /^UPDATE "(\w+)" SET "(\w+)"/.exec(s)!.slice(1).join('.'))).toEqual(['posts.image_url', 'users.profile_image_url', 'users.cover_image_url']);
  });

  it('its predicate clears exactly what the service refuses (as without PUBLIC_BASE_URL)', async () => {
    expect(SAMPLES.filter((v) => isAllowedImageUrl(v, null)).length).toBeGreaterThan(10);
    expect(SAMPLES.filter((v) => !isAllowedImageUrl(v, null)).length).toBeGreaterThan(20);
    for (const statement of updates) {
      const column = /^UPDATE "\w+" SET "(\w+)"/.exec(statement)![1]!;
      const predicate = statement.slice(statement.indexOf(' WHERE ') + 7).replace(/;$/, '').replaceAll(`"${column}"`, 't.v');
      const rows = rowsOf<{ v: string; cleared: boolean | null }>(
        await (await getDb()).execute(sql`
          select t.v, (${sql.raw(predicate)}) as cleared
          from unnest(array[${sql.join(
            SAMPLES.map((v) => sql`${v}`),
            sql`, `,
          )}]::text[]) with ordinality as t(v, i)
          order by t.i`),
      );
      expect(rows.map((r) => [r.v, !!r.cleared])).toEqual(SAMPLES.map((v) => [v, !isAllowedImageUrl(v, null)]));
    }
  });

  it('run on stored rows, it clears the planted ones and keeps the rest, the world’s avatars included', async () => {
    const db = await getDb();
    const author = await seedUser();
    const at = now();
    const planted = await db
      .insert(posts)
      .values([
        { authorId: author.id, type: 'post', content: 'planted', imageUrl: '/api/auth/onboard?username=x&displayName=y', createdAt: at, updatedAt: at },
        { authorId: author.id, type: 'post', content: 'fine', imageUrl: 'https://cdn.example.com/cat.png', createdAt: at, updatedAt: at },
        { authorId: author.id, type: 'post', content: 'none', imageUrl: null, createdAt: at, updatedAt: at },
      ])
      .returning({ id: posts.id });
    const bad = await seedUser();
    const good = await seedUser();
    await db.update(users).set({ profileImageUrl: 'https://localhost:3000/api/users/me', coverImageUrl: '/settings' }).where(eq(users.id, bad.id));
    await db.update(users).set({ profileImageUrl: '/avatars/4.svg', coverImageUrl: '/api/uploads/cover.png' }).where(eq(users.id, good.id));
    const worldAvatars = async () => Number((await db.select({ n: count() }).from(users).where(like(users.profileImageUrl, '/game-assets/actors/%')))[0]!.n);
    const avatarsBefore = await worldAvatars();
    expect(avatarsBefore).toBeGreaterThan(0);

    for (const statement of updates) await db.execute(sql.raw(statement));

    const images = await db.select({ id: posts.id, imageUrl: posts.imageUrl }).from(posts).where(eq(posts.authorId, author.id));
    const byId = new Map(images.map((p) => [p.id, p.imageUrl]));
    expect(planted.map((p) => byId.get(p.id))).toEqual([null, 'https://cdn.example.com/cat.png', null]);
    expect([(await userRow(bad.id)).profileImageUrl, (await userRow(bad.id)).coverImageUrl]).toEqual([null, null]);
    expect([(await userRow(good.id)).profileImageUrl, (await userRow(good.id)).coverImageUrl]).toEqual(['/avatars/4.svg', '/api/uploads/cover.png']);
    expect(await worldAvatars()).toBe(avatarsBefore);
  });
});
