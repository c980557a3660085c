import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { POST as agentAuth } from '@/app/api/agents/auth/route';
import { POST as devSignIn } from '@/app/api/auth/dev-sign-in/route';
import { POST as sessionSignIn } from '@/app/api/auth/session/route';
import { POST as signOut } from '@/app/api/auth/sign-out/route';
import { GET as tickGet, POST as tickPost } from '@/app/api/cron/game-tick/route';
import { GET as health } from '@/app/api/health/route';
import { GET as openapi } from '@/app/api/openapi.json/route';
import { GET as getMe } from '@/app/api/users/me/route';
import { GET as listPredictions } from '@/app/api/markets/predictions/route';
import { dbKind, getDb } from '@/db/client';
import { actors, authSessions, markets, organizations, perpMarkets, pools, posts, users } from '@/db/schema';
import { seedWorld } from '@/lib/world/seed/world';
import { ACTORS, ORGANIZATIONS, POOLS, QUESTIONS, SEED_POSTS } from '@/lib/world/seed/world-data';
import { SESSION_COOKIE, SESSION_COOKIE_SECURE } from '@/lib/principals/principal';
import { SESSION_AUDIENCE, SESSION_ISSUER } from '@/lib/auth/jwt';
import { deleteExpiredSessions } from '@/lib/auth/sessions';
import { endpoints } from '@/lib/contracts';
import { env, resetEnvCache } from '@/lib/env';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { call, tokenForSubject } from '@/test/http';

beforeEach(() => setLimiter(createMemoryLimiter()));

/** A production environment that starts (every secret 32 bytes or more, no two alike). */
const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  AUTH_JWT_SECRET: 'prod-jwt-secret-0123456789abcdef0123456789',
  CRON_SECRET: 'prod-cron-secret-0123456789abcdef012345678',
  SESSION_SECRET: 'prod-session-secret-0123456789abcdef012345',
};

const withEnv = async (vars: Record<string, string>, fn: () => Promise<void>) => {
  const saved = { ...process.env };
  Object.assign(process.env, vars);
  resetEnvCache();
  try {
    await fn();
  } finally {
    process.env = saved;
    resetEnvCache();
  }
};

describe('GET /api/health', () => {
  it('names the database in use and the version', async () => {
    const res = await call(health, '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, db: dbKind(), version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(res.body.db).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
    // Small answers are marked so that Next's compression leaves them alone.
    expect(res.headers.get('cache-control')).toBe('no-store, no-transform');
  });
});

describe('GET /api/openapi.json', () => {
  it('documents every registered endpoint as OpenAPI 3.1', async () => {
    const res = await call(openapi, '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.headers.get('cache-control') ?? '').not.toContain('no-transform'); // large: compressed
    // The A2A JSON-RPC transport is in it too, marked as such (its 200 carries JSON-RPC errors).
    expect(res.body.paths['/api/a2a'].post['x-jsonrpc']).toBe(true);
    for (const e of endpoints.filter((x) => !x.hidden)) {
      const op = res.body.paths[e.path]?.[e.method.toLowerCase()];
      expect(op, `${e.method} ${e.path}`).toBeDefined();
      expect(op.operationId).toBe(e.id);
    }
    const update = res.body.paths['/api/users/{userId}/update-profile'].post;
    expect(update.requestBody.content['application/json'].schema.properties.displayName.maxLength).toBe(50);
    expect(update.responses['400'].description).toContain('USERNAME_TAKEN');
    // The SSE stream is documented as an event stream, its errors as JSON.
    const sse = res.body.paths['/api/sse/events'].get;
    expect(Object.keys(sse.responses['200'].content)).toEqual(['text/event-stream']);
    expect(Object.keys(sse.responses['401'].content)).toEqual(['application/json']);
  });
});

describe('POST /api/agents/auth', () => {
  it('exchanges AGENT_CREDENTIALS for a session token that acts as the agent user', async () =>
    withEnv({ AGENT_CREDENTIALS: 'alpha-bot:s3cret,beta:x' }, async () => {
      const res = await call(agentAuth, '/api/agents/auth', { method: 'POST', body: { agentId: 'alpha-bot', agentSecret: 's3cret' } });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(Date.parse(res.body.expiresAt)).toBeGreaterThan(Date.now());
      const me = await call(getMe, '/api/users/me', { token: res.body.sessionToken });
      expect(me.status).toBe(200);
      expect(me.body.user).toMatchObject({ isAgent: true, isActor: false, username: 'alphabot' });
      const again = await call(agentAuth, '/api/agents/auth', { method: 'POST', body: { agentId: 'alpha-bot', agentSecret: 's3cret' } });
      const me2 = await call(getMe, '/api/users/me', { token: again.body.sessionToken });
      expect(me2.body.user.id).toBe(me.body.user.id);
    }));

  it('401 for a wrong secret or unknown agent, 400 for a missing field', async () =>
    withEnv({ AGENT_CREDENTIALS: 'alpha-bot:s3cret' }, async () => {
      for (const body of [{ agentId: 'alpha-bot', agentSecret: 'wrong' }, { agentId: 'ghost', agentSecret: 's3cret' }]) {
        const res = await call(agentAuth, '/api/agents/auth', { method: 'POST', body });
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('UNAUTHORIZED');
      }
      const bad = await call(agentAuth, '/api/agents/auth', { method: 'POST', body: { agentId: 'alpha-bot' } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    }));
});

describe('GET|POST /api/cron/game-tick', () => {
  it('needs the scheduler secret', async () => {
    expect((await call(tickGet, '/api/cron/game-tick')).status).toBe(401);
    expect((await call(tickGet, '/api/cron/game-tick', { token: 'wrong' })).status).toBe(401);
    const user = await tokenForSubject('someone');
    expect((await call(tickGet, '/api/cron/game-tick', { token: user })).status).toBe(401);
    const ok = await call(tickGet, '/api/cron/game-tick', { token: env().cronSecret });
    expect(ok.status).toBe(200);
    expect(ok.body.success).toBe(true);
    const post = await call(tickPost, '/api/cron/game-tick', { method: 'POST', token: env().cronSecret, body: {} });
    expect(post.status).toBe(200);
  });
});

describe('web sessions', () => {
  const SAME_ORIGIN = { origin: 'http://localhost:3000' };
  /** The session token a Set-Cookie header carries for `name`, or undefined. */
  const cookieToken = (setCookie: string | null, name = SESSION_COOKIE) => setCookie?.match(new RegExp(`(?:^|[,;]\\s*)${name.replace(/[-_]/g, '\\$&')}=([^;]*)`))?.[1];
  const signIn = async (token: string) => {
    const res = await call(sessionSignIn, '/api/auth/session', { method: 'POST', body: { token }, headers: SAME_ORIGIN });
    return { res, session: cookieToken(res.headers.get('set-cookie')) };
  };
  const sessionRow = async (token: string) => {
    const db = await getDb();
    const [row] = await db.select().from(authSessions).where(eq(authSessions.id, String(decodeJwt(token).jti)));
    return row;
  };

  it('POST /api/auth/session exchanges a valid token for a session of ours in an HttpOnly SameSite=Lax cookie', async () => {
    const token = await tokenForSubject('idp|web', { preferred_username: 'webby' }, { expiresIn: '10m' });
    const { res, session } = await signIn(token);
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe('webby');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);
    // Outside production (plain-http development) the cookie is not Secure.
    expect(cookie).not.toMatch(/Secure/i);
    // The cookie holds our own session token, never the identity provider's.
    expect(session).toBeTruthy();
    expect(session).not.toBe(token);
    const claims = decodeJwt(session!);
    expect(claims).toMatchObject({ iss: SESSION_ISSUER, aud: SESSION_AUDIENCE, sub: 'idp|web', jti: expect.any(String) });
    // Its life is the provider token's (10 minutes here), never longer, and so is the cookie's.
    expect(claims.exp).toBe(decodeJwt(token).exp);
    const maxAge = Number(cookie.match(/Max-Age=(\d+)/i)?.[1]);
    expect(Math.abs(maxAge - (claims.exp! - Date.now() / 1000))).toBeLessThanOrEqual(2);
    expect(await sessionRow(session!)).toMatchObject({ kind: 'cookie', revokedAt: null, expiresAt: new Date(claims.exp! * 1000) });
    const me = await call(getMe, '/api/users/me', { cookie: `${SESSION_COOKIE}=${session}` });
    expect(me.body.user.username).toBe('webby');
    expect((await sessionRow(session!))!.userId).toBe(me.body.user.id);
    const bad = await call(sessionSignIn, '/api/auth/session', { method: 'POST', body: { token: 'garbage' }, headers: SAME_ORIGIN });
    expect(bad.status).toBe(401);
    // Our own session token is not a sign-in credential: it would renew itself for ever.
    const renew = await signIn(session!);
    expect(renew.res.status).toBe(401);
    expect(renew.session).toBeUndefined();
  });

  it('POST /api/auth/sign-out revokes the session: the copied token is refused as a bearer and reads as a visitor as a cookie', async () => {
    const token = await tokenForSubject('idp|leaver', { preferred_username: 'leaver' });
    const { session } = await signIn(token);
    const asCookie = { cookie: `${SESSION_COOKIE}=${session}` };
    expect((await call(getMe, '/api/users/me', { token: session })).status).toBe(200);
    expect((await call(getMe, '/api/users/me', asCookie)).status).toBe(200);
    const publicRead = await call(listPredictions, '/api/markets/predictions', asCookie);
    expect(publicRead.status).toBe(200);

    const out = await call(signOut, '/api/auth/sign-out', { method: 'POST', ...asCookie, headers: SAME_ORIGIN });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect(out.headers.get('set-cookie')).toMatch(new RegExp(`${SESSION_COOKIE}=;`));
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/i);
    expect((await sessionRow(session!))!.revokedAt).toBeInstanceOf(Date);

    // Refused everywhere, although this process verified the token's signature a moment ago.
    const bearer = await call(getMe, '/api/users/me', { token: session });
    expect(bearer.status).toBe(401);
    expect(bearer.body.error.code).toBe('UNAUTHORIZED');
    expect((await call(listPredictions, '/api/markets/predictions', { token: session })).status).toBe(401);
    expect((await call(getMe, '/api/users/me', asCookie)).status).toBe(401);
    // As a cookie on a public read: a visitor (the browser sends it by itself), not an error.
    const visitor = await call(listPredictions, '/api/markets/predictions', asCookie);
    expect(visitor.status).toBe(200);
    // Counted as the anonymous caller it now is.
    const anonymous = await call(listPredictions, '/api/markets/predictions');
    expect(visitor.headers.get('x-ratelimit-limit')).toBe(anonymous.headers.get('x-ratelimit-limit'));
    // A second sign-out with the dead cookie changes nothing and still clears it.
    const again = await call(signOut, '/api/auth/sign-out', { method: 'POST', ...asCookie, headers: SAME_ORIGIN });
    expect(again.status).toBe(200);
    // The identity provider's token is the provider's to end: it still works as a bearer.
    expect((await call(getMe, '/api/users/me', { token })).status).toBe(200);
  });

  it('a session revoked by another instance (its row) is refused at once, whatever this process remembers', async () => {
    const { session } = await signIn(await tokenForSubject('idp|elsewhere'));
    expect((await call(getMe, '/api/users/me', { token: session })).status).toBe(200);
    const db = await getDb();
    await db.update(authSessions).set({ revokedAt: new Date() }).where(eq(authSessions.id, String(decodeJwt(session!).jti)));
    expect((await call(getMe, '/api/users/me', { token: session })).status).toBe(401);
    // A token whose row was never written (or was pruned) is refused too.
    await db.delete(authSessions).where(eq(authSessions.id, String(decodeJwt(session!).jti)));
    expect((await call(getMe, '/api/users/me', { token: session })).status).toBe(401);
  });

  it('agent sessions carry jti, audience and exp, have a row, and end with sign-out', async () =>
    withEnv({ AGENT_CREDENTIALS: 'gamma-bot:s3cret' }, async () => {
      const res = await call(agentAuth, '/api/agents/auth', { method: 'POST', body: { agentId: 'gamma-bot', agentSecret: 's3cret' } });
      const token = res.body.sessionToken as string;
      const claims = decodeJwt(token);
      expect(claims).toMatchObject({ iss: SESSION_ISSUER, aud: SESSION_AUDIENCE, sub: 'agent:gamma-bot', agent: true, jti: expect.any(String) });
      expect(claims.exp! * 1000).toBe(Date.parse(res.body.expiresAt));
      expect(await sessionRow(token)).toMatchObject({ kind: 'agent', revokedAt: null });
      expect((await call(getMe, '/api/users/me', { token })).status).toBe(200);
      expect((await call(signOut, '/api/auth/sign-out', { method: 'POST', token })).status).toBe(200);
      expect((await call(getMe, '/api/users/me', { token })).status).toBe(401);
    }));

  it('in production the cookie is __Host-pm_session, Secure, and lives as long as its token', async () => {
    await withEnv(PRODUCTION_ENV, async () => {
      const token = await tokenForSubject('idp|prod-web', { preferred_username: 'prodweb' }, { expiresIn: '30m' });
      const res = await call(sessionSignIn, '/api/auth/session', { method: 'POST', body: { token }, headers: SAME_ORIGIN });
      expect(res.status).toBe(200);
      const cookie = res.headers.get('set-cookie')!;
      expect(cookie.startsWith(`${SESSION_COOKIE_SECURE}=`)).toBe(true);
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=lax/i);
      expect(cookie).toMatch(/Path=\/(;|$)/);
      expect(cookie).not.toMatch(/Domain=/i);
      const session = cookieToken(cookie, SESSION_COOKIE_SECURE)!;
      const { exp } = decodeJwt(session);
      const maxAge = Number(cookie.match(/Max-Age=(\d+)/i)?.[1]);
      expect(Math.abs(maxAge - (exp! - Date.now() / 1000))).toBeLessThanOrEqual(2);
      expect(maxAge).toBeGreaterThan(29 * 60);
      expect(maxAge).toBeLessThanOrEqual(30 * 60);
      // Production reads its own name only.
      expect((await call(getMe, '/api/users/me', { cookie: `${SESSION_COOKIE_SECURE}=${session}` })).status).toBe(200);
      expect((await call(getMe, '/api/users/me', { cookie: `${SESSION_COOKIE}=${session}` })).status).toBe(401);
      const out = await call(signOut, '/api/auth/sign-out', { method: 'POST', cookie: `${SESSION_COOKIE_SECURE}=${session}`, headers: SAME_ORIGIN });
      const cleared = out.headers.get('set-cookie')!;
      expect(cleared.startsWith(`${SESSION_COOKIE_SECURE}=;`)).toBe(true);
      expect(cleared).toMatch(/;\s*Secure/i);
      expect((await call(getMe, '/api/users/me', { cookie: `${SESSION_COOKIE_SECURE}=${session}` })).status).toBe(401);
    });
  });

  it('POST /api/auth/dev-sign-in opens a session for a username outside production only', async () => {
    const res = await call(devSignIn, '/api/auth/dev-sign-in', { method: 'POST', body: { username: 'devuser' }, headers: SAME_ORIGIN });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe('devuser');
    expect(decodeJwt(res.body.token)).toMatchObject({ iss: SESSION_ISSUER, aud: SESSION_AUDIENCE, sub: 'dev:devuser' });
    expect(cookieToken(res.headers.get('set-cookie'))).toBe(res.body.token);
    expect(await sessionRow(res.body.token)).toMatchObject({ kind: 'cookie', userId: res.body.user.id });
    const again = await call(devSignIn, '/api/auth/dev-sign-in', { method: 'POST', body: { username: 'DevUser' }, headers: SAME_ORIGIN });
    expect(again.body.user.id).toBe(res.body.user.id);
    await withEnv(PRODUCTION_ENV, async () => {
      const prod = await call(devSignIn, '/api/auth/dev-sign-in', { method: 'POST', body: { username: 'devuser' }, headers: SAME_ORIGIN });
      expect(prod.status).toBe(404);
    });
  });

  it('POST /api/auth/sign-out clears the cookie of a visitor', async () => {
    const res = await call(signOut, '/api/auth/sign-out', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`${SESSION_COOKIE}=;`));
  });

  it('deleteExpiredSessions (a tick step) prunes sessions past their expiry and keeps the others', async () => {
    const { session } = await signIn(await tokenForSubject('idp|pruned'));
    const row = (await sessionRow(session!))!;
    const db = await getDb();
    const expiredId = `expired-${row.id}`;
    await db.insert(authSessions).values({ id: expiredId, userId: row.userId, kind: 'cookie', createdAt: new Date(Date.now() - 3_600_000), expiresAt: new Date(Date.now() - 1000) });
    expect(await deleteExpiredSessions(new Date())).toBeGreaterThanOrEqual(1);
    expect(await db.$count(authSessions, eq(authSessions.id, expiredId))).toBe(0);
    expect(await sessionRow(session!)).toBeTruthy();
  });
});

describe('world seed', () => {
  it('creates organizations, tiered actors with balances, questions and pools, and is idempotent', async () => {
    const db = await getDb();
    const first = await seedWorld(db);
    const second = await seedWorld(db);
    expect(first.newActors).toBe(ACTORS.length);
    expect(second.newActors).toBe(0);
    expect(await db.$count(organizations)).toBe(ORGANIZATIONS.length);
    expect(await db.$count(actors)).toBe(ACTORS.length);
    expect(await db.$count(markets)).toBe(QUESTIONS.length);
    expect(await db.$count(pools)).toBe(POOLS.length);
    expect(await db.$count(posts)).toBe(SEED_POSTS.length);
    expect(await db.$count(perpMarkets)).toBe(ORGANIZATIONS.length);
    const tiers = new Set((await db.select({ tier: actors.tier }).from(actors)).map((a) => a.tier));
    expect([...tiers].sort()).toEqual(['A', 'B', 'C', 'S']);
    const [actor] = await db.select().from(users).where(eq(users.isActor, true)).limit(1);
    expect(actor!.virtualBalance).toBe('10000.00000000');
    for (const m of await db.select().from(markets)) {
      expect(Number(m.yesShares)).toBeGreaterThan(0);
      expect(Number(m.noShares)).toBeGreaterThan(0);
      expect(m.status).toBe('active');
    }
  });
});
