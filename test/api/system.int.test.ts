import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { POST as agentAuth } from '@/app/api/agents/auth/route';
import { POST as devSignIn } from '@/app/api/auth/dev-sign-in/route';
import { POST as sessionSignIn } from '@/app/api/auth/session/route';
import { POST as signOut } from '@/app/api/auth/sign-out/route';
import { GET as tickGet, POST as tickPost } from '@/app/api/cron/game-tick/route';
import { GET as health } from '@/app/api/health/route';
import { GET as openapi } from '@/app/api/openapi.json/route';
import { GET as getMe } from '@/app/api/users/me/route';
import { dbKind, getDb } from '@/db/client';
import { actors, markets, organizations, perpMarkets, pools, posts, users } from '@/db/schema';
import { seedWorld } from '@/lib/world/seed/world';
import { ACTORS, ORGANIZATIONS, POOLS, QUESTIONS, SEED_POSTS } from '@/lib/world/seed/world-data';
import { SESSION_COOKIE } from '@/lib/auth/principal';
import { endpoints } from '@/lib/contracts';
import { env, resetEnvCache } from '@/lib/env';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { call, tokenForSubject } from '@/test/http';

beforeEach(() => setLimiter(createMemoryLimiter()));

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
  it('POST /api/auth/session keeps a valid token in an HttpOnly SameSite=Lax cookie', async () => {
    const token = await tokenForSubject('idp|web', { preferred_username: 'webby' });
    const res = await call(sessionSignIn, '/api/auth/session', { method: 'POST', body: { token } });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe('webby');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toContain(`${SESSION_COOKIE}=${token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=lax/i);
    const me = await call(getMe, '/api/users/me', { cookie: `${SESSION_COOKIE}=${token}` });
    expect(me.body.user.username).toBe('webby');
    const bad = await call(sessionSignIn, '/api/auth/session', { method: 'POST', body: { token: 'garbage' } });
    expect(bad.status).toBe(401);
  });

  it('POST /api/auth/dev-sign-in mints a token for a username outside production only', async () => {
    const res = await call(devSignIn, '/api/auth/dev-sign-in', { method: 'POST', body: { username: 'devuser' } });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe('devuser');
    const again = await call(devSignIn, '/api/auth/dev-sign-in', { method: 'POST', body: { username: 'DevUser' } });
    expect(again.body.user.id).toBe(res.body.user.id);
    await withEnv({ NODE_ENV: 'production', AUTH_JWT_SECRET: 'prod-secret', CRON_SECRET: 'prod-cron' }, async () => {
      const prod = await call(devSignIn, '/api/auth/dev-sign-in', { method: 'POST', body: { username: 'devuser' } });
      expect(prod.status).toBe(404);
    });
  });

  it('POST /api/auth/sign-out clears the cookie', async () => {
    const res = await call(signOut, '/api/auth/sign-out', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`${SESSION_COOKIE}=;`));
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
