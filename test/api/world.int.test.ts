import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as statsRoute } from '@/app/api/actors/[actorId]/stats/route';
import { GET as assetsRoute } from '@/app/api/game-assets/route';
import { GET as orgsRoute } from '@/app/api/organizations/route';
import { POST as followRoute } from '@/app/api/users/[userId]/follow/route';
import { getDb } from '@/db/client';
import { ACTORS, ORGANIZATIONS } from '@/db/seed/world-data';
import { seedUser } from '@/db/seed/factories';
import { actorId, seedWorld } from '@/db/seed/world';
import { createMemoryLimiter, setLimiter } from '@/lib/http/rate-limit';
import { call, tokenFor } from '@/test/http';

beforeAll(async () => {
  await seedWorld(await getDb());
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

describe('GET /api/organizations', () => {
  it('is public and lists every organization with prices, 24 h change and a shipped logo', async () => {
    const res = await call(orgsRoute, '/api/organizations');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.count).toBe(ORGANIZATIONS.length);
    const nexa = res.body.organizations.find((o: { ticker: string }) => o.ticker === 'NEXA');
    expect(nexa).toEqual({
      id: 'org-nexa',
      ticker: 'NEXA',
      name: 'Nexa Dynamics',
      description: expect.any(String),
      sector: 'AI',
      initialPrice: 142.5,
      currentPrice: 142.5,
      change24h: 0,
      changePercent24h: 0,
      logoUrl: '/game-assets/organizations/NEXA.svg',
    });
  });

  it('reports the change against the day-old price', async () => {
    const db = await getDb();
    await db.execute(sql`update organizations set current_price = 88.2 * 1.1 where ticker = 'QBIT'`);
    try {
      const res = await call(orgsRoute, '/api/organizations');
      const qbit = res.body.organizations.find((o: { ticker: string }) => o.ticker === 'QBIT');
      expect(qbit.currentPrice).toBeCloseTo(97.02, 8);
      expect(qbit.change24h).toBeCloseTo(8.82, 8);
      expect(qbit.changePercent24h).toBeCloseTo(10, 8);
    } finally {
      await db.execute(sql`update organizations set current_price = 88.2 where ticker = 'QBIT'`);
    }
  });
});

describe('GET /api/game-assets', () => {
  it('is public and gives every actor an avatar and every organization a logo', async () => {
    const res = await call(assetsRoute, '/api/game-assets');
    expect(res.status).toBe(200);
    expect(res.body.actors).toHaveLength(ACTORS.length);
    expect(res.body.organizations).toHaveLength(ORGANIZATIONS.length);
    expect(res.body.actors).toContainEqual({ id: 'actor-ada_vance', username: 'ada_vance', displayName: 'Ada Vance', avatarUrl: '/game-assets/actors/ada_vance.svg' });
    expect(res.body.organizations).toContainEqual({ id: 'org-helx', ticker: 'HELX', name: 'Helix Biotherapeutics', logoUrl: '/game-assets/organizations/HELX.svg' });
  });
});

describe('GET /api/actors/{actorId}/stats', () => {
  it('answers by id or username, anonymously, with tier, role, organization and counts', async () => {
    const byId = await call(statsRoute, '/api/actors/actor-ada_vance/stats', { params: { actorId: 'actor-ada_vance' } });
    expect(byId.status).toBe(200);
    expect(byId.body.actor).toMatchObject({
      id: 'actor-ada_vance',
      username: 'ada_vance',
      tier: 'S',
      role: 'CEO of Nexa Dynamics',
      organization: { id: 'org-nexa', ticker: 'NEXA', name: 'Nexa Dynamics' },
      avatarUrl: '/game-assets/actors/ada_vance.svg',
    });
    expect(byId.body.stats).toMatchObject({ posts: 1, comments: 0, trades: 0, openPositions: 0, balance: '10000', lifetimePnL: '0' });
    const byName = await call(statsRoute, '/api/actors/ada_vance/stats', { params: { actorId: 'ada_vance' } });
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual(byId.body);
  });

  it('counts followers, trades and open positions as they happen', async () => {
    const fan = await seedUser({ balance: '100' });
    const token = await tokenFor(fan);
    const target = actorId('sam_quinn');
    expect((await call(followRoute, `/api/users/${target}/follow`, { method: 'POST', token, params: { userId: target } })).status).toBe(201);
    const res = await call(statsRoute, `/api/actors/${target}/stats`, { params: { actorId: target } });
    expect(res.body.stats.followers).toBe(1);
    expect(res.body.actor.organization).toBeNull();
  });

  it('is 404 NOT_FOUND for a player or an unknown name', async () => {
    const player = await seedUser();
    for (const ident of [player.id, player.username, 'nobody_here']) {
      const res = await call(statsRoute, `/api/actors/${ident}/stats`, { params: { actorId: ident } });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });
});
