import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GET as getBalance } from '@/app/api/users/[userId]/balance/route';
import { GET as getIsNew } from '@/app/api/users/[userId]/is-new/route';
import { GET as getProfile } from '@/app/api/users/[userId]/profile/route';
import { GET as getStats } from '@/app/api/users/[userId]/stats/route';
import { POST as updateProfile } from '@/app/api/users/[userId]/update-profile/route';
import { GET as getByUsername } from '@/app/api/users/by-username/[username]/route';
import { GET as getMe } from '@/app/api/users/me/route';
import { GET as searchUsers } from '@/app/api/users/search/route';
import { GET as checkUsername } from '@/app/api/onboarding/check-username/route';
import { GET as generateProfile } from '@/app/api/onboarding/generate-profile/route';
import { getDb } from '@/db/client';
import { balanceTransactions, users } from '@/db/schema';
import { seedUser } from '@/test/factories';
import { seedWorld } from '@/lib/world/seed/world';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { resetEnvCache } from '@/lib/env';
import { setLimiter } from '@/lib/operations/rate-limit';
import { call, pinnedLimiter, tokenFor, tokenForSubject } from '@/test/http';

beforeEach(() => setLimiter(pinnedLimiter()));
afterEach(() => resetClock());

const ledgerRows = async (userId: string) =>
  (await getDb()).select().from(balanceTransactions).where(eq(balanceTransactions.userId, userId));

describe('GET /api/users/me', () => {
  it('401 UNAUTHORIZED without a token', async () => {
    const res = await call(getMe, '/api/users/me');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Missing or invalid token' } });
  });

  it('creates the user on first sight with STARTING_BALANCE as a deposit, once', async () => {
    const token = await tokenForSubject('idp|first-sight', { email: 'first@example.com', preferred_username: 'firstsight' });
    const first = await call(getMe, '/api/users/me', { token });
    expect(first.status).toBe(200);
    const u = first.body.user;
    expect(u).toMatchObject({
      username: 'firstsight',
      virtualBalance: '1000',
      profileComplete: false,
      isActor: false,
      email: 'first@example.com',
      lifetimePnL: 0,
      reputationPoints: 0,
    });
    expect(u.referralCode).toMatch(/^[A-Z2-9]{8}$/);
    expect(u.stats).toMatchObject({ followersCount: 0, tradesCount: 0, winRate: 0, referralCount: 0 });
    const again = await call(getMe, '/api/users/me', { token });
    expect(again.body.user.id).toBe(u.id);
    const rows = await ledgerRows(u.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'deposit', amount: '1000.00000000', balanceBefore: '0.00000000', balanceAfter: '1000.00000000' });
  });

  it('gives concurrent first requests one user and one deposit', async () => {
    const token = await tokenForSubject('idp|racer');
    const results = await Promise.all(Array.from({ length: 8 }, () => call(getMe, '/api/users/me', { token })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const ids = new Set(results.map((r) => r.body.user.id));
    expect(ids.size).toBe(1);
    expect(await ledgerRows([...ids][0] as string)).toHaveLength(1);
  });

  it('generates a unique username when the wished one is taken', async () => {
    await seedUser({ username: 'popular' });
    const res = await call(getMe, '/api/users/me', { token: await tokenForSubject('idp|p2', { preferred_username: 'Popular' }) });
    expect(res.body.user.username).not.toBe('popular');
    expect(res.body.user.username).toMatch(/^Popular\d{4}$/);
  });

  it('honours STARTING_BALANCE', async () => {
    process.env.STARTING_BALANCE = '250.75';
    resetEnvCache();
    try {
      const res = await call(getMe, '/api/users/me', { token: await tokenForSubject('idp|rich') });
      expect(res.body.user.virtualBalance).toBe('250.75');
    } finally {
      delete process.env.STARTING_BALANCE;
      resetEnvCache();
    }
  });
});

describe('GET /api/users/{userId}/profile and /api/users/by-username/{username}', () => {
  it('finds a user by id, username (any case) or wallet address, without a token', async () => {
    const u = await seedUser({ username: 'profiled', displayName: 'Pro Filed' });
    await (await getDb()).update(users).set({ walletAddress: '0xAbC123' }).where(eq(users.id, u.id));
    for (const ident of [u.id, 'PROFILED', '0xabc123']) {
      const res = await call(getProfile, `/api/users/${ident}/profile`, { params: { userId: ident } });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: u.id, username: 'profiled', displayName: 'Pro Filed', virtualBalance: '1000' });
      // Private fields are for the user themself only.
      expect(res.body.user.email).toBeUndefined();
      expect(res.body.user.referralCode).toBeUndefined();
    }
    const byName = await call(getByUsername, '/api/users/by-username/Profiled', { params: { username: 'Profiled' } });
    expect(byName.body.user.id).toBe(u.id);
  });

  it('shows private fields to the owner', async () => {
    const u = await seedUser();
    const res = await call(getProfile, `/api/users/${u.id}/profile`, { params: { userId: u.id }, token: await tokenFor(u) });
    expect(res.body.user.referralCode).toBe(u.referralCode);
  });

  it('404 USER_NOT_FOUND for an unknown user', async () => {
    const res = await call(getProfile, '/api/users/nobody/profile', { params: { userId: 'nobody' } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('USER_NOT_FOUND');
    const byName = await call(getByUsername, '/api/users/by-username/nobody', { params: { username: 'nobody' } });
    expect(byName.status).toBe(404);
  });

  it('limits profile reads to 100 per minute', async () => {
    const u = await seedUser();
    let last;
    for (let i = 0; i < 101; i++) last = await call(getProfile, `/api/users/${u.id}/profile`, { params: { userId: u.id }, ip: '192.0.2.55' });
    expect(last!.status).toBe(429);
    expect(last!.headers.get('x-ratelimit-limit')).toBe('100');
  });
});

describe('POST /api/users/{userId}/update-profile', () => {
  const update = async (user: { id: string }, token: string, body: unknown, userId = user.id) =>
    call(updateProfile, `/api/users/${userId}/update-profile`, { method: 'POST', token, params: { userId }, body });

  it('updates display name, bio, image and username and completes the profile', async () => {
    const u = await seedUser();
    const res = await update(u, await tokenFor(u), {
      displayName: 'New Name',
      bio: 'Hello there',
      username: 'fresh_name',
      profileImageUrl: '/avatars/3.svg',
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      id: u.id,
      username: 'fresh_name',
      displayName: 'New Name',
      bio: 'Hello there',
      profileImageUrl: '/avatars/3.svg',
      profileComplete: true,
    });
    expect(Date.parse(res.body.user.updatedAt)).toBeGreaterThan(0);
  });

  it('403 FORBIDDEN for another user, 401 without a token', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const res = await update(b, await tokenFor(a), { displayName: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    const anon = await call(updateProfile, `/api/users/${a.id}/update-profile`, { method: 'POST', params: { userId: a.id }, body: {} });
    expect(anon.status).toBe(401);
  });

  it('400 VALIDATION_ERROR for a display name over 50, a bio over 500, a malformed username or image URL', async () => {
    const u = await seedUser();
    const token = await tokenFor(u);
    for (const body of [
      { displayName: 'x'.repeat(51) },
      { bio: 'x'.repeat(501) },
      { username: 'no spaces allowed' },
      { username: 'ab' },
      { profileImageUrl: 'javascript:alert(1)' },
    ]) {
      const res = await update(u, token, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.issues.length).toBeGreaterThan(0);
    }
    setLimiter(pinnedLimiter()); // five refusals used up the 5-per-minute budget
    expect((await update(u, token, { displayName: 'x'.repeat(50), bio: 'y'.repeat(500) })).status).toBe(200);
  });

  it('400 USERNAME_TAKEN for a username in use, ignoring case', async () => {
    await seedUser({ username: 'TakenName' });
    const u = await seedUser();
    const res = await update(u, await tokenFor(u), { username: 'takenname' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('USERNAME_TAKEN');
  });

  it('allows one username change per 30 days', async () => {
    const u = await seedUser();
    const token = await tokenFor(u);
    setFixedTime(new Date('2030-01-01T00:00:00Z'));
    expect((await update(u, token, { username: 'first_choice' })).status).toBe(200);
    setFixedTime(new Date('2030-01-20T00:00:00Z'));
    const tooSoon = await update(u, token, { username: 'second_choice' });
    expect(tooSoon.status).toBe(400);
    expect(tooSoon.body.error.code).toBe('USERNAME_CHANGE_TOO_SOON');
    expect(tooSoon.body.error.details.nextChangeAllowedAt).toBe('2030-01-31T00:00:00.000Z');
    // Sending the current username again is not a change, nor is changing only its capitals.
    expect((await update(u, token, { username: 'first_choice', bio: 'same name' })).status).toBe(200);
    const recased = await update(u, token, { username: 'First_Choice' });
    expect(recased.status).toBe(200);
    expect(recased.body.user.username).toBe('First_Choice');
    expect(recased.body.user.usernameChangedAt).toBe('2030-01-01T00:00:00.000Z');
    setFixedTime(new Date('2030-01-31T00:00:01Z'));
    const later = await update(u, token, { username: 'second_choice' });
    expect(later.status).toBe(200);
    expect(later.body.user.username).toBe('second_choice');
  });

  it('limits profile updates to 5 per minute', async () => {
    const u = await seedUser();
    const token = await tokenFor(u);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await update(u, token, { bio: `bio ${i}` })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('GET /api/users/{userId}/balance', () => {
  it('gives the owner balance, totals and transactions, newest first', async () => {
    const u = await seedUser({ balance: '500' });
    const res = await call(getBalance, `/api/users/${u.id}/balance`, { params: { userId: u.id }, token: await tokenFor(u) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, balance: '500', totalDeposited: '500', totalWithdrawn: '0', lifetimePnL: '0' });
    expect(res.body.transactions).toHaveLength(1);
    expect(res.body.transactions[0]).toMatchObject({ type: 'deposit', amount: '500', balanceBefore: '0', balanceAfter: '500' });
    expect(res.body.transactions[0].timestamp).toBe(res.body.transactions[0].createdAt);
  });

  it('403 for another user, readable by an admin, 404 for an admin asking about nobody', async () => {
    const owner = await seedUser();
    const other = await seedUser();
    const admin = await seedUser({ isAdmin: true });
    const params = { userId: owner.id };
    expect((await call(getBalance, `/api/users/${owner.id}/balance`, { params, token: await tokenFor(other) })).status).toBe(403);
    expect((await call(getBalance, `/api/users/${owner.id}/balance`, { params, token: await tokenFor(admin) })).status).toBe(200);
    const missing = await call(getBalance, '/api/users/nobody/balance', { params: { userId: 'nobody' }, token: await tokenFor(admin) });
    expect(missing.status).toBe(404);
    expect((await call(getBalance, `/api/users/${owner.id}/balance`, { params })).status).toBe(401);
  });

  it('pages transactions with limit and offset, and rejects a bad limit', async () => {
    const u = await seedUser({ balance: '10' });
    const token = await tokenFor(u);
    const res = await call(getBalance, `/api/users/${u.id}/balance`, { params: { userId: u.id }, token, query: { limit: 1, offset: 1 } });
    expect(res.body.transactions).toHaveLength(0);
    const bad = await call(getBalance, `/api/users/${u.id}/balance`, { params: { userId: u.id }, token, query: { limit: 'many' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_PARAMETER');
  });
});

describe('GET /api/users/{userId}/stats', () => {
  it('answers the stats keys for anyone, 404 for nobody', async () => {
    const u = await seedUser();
    const res = await call(getStats, `/api/users/${u.id}/stats`, { params: { userId: u.id } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.stats).sort()).toEqual(
      ['comments', 'followers', 'followersCount', 'following', 'followingCount', 'lifetimePnL', 'positions', 'posts', 'postsCount', 'reactions', 'referralCount', 'reputationPoints', 'totalTrades', 'tradesCount', 'winRate'].sort(),
    );
    expect((await call(getStats, '/api/users/nobody/stats', { params: { userId: 'nobody' } })).status).toBe(404);
  });
});

describe('GET /api/users/search', () => {
  it('finds users and actors by username or display name, filtered by type', async () => {
    await seedWorld(await getDb());
    const me = await seedUser({ username: 'searcher', displayName: 'Ada Fan' });
    const token = await tokenFor(me);
    const all = await call(searchUsers, '/api/users/search', { token, query: { q: 'ada' } });
    expect(all.status).toBe(200);
    expect(all.body.users.map((u: { username: string }) => u.username)).toEqual(expect.arrayContaining(['ada_vance', 'searcher']));
    expect(all.body.count).toBe(all.body.users.length);
    expect(Object.keys(all.body.users[0]).sort()).toEqual(['displayName', 'id', 'isActor', 'profileImageUrl', 'reputationPoints', 'username']);
    const actors = await call(searchUsers, '/api/users/search', { token, query: { q: 'ada', type: 'actor' } });
    expect(actors.body.users.every((u: { isActor: boolean }) => u.isActor)).toBe(true);
    const players = await call(searchUsers, '/api/users/search', { token, query: { q: 'ada', type: 'user' } });
    expect(players.body.users.map((u: { username: string }) => u.username)).toEqual(['searcher']);
    const limited = await call(searchUsers, '/api/users/search', { token, query: { q: '', limit: 2 } });
    expect(limited.body.users).toHaveLength(2);
  });

  it('treats % and _ literally, rejects a bad type, needs a token', async () => {
    const me = await seedUser();
    const token = await tokenFor(me);
    const pct = await call(searchUsers, '/api/users/search', { token, query: { q: '%' } });
    expect(pct.body.users).toHaveLength(0);
    expect((await call(searchUsers, '/api/users/search', { token, query: { type: 'robot' } })).status).toBe(400);
    expect((await call(searchUsers, '/api/users/search', { query: { q: 'a' } })).status).toBe(401);
  });
});

describe('GET /api/users/{userId}/is-new', () => {
  it('is true until the profile is set up, and only for oneself', async () => {
    const u = await seedUser();
    const token = await tokenFor(u);
    const before = await call(getIsNew, `/api/users/${u.id}/is-new`, { params: { userId: u.id }, token });
    expect(before.body).toMatchObject({ success: true, isNew: true, needsSetup: true });
    await call(updateProfile, `/api/users/${u.id}/update-profile`, { method: 'POST', token, params: { userId: u.id }, body: { displayName: 'Set Up' } });
    const after = await call(getIsNew, `/api/users/${u.id}/is-new`, { params: { userId: u.id }, token });
    expect(after.body).toMatchObject({ isNew: false, needsSetup: false, profileComplete: true });
    const other = await seedUser();
    expect((await call(getIsNew, `/api/users/${other.id}/is-new`, { params: { userId: other.id }, token })).status).toBe(403);
  });
});

describe('GET /api/onboarding/check-username and /generate-profile', () => {
  it('says whether a username is free and valid', async () => {
    await seedUser({ username: 'occupied' });
    const free = await call(checkUsername, '/api/onboarding/check-username', { query: { username: 'vacant_one' } });
    expect(free.body).toEqual({ success: true, available: true });
    const taken = await call(checkUsername, '/api/onboarding/check-username', { query: { username: 'OCCUPIED' } });
    expect(taken.body).toMatchObject({ success: true, available: false });
    const invalid = await call(checkUsername, '/api/onboarding/check-username', { query: { username: 'x y' } });
    expect(invalid.body.available).toBe(false);
    const missing = await call(checkUsername, '/api/onboarding/check-username');
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('INVALID_PARAMETER');
  });

  it('suggests a free username, display name, bio and avatar to a signed-in user', async () => {
    const u = await seedUser();
    const res = await call(generateProfile, '/api/onboarding/generate-profile', { token: await tokenFor(u) });
    expect(res.status).toBe(200);
    expect(res.body.username).toMatch(/^[A-Za-z0-9_]{3,20}$/);
    expect(res.body.displayName.length).toBeGreaterThan(0);
    expect(res.body.bio.length).toBeGreaterThan(0);
    expect(res.body.profileImageUrl).toMatch(/^\/avatars\/\d\.svg$/);
    expect((await call(generateProfile, '/api/onboarding/generate-profile')).status).toBe(401);
  });
});
