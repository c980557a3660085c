/** GET /api/stats: public figures that agree with the database, cached for a few seconds. */
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as openPerp } from '@/app/api/markets/perps/open/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { POST as createPost } from '@/app/api/posts/route';
import { GET as statsRoute } from '@/app/api/stats/route';
import { getDb, rowsOf } from '@/db/client';
import { markets, users } from '@/db/schema';
import { setLimiter } from '@/lib/operations/rate-limit';
import { resetStatsCache } from '@/lib/stats/service';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';

beforeAll(async () => {
  await seedWorld(await getDb());
});
beforeEach(() => {
  setLimiter(pinnedLimiter());
  resetStatsCache();
});
afterEach(() => resetStatsCache());

const one = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await (await getDb()).execute(q))[0]!;

describe('GET /api/stats', () => {
  it('answers anyone with figures that match the database', async () => {
    const player = await seedUser({ balance: '5000' });
    const token = await tokenFor(player);
    const [market] = await (await getDb()).select().from(markets).where(eq(markets.status, 'active')).limit(1);
    expect((await call(buyRoute, `/api/markets/predictions/${market!.id}/buy`, { method: 'POST', token, params: { id: market!.id }, body: { outcome: 'NO', amount: 40 } })).status).toBe(200);
    expect((await call(openPerp, '/api/markets/perps/open', { method: 'POST', token, body: { ticker: 'NEXA', side: 'short', size: 300, leverage: 3 } })).status).toBe(200);
    expect((await call(createPost, '/api/posts', { method: 'POST', token, body: { content: 'Counting on the stats page today' } })).status).toBe(201);

    const res = await call(statsRoute, '/api/stats');
    expect(res.status).toBe(200);
    const s = res.body.stats;
    const expected = await one<Record<string, string>>(sql`select
      (select count(*) from users where not is_actor and not is_agent and not is_pool_account)::int as players,
      (select count(*) from users where is_actor)::int as actors,
      (select count(*) from markets where status = 'active')::int as open_questions,
      (select coalesce(sum(amount), 0)::text from trades) as volume,
      (select coalesce(sum(size), 0)::text from perp_positions where status = 'open') as oi`);
    expect(s.players).toBe(Number(expected.players));
    expect(s.npcActors).toBe(Number(expected.actors));
    expect(s.npcActors).toBeGreaterThan(0);
    expect(s.openQuestions).toBe(Number(expected.open_questions));
    expect(Number(s.predictionVolume24h)).toBeCloseTo(Number(expected.volume), 6);
    expect(Number(s.perpsOpenInterest)).toBeCloseTo(Number(expected.oi), 6);
    expect(Number(s.perpsVolume24h)).toBeGreaterThanOrEqual(300);
    expect(Number(s.poolAssets)).toBeGreaterThan(0);
    expect(s.activeUsers24h).toBeGreaterThanOrEqual(1);
    expect(s.posts24h).toBeGreaterThanOrEqual(1);
    expect(s.sseClients).toBe(0);
    expect(Date.parse(s.computedAt)).not.toBeNaN();
  });

  it('serves cached figures for a few seconds, then refreshes', async () => {
    const first = await call(statsRoute, '/api/stats');
    await seedUser();
    const cached = await call(statsRoute, '/api/stats');
    expect(cached.body.stats.players).toBe(first.body.stats.players);
    expect(cached.body.stats.computedAt).toBe(first.body.stats.computedAt);
    resetStatsCache();
    const fresh = await call(statsRoute, '/api/stats');
    expect(fresh.body.stats.players).toBe(first.body.stats.players + 1);
  });

  it("does not count a banned author's posts", async () => {
    const author = await seedUser();
    expect((await call(createPost, '/api/posts', { method: 'POST', token: await tokenFor(author), body: { content: 'A post that will be hidden soon' } })).status).toBe(201);
    const before = (await call(statsRoute, '/api/stats')).body.stats.posts24h;
    await (await getDb()).update(users).set({ isBanned: true }).where(eq(users.id, author.id));
    resetStatsCache();
    expect((await call(statsRoute, '/api/stats')).body.stats.posts24h).toBe(before - 1);
  });

  it('405 for other methods', async () => {
    const { POST } = await import('@/app/api/stats/route');
    expect((await call(POST, '/api/stats', { method: 'POST', body: {} })).status).toBe(405);
  });
});
