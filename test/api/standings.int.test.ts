/**
 * Standing: GET /api/leaderboard (the read model, ranks, ties, pages, the caller's entry),
 * GET /api/reputation/{userId} and /breakdown/{userId}, and the registry (GET /api/registry,
 * GET /api/registry/all, administrators' apps), and a new account listed in all of them at once,
 * tick or no tick. Leagues are in leagues.int.test.ts.
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DELETE as deleteAppRoute } from '@/app/api/admin/registry/apps/[appId]/route';
import { POST as createAppRoute } from '@/app/api/admin/registry/apps/route';
import { GET as leaderboardRoute } from '@/app/api/leaderboard/route';
import { POST as transferRoute } from '@/app/api/points/transfer/route';
import { GET as registryAllRoute } from '@/app/api/registry/all/route';
import { GET as registryRoute } from '@/app/api/registry/route';
import { GET as breakdownRoute } from '@/app/api/reputation/breakdown/[userId]/route';
import { GET as reputationRoute } from '@/app/api/reputation/[userId]/route';
import { POST as followRoute } from '@/app/api/users/[userId]/follow/route';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { standings, standingsDirty, users, type TUserRow } from '@/db/schema';
import { setLimiter } from '@/lib/operations/rate-limit';
import { applyPointsChange } from '@/lib/points/ledger';
import { refreshAllStandings } from '@/lib/standings/refresh';
import { resetLeaderboardFreshness } from '@/lib/standings/service/read-leaderboard';
import { seedPool, seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor, tokenForSubject } from '@/test/http';
import { POST as a2aRoute } from '@/app/api/a2a/route';
import { POST as agentAuthRoute } from '@/app/api/agents/auth/route';
import { GET as meRoute } from '@/app/api/users/me/route';
import { resetEnvCache } from '@/lib/env';
import { readGameClock } from '@/lib/game/tick';
import { seedWorld } from '@/lib/world/seed/world';
import { ACTORS } from '@/lib/world/seed/world-data';
import { switchToFreshDatabase } from '@/test/databases';

const give = (userId: string, amount: number, reason = 'admin_award') =>
  withTransaction((tx) => applyPointsChange(tx, { userId, amount, reason }));

const board = async (query: Record<string, string> = {}, token?: string) => {
  resetLeaderboardFreshness();
  const qs = new URLSearchParams(query).toString();
  return call(leaderboardRoute, `/api/leaderboard${qs ? `?${qs}` : ''}`, { token });
};

/** Every ranked entry of a board, page by page. */
const wholeBoard = async (pointsType: string, pageSize: number) => {
  const out: { rank: number; user: { id: string }; points: number; earnedPoints: number; referralPoints: number }[] = [];
  for (let page = 1; ; page++) {
    const res = await board({ pointsType, pageSize: String(pageSize), page: String(page) });
    expect(res.status).toBe(200);
    out.push(...res.body.leaderboard);
    if (page >= res.body.pagination.totalPages) {
      expect(out).toHaveLength(res.body.pagination.total);
      return out;
    }
  }
};

let admin: TUserRow;
let top: TUserRow;
let tieA: TUserRow;
let tieB: TUserRow;
let low: TUserRow;
let banned: TUserRow;
let actor: TUserRow;

beforeAll(async () => {
  admin = await seedUser({ isAdmin: true, username: 'standings_admin' });
  top = await seedUser({ username: 'standings_top', displayName: 'Top Player' });
  tieA = await seedUser({ username: 'standings_tie_a' });
  tieB = await seedUser({ username: 'standings_tie_b' });
  low = await seedUser({ username: 'standings_low' });
  banned = await seedUser({ username: 'standings_banned', isBanned: true });
  actor = await seedUser({ username: 'standings_npc', displayName: 'Npc Oracle', isActor: true });
  await give(top.id, 900);
  await give(tieA.id, 400);
  await give(tieB.id, 400);
  await give(low.id, 10);
  await give(banned.id, 5000);
  await give(actor.id, 300, 'seed:actor_standing');
  await give(top.id, 100, 'milestone:first_referral');
  await refreshAllStandings();
});
beforeEach(() => setLimiter(pinnedLimiter()));

describe('GET /api/leaderboard', () => {
  it('ranks by points, ties sharing a rank, banned accounts left out, actors included', async () => {
    const res = await board();
    expect(res.status).toBe(200);
    expect(res.body.pointsType).toBe('all');
    expect(res.body.pagination).toMatchObject({ page: 1, pageSize: 100 });
    const entries = res.body.leaderboard as { rank: number; user: { id: string; isActor: boolean; displayName: string }; points: number; earnedPoints: number; referralPoints: number; lifetimePnL: number; pnlHistory: number[] }[];
    const byId = new Map(entries.map((e) => [e.user.id, e]));
    expect(byId.has(banned.id)).toBe(false);
    expect(byId.get(top.id)).toMatchObject({ rank: 1, points: 1000, earnedPoints: 900, referralPoints: 100, lifetimePnL: 0, user: { displayName: 'Top Player', isActor: false } });
    expect(byId.get(tieA.id)!.rank).toBe(2);
    expect(byId.get(tieB.id)!.rank).toBe(2);
    expect(byId.get(actor.id)).toMatchObject({ rank: 4, points: 300, user: { isActor: true } });
    expect(byId.get(low.id)!.rank).toBe(5);
    // Players with no points share the last rank.
    const zero = entries.filter((e) => e.points === 0);
    expect(new Set(zero.map((e) => e.rank)).size).toBe(1);
    expect(zero[0]!.rank).toBe(6);
    expect(res.body.me).toBeNull();
    for (const e of entries) expect(Array.isArray(e.pnlHistory)).toBe(true);
  });

  it('pages cover everyone exactly once, whatever the page size, with the same ranks', async () => {
    const all = await wholeBoard('all', 100);
    for (const size of [1, 2, 3]) {
      const paged = await wholeBoard('all', size);
      expect(paged.map((e) => e.user.id)).toEqual(all.map((e) => e.user.id));
      expect(paged.map((e) => e.rank)).toEqual(all.map((e) => e.rank));
    }
    expect(new Set(all.map((e) => e.user.id)).size).toBe(all.length);
    const past = await board({ page: '999', pageSize: '50' });
    expect(past.status).toBe(200);
    expect(past.body.leaderboard).toEqual([]);
    expect(past.body.pagination.total).toBe(all.length);
  });

  it('earned and referral boards rank by their own points; transfers count in all only', async () => {
    const referral = await wholeBoard('referral', 100);
    expect(referral[0]).toMatchObject({ rank: 1, referralPoints: 100, user: { id: top.id } });
    expect(referral.filter((e) => e.referralPoints === 0).every((e) => e.rank === 2)).toBe(true);

    const res = await call(transferRoute, '/api/points/transfer', { method: 'POST', token: await tokenFor(tieA), body: { toUserId: low.id, amount: 50 } });
    expect(res.status).toBe(200);
    const all = await wholeBoard('all', 100);
    const earned = await wholeBoard('earned', 100);
    const find = (list: typeof all, id: string) => list.find((e) => e.user.id === id)!;
    // The read refreshed the two accounts the transfer marked.
    expect(find(all, tieA.id)).toMatchObject({ points: 350, earnedPoints: 400, rank: 3 });
    expect(find(all, tieB.id).rank).toBe(2);
    expect(find(all, low.id)).toMatchObject({ points: 60, earnedPoints: 10 });
    expect(find(earned, tieA.id).rank).toBe(find(earned, tieB.id).rank);
    expect(find(earned, top.id)).toMatchObject({ rank: 1, earnedPoints: 900 });
  });

  it("pins the caller's own entry on every page", async () => {
    const token = await tokenFor(low);
    const res = await board({ page: '1', pageSize: '1' }, token);
    expect(res.status).toBe(200);
    expect(res.body.leaderboard).toHaveLength(1);
    expect(res.body.leaderboard[0].user.id).toBe(top.id);
    expect(res.body.me).toMatchObject({ user: { id: low.id } });
    const whole = await wholeBoard('all', 100);
    expect(res.body.me.rank).toBe(whole.find((e) => e.user.id === low.id)!.rank);
    const bannedMe = await board({}, await tokenFor(banned));
    expect(bannedMe.body.me).toBeNull();
  });

  it('refuses invalid parameters with 400 INVALID_PARAMETER', async () => {
    const bad: Record<string, string>[] = [{ pointsType: 'gold' }, { page: '0' }, { page: 'x' }, { pageSize: '0' }, { pageSize: '101' }, { pageSize: '1.5' }, { pointsType: '' }];
    for (const q of bad) {
      const res = await board(q);
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_PARAMETER');
    }
  });

  it('never ranks a pool account, and follows a ban', async () => {
    const { pool } = await seedPool();
    const offender = await seedUser();
    await give(offender.id, 777);
    let all = await wholeBoard('all', 100);
    expect(all.some((e) => e.user.id === pool.accountUserId)).toBe(false);
    expect(all.some((e) => e.user.id === offender.id)).toBe(true);
    await (await getDb()).update(users).set({ isBanned: true }).where(eq(users.id, offender.id));
    all = await wholeBoard('all', 100);
    expect(all.some((e) => e.user.id === offender.id)).toBe(false);
  });

  it('the refresh handles only marked accounts and leaves no mark behind', async () => {
    const db = await getDb();
    await refreshAllStandings();
    expect(rowsOf(await db.execute(sql`select * from ${standingsDirty}`))).toHaveLength(0);
    const before = await db.select().from(standings).where(eq(standings.userId, top.id));
    await give(low.id, 5);
    const run = await refreshAllStandings();
    expect(run.refreshed).toBe(1);
    const after = await db.select().from(standings).where(eq(standings.userId, top.id));
    expect(after[0]!.refreshedAt).toEqual(before[0]!.refreshedAt);
  });
});

describe('GET /api/reputation/{userId} and /api/reputation/breakdown/{userId}', () => {
  it('answers a score from 0 to 1000 with its level, for players and NPC actors, deterministically', async () => {
    for (const u of [top, actor]) {
      const a = await call(reputationRoute, `/api/reputation/${u.id}`, { params: { userId: u.id } });
      expect(a.status).toBe(200);
      expect(a.body.reputation).toMatchObject({ userId: u.id, maxScore: 1000, isActor: u.isActor });
      expect(a.body.reputation.score).toBeGreaterThan(0);
      expect(a.body.reputation.score).toBeLessThanOrEqual(1000);
      const b = await call(reputationRoute, `/api/reputation/${u.id}`, { params: { userId: u.id } });
      expect(b.body.reputation.score).toBe(a.body.reputation.score);
      expect(b.body.reputation.level).toBe(a.body.reputation.level);
    }
  });

  it('the breakdown explains the score: parts with weights, raw figures and contributions that add up', async () => {
    const res = await call(breakdownRoute, `/api/reputation/breakdown/${top.id}`, { params: { userId: top.id } });
    expect(res.status).toBe(200);
    const { parts, penalties, formula } = res.body.breakdown;
    expect(parts.map((p: { key: string }) => p.key)).toEqual(['trading', 'accuracy', 'social', 'community']);
    expect(parts.reduce((s: number, p: { weight: number }) => s + p.weight, 0)).toBeCloseTo(1, 10);
    const community = parts.find((p: { key: string }) => p.key === 'community');
    expect(community.raw.points).toBe(1000);
    const total = [...parts, ...penalties].reduce((s: number, p: { contribution: number }) => s + p.contribution, 0);
    expect(res.body.reputation.score).toBe(Math.max(0, Math.min(1000, total)));
    expect(formula).toContain('1000');
  });

  it('followers raise it; a ban lowers it', async () => {
    const u = await seedUser();
    const score = async () => (await call(reputationRoute, `/api/reputation/${u.id}`, { params: { userId: u.id } })).body.reputation.score as number;
    const s0 = await score();
    for (const f of [top, tieA, tieB]) {
      expect((await call(followRoute, `/api/users/${u.id}/follow`, { method: 'POST', token: await tokenFor(f), params: { userId: u.id } })).status).toBe(201);
    }
    const s1 = await score();
    expect(s1).toBeGreaterThan(s0);
    await (await getDb()).update(users).set({ isBanned: true }).where(eq(users.id, u.id));
    const breakdown = await call(breakdownRoute, `/api/reputation/breakdown/${u.id}`, { params: { userId: u.id } });
    expect(breakdown.body.reputation.score).toBeLessThan(s1);
    expect(breakdown.body.breakdown.penalties.find((p: { key: string }) => p.key === 'ban').contribution).toBe(-500);
  });

  it('the tick stores the same score in the read model for the registry', async () => {
    await refreshAllStandings();
    const res = await call(reputationRoute, `/api/reputation/${top.id}`, { params: { userId: top.id } });
    const [row] = await (await getDb()).select().from(standings).where(eq(standings.userId, top.id));
    expect(row!.reputation).toBe(res.body.reputation.score);
    expect(row!.reputationLevel).toBe(res.body.reputation.level);
  });

  it('404 USER_NOT_FOUND for an unknown account or a pool account', async () => {
    const { pool } = await seedPool();
    for (const id of ['no-such-user', pool.accountUserId]) {
      for (const [route, path] of [[reputationRoute, `/api/reputation/${id}`], [breakdownRoute, `/api/reputation/breakdown/${id}`]] as const) {
        const res = await call(route, path, { params: { userId: id } });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('USER_NOT_FOUND');
      }
    }
  });
});

describe('the registry', () => {
  const list = (q: Record<string, string> = {}) => call(registryRoute, `/api/registry?${new URLSearchParams(q)}`);

  it('lists players, actors and agents with type, reputation and capabilities; filters by type and search', async () => {
    await refreshAllStandings();
    const agent = await seedUser({ username: 'standings_agent_bot' });
    await (await getDb()).update(users).set({ isAgent: true }).where(eq(users.id, agent.id));
    await refreshAllStandings();
    const res = await list();
    expect(res.status).toBe(200);
    const types = new Set(res.body.entries.map((e: { type: string }) => e.type));
    expect(types).toEqual(new Set(['user', 'actor', 'agent']));
    const scores = res.body.entries.map((e: { reputation: { score: number } }) => e.reputation.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    const agents = await list({ type: 'agent' });
    expect(agents.body.entries.map((e: { id: string }) => e.id)).toEqual([agent.id]);
    expect(agents.body.entries[0]).toMatchObject({ type: 'agent', a2a: { endpoint: 'http://localhost:3000/api/a2a', agentCard: 'http://localhost:3000/.well-known/agent-card.json' }, onChain: { registered: false } });
    expect(agents.body.entries[0].a2a.methods).toContain('a2a.getMarketData');

    const actors = await list({ type: 'actor', search: 'oracle' });
    expect(actors.body.entries.map((e: { id: string }) => e.id)).toEqual([actor.id]);
    expect(actors.body.entries[0]).toMatchObject({ name: 'Npc Oracle', url: 'http://localhost:3000/u/standings_npc', onChain: null, a2a: null });

    const searched = await list({ search: 'STANDINGS_TIE' });
    expect(searched.body.entries.map((e: { id: string }) => e.id).sort()).toEqual([tieA.id, tieB.id].sort());
    expect((await list({ search: '%' })).body.entries).toEqual([]);
    expect((await list({ search: 'standings_banned' })).body.entries).toEqual([]);

    const page = await list({ pageSize: '2', page: '2' });
    expect(page.body.entries).toHaveLength(2);
    expect(page.body.pagination).toMatchObject({ page: 2, pageSize: 2, total: res.body.pagination.total });
  });

  it('administrators register apps (201), others cannot; apps are listed and removable', async () => {
    const body = { name: 'Market Radar', url: 'https://radar.example.com', description: 'Alerts', ownerId: top.id, capabilities: ['read', 'alerts'] };
    const path = '/api/admin/registry/apps';
    expect((await call(createAppRoute, path, { method: 'POST', body })).status).toBe(401);
    const forbidden = await call(createAppRoute, path, { method: 'POST', token: await tokenFor(top), body });
    expect([forbidden.status, forbidden.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const adminToken = await tokenFor(admin);
    for (const bad of [{ ...body, url: 'ftp://x' }, { ...body, name: '' }, { ...body, extra: 1 }, { ...body, capabilities: ['Bad Cap'] }]) {
      const res = await call(createAppRoute, path, { method: 'POST', token: adminToken, body: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const noOwner = await call(createAppRoute, path, { method: 'POST', token: adminToken, body: { ...body, ownerId: 'nobody' } });
    expect([noOwner.status, noOwner.body.error.code]).toEqual([404, 'USER_NOT_FOUND']);

    const created = await call(createAppRoute, path, { method: 'POST', token: adminToken, body });
    expect(created.status).toBe(201);
    expect(created.body.entry).toMatchObject({ type: 'app', name: 'Market Radar', url: body.url, reputation: null, owner: { id: top.id, username: 'standings_top' }, capabilities: ['read', 'alerts'] });
    // The owner may be named by username too.
    const byName = await call(createAppRoute, path, { method: 'POST', token: adminToken, body: { ...body, name: 'Second App', ownerId: 'standings_top' } });
    expect(byName.status).toBe(201);
    expect(byName.body.entry.owner).toEqual({ id: top.id, username: 'standings_top' });
    expect((await call(deleteAppRoute, `${path}/${byName.body.entry.id}`, { method: 'DELETE', token: adminToken, params: { appId: byName.body.entry.id } })).status).toBe(200);
    const apps = await list({ type: 'app' });
    expect(apps.body.entries.map((e: { id: string }) => e.id)).toEqual([created.body.entry.id]);
    expect((await list({ search: 'radar' })).body.entries[0].id).toBe(created.body.entry.id);

    const id = created.body.entry.id;
    expect((await call(deleteAppRoute, `${path}/${id}`, { method: 'DELETE', token: await tokenFor(top), params: { appId: id } })).status).toBe(403);
    const gone = await call(deleteAppRoute, `${path}/${id}`, { method: 'DELETE', token: adminToken, params: { appId: id } });
    expect(gone.status).toBe(200);
    const again = await call(deleteAppRoute, `${path}/${id}`, { method: 'DELETE', token: adminToken, params: { appId: id } });
    expect([again.status, again.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await list({ type: 'app' })).body.entries).toEqual([]);
  });

  it('GET /api/registry/all walks every entry exactly once by cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let total = 0;
    do {
      const q: Record<string, string> = { limit: '2', ...(cursor ? { cursor } : {}) };
      const res = await call(registryAllRoute, `/api/registry/all?${new URLSearchParams(q)}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.entries.map((e: { id: string }) => e.id));
      cursor = res.body.nextCursor;
      total = res.body.total;
    } while (cursor);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(seen).not.toContain(banned.id);
  });

  it('refuses bad parameters with 400 INVALID_PARAMETER', async () => {
    for (const [route, path] of [
      [registryRoute, '/api/registry?type=robot'],
      [registryRoute, '/api/registry?pageSize=1000'],
      [registryRoute, '/api/registry?page=-1'],
      [registryAllRoute, '/api/registry/all?cursor=not-a-cursor'],
      [registryAllRoute, '/api/registry/all?limit=5000'],
    ] as const) {
      const res = await call(route, path);
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe('INVALID_PARAMETER');
    }
  });
});

describe('a new account is listed at once, tick or no tick', () => {
  const registryIds = async (q: Record<string, string> = {}) =>
    (await call(registryRoute, `/api/registry?${new URLSearchParams({ pageSize: '100', ...q })}`)).body.entries.map((e: { id: string }) => e.id) as string[];
  const boardIds = async () => (await wholeBoard('all', 100)).map((e) => e.user.id);
  /** Whether the account has its standings row, and whether it still waits for a refresh (its mark). */
  const standingOf = async (userId: string) => {
    const [r] = rowsOf<{ listed: boolean | null; kind: string | null; marked: boolean }>(
      await (await getDb()).execute(sql`
        select s.listed, s.kind, exists (select 1 from ${standingsDirty} d where d.user_id = ${userId}) as marked
        from (select 1) one left join ${standings} s on s.user_id = ${userId}`),
    );
    return r!;
  };

  it('a freshly provisioned player and a freshly signed-in agent: in the registry, on the leaderboard, found by a2a.getInfo', async () => {
    // No tick ever ran in this file's database.
    expect((await readGameClock())?.tickCount ?? 0).toBe(0);
    await refreshAllStandings();

    // A player provisioned on first sight (a request with a token for a new subject).
    const playerToken = await tokenForSubject(`fresh|player-${crypto.randomUUID()}`);
    const first = await board({}, playerToken);
    expect(first.status).toBe(200);
    const [player] = await (await getDb()).select().from(users).where(eq(users.id, first.body.me?.user.id ?? ''));
    expect(player).toBeDefined();
    expect(first.body.me).toMatchObject({ user: { id: player!.id }, points: 0 });

    // An agent signing in with its credentials.
    const saved = process.env.AGENT_CREDENTIALS;
    process.env.AGENT_CREDENTIALS = 'fresh-standings-bot:s3cret-s3cret';
    resetEnvCache();
    let agentToken: string;
    try {
      const auth = await call(agentAuthRoute, '/api/agents/auth', { method: 'POST', body: { agentId: 'fresh-standings-bot', agentSecret: 's3cret-s3cret' } });
      expect(auth.status).toBe(200);
      agentToken = auth.body.sessionToken;
    } finally {
      if (saved === undefined) delete process.env.AGENT_CREDENTIALS;
      else process.env.AGENT_CREDENTIALS = saved;
      resetEnvCache();
    }
    const me = await call(meRoute, '/api/users/me', { token: agentToken });
    expect(me.body.user).toMatchObject({ isAgent: true });
    const agentId = me.body.user.id as string;

    // Both have their row from the transaction that made them, before any refresh took their marks.
    expect(await standingOf(agentId)).toEqual({ listed: true, kind: 'agent', marked: true });
    expect((await standingOf(player!.id)).listed).toBe(true);

    const info = await call(a2aRoute, '/api/a2a', { method: 'POST', token: agentToken, body: { jsonrpc: '2.0', id: 1, method: 'a2a.getInfo', params: { agentId } } });
    expect(info.body.result).toMatchObject({ agentId, type: 'agent', active: true, a2a: { endpoint: 'http://localhost:3000/api/a2a' } });
    expect(await registryIds({ type: 'agent' })).toContain(agentId);
    expect(await registryIds({ search: player!.username })).toEqual([player!.id]);
    const onBoard = await boardIds();
    expect(onBoard).toContain(player!.id);
    expect(onBoard).toContain(agentId);
    const all = (await call(registryAllRoute, '/api/registry/all?limit=500')).body.entries.map((e: { id: string }) => e.id);
    expect(all).toEqual(expect.arrayContaining([player!.id, agentId]));

    // The refresh still does its work on them (ranks, reputation), and leaves them listed.
    await refreshAllStandings();
    expect(await standingOf(agentId)).toEqual({ listed: true, kind: 'agent', marked: false });
    expect((await readGameClock())?.tickCount ?? 0).toBe(0);
  });

  it('a pool account still never gets a row; a banned account gets one, unlisted', async () => {
    const { pool } = await seedPool();
    expect(await standingOf(pool.accountUserId)).toEqual({ listed: null, kind: null, marked: false });
    const offender = await seedUser({ isBanned: true });
    expect((await standingOf(offender.id)).listed).toBe(false);
    expect(await registryIds({ search: offender.username })).toEqual([]);
  });

  // Last in this file: it leaves the file's database for a fresh one.
  it('a world seeded and never ticked (a server started with LOCAL_SCHEDULER=0) lists its accounts in the registry', async () => {
    await switchToFreshDatabase('standings_fresh');
    const db = await getDb();
    await seedWorld(db);
    expect((await readGameClock())?.tickCount ?? 0).toBe(0);
    const actors = await call(registryRoute, '/api/registry?type=actor&pageSize=100');
    expect(actors.status).toBe(200);
    expect(actors.body.pagination.total).toBe(ACTORS.length);
    const accounts = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${users} where not is_pool_account`))[0]!.n;
    const whole = await call(registryAllRoute, '/api/registry/all?limit=500');
    expect(whole.body.total).toBe(accounts);
    const fresh = await seedUser({ username: 'standings_fresh_world' });
    expect(await registryIds({ search: 'standings_fresh_world' })).toEqual([fresh.id]);
    expect(await boardIds()).toContain(fresh.id);
  });
});
