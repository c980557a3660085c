import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { POST as tickRoute } from '@/app/api/cron/game-tick/route';
import { GET as breakingNewsRoute } from '@/app/api/feed/widgets/breaking-news/route';
import { GET as statsRoute } from '@/app/api/feed/widgets/stats/route';
import { GET as upcomingRoute } from '@/app/api/feed/widgets/upcoming-events/route';
import { GET as controlGetRoute, POST as controlPostRoute } from '@/app/api/game/control/route';
import { GET as gamesRoute } from '@/app/api/games/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { dbKind, getDb, rowsOf, withTransaction } from '@/db/client';
import {
  a2aPaymentRequests,
  a2aTasks,
  balanceTransactions,
  eventLog,
  marketBiases,
  marketPricePoints,
  markets,
  organizations,
  perpPricePoints,
  questionRules,
  trades,
  users,
  worldEvents,
  type TUserRow,
} from '@/db/schema';
import { seedUser } from '@/test/factories';
import { seedWorld } from '@/lib/world/seed/world';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { env, resetEnvCache } from '@/lib/env';
import { NEWS_PRICE_WEIGHT, stepTicker, VALUE_NEWS_KINDS } from '@/lib/game/prices';
import { createRng } from '@/lib/game/rng';
import { loadActors, loadOrganizations, type TOrgWorldState } from '@/lib/game/state';
import { readGameClock, runGameTick } from '@/lib/game/tick';
import { planEventCount, planWorldEvent } from '@/lib/game/world-rules';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { dec } from '@/lib/money/decimal';
import { applyPointsChange } from '@/lib/points/ledger';
import { switchToFreshDatabase } from '@/test/databases';
import { call, tokenFor } from '@/test/http';

// The NPC step, with a switch to make it fail (a failing step must not stop the others).
const npcFailure = vi.hoisted(() => ({ on: false }));
vi.mock('@/lib/game/npc', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/lib/game/npc')>();
  return {
    ...real,
    runNpcActivity: async (ctx: Parameters<typeof real.runNpcActivity>[0]) => {
      if (npcFailure.on) throw new Error('npc step down');
      return real.runNpcActivity(ctx);
    },
  };
});

const SEED = 'game-test-seed';
const HOUR = 3_600_000;
/**
 * Game time of the first tick: a fixed hour, one after the seed's pinned time (the seeded questions
 * are weeks out). Fixed, not taken from the wall clock: the questions the ticks create draw from the
 * seed and the game time, and the tests below need the world those draws make.
 */
const T0 = new Date('2030-03-04T05:00:00.000Z');
const at = (hours: number) => new Date(T0.getTime() + hours * HOUR).toISOString();

const tick = (now?: string) => call(tickRoute, '/api/cron/game-tick', { method: 'POST', token: env().cronSecret, body: now ? { now } : {} });
/** The next game minute after the last tick (a tick runs once per game minute). */
const nextMinute = async () => new Date((await readGameClock())!.lastTickAt.getTime() + 60_000).toISOString();

let admin: TUserRow;
let player: TUserRow;
let orgsBefore: TOrgWorldState[];

beforeAll(async () => {
  process.env.GAME_SEED = SEED;
  process.env.ALLOW_TEST_CLOCK = '1';
  resetEnvCache();
  resetClock();
  setFixedTime(new Date(T0.getTime() - HOUR));
  const db = await getDb();
  await seedWorld(db);
  admin = await seedUser({ isAdmin: true, balance: '0' });
  player = await seedUser({ balance: '1000' });
  orgsBefore = await loadOrganizations(db);
});

afterAll(async () => {
  delete process.env.GAME_SEED;
  delete process.env.ALLOW_TEST_CLOCK;
  resetEnvCache();
  resetClock();
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

const count = async (table: typeof worldEvents | typeof perpPricePoints | typeof marketPricePoints | typeof questionRules) => {
  const [r] = rowsOf<{ n: string | number }>(await (await getDb()).execute(sql`select count(*) as n from ${table}`));
  return Number(r!.n);
};
const activeQuestions = async () =>
  (await getDb()).select().from(markets).where(eq(markets.status, 'active'));

describe('the game tick', () => {
  it('creates world events with breaking news, moves prices, records price points and tops questions up to 10', async () => {
    const db = await getDb();
    const actors = await loadActors(db);
    const res = await tick(at(0));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, skipped: false, paused: false, gameTime: at(0) });

    // A quiet world gets at least one event; each is announced on breaking-news in its transaction.
    // (The seed's past news has ids seed-news-*; the tick's are we-<game time>-<n>.)
    const events = (await db.select().from(worldEvents).orderBy(asc(worldEvents.id))).filter((e) => e.id.startsWith('we-'));
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(res.body.events.created).toBe(events.length);
    const news = await db.select().from(eventLog).where(eq(eventLog.channel, 'breaking-news'));
    expect(news.map((n) => (n.data as { id: string }).id).sort()).toEqual(events.map((e) => e.id));
    expect(news[0]!.type).toBe('breaking_news');
    expect(Object.keys(news[0]!.data as object).sort()).toEqual(['content', 'id', 'relatedQuestions', 'timestamp', 'title']);

    // Deterministic: the same seed and game time make exactly these events and fair values.
    const rng = createRng(`${SEED}:${at(0)}`);
    const newsRng = rng.fork('news');
    const n = planEventCount(newsRng, true);
    expect(events).toHaveLength(n);
    const first = planWorldEvent(newsRng.fork('event-0'), { orgs: orgsBefore, actors, questions: [] })!;
    const stored = events.find((e) => e.id === `we-${T0.getTime().toString(36)}-0`)!;
    expect(stored).toMatchObject({ kind: first.kind, title: first.title, content: first.content, organizationId: first.organizationId });
    const after = await loadOrganizations(db);
    for (const o of orgsBefore) {
      // News reaches the price at NEWS_PRICE_WEIGHT; value-moving kinds move the fundamental too, and the fair value reverts toward it.
      const own = events.filter((e) => e.organizationId === o.id);
      const push = own.reduce((s, e) => s + Number(e.impact), 0) * NEWS_PRICE_WEIGHT;
      const valuePush = own.filter((e) => VALUE_NEWS_KINDS.has(e.kind)).reduce((s, e) => s + Number(e.impact), 0) * NEWS_PRICE_WEIGHT;
      const expected = stepTicker({ fairValue: o.fairValue, fundamental: o.fundamental, volatility: o.volatility, push, valuePush, minutes: 1 }, rng.fork('prices').fork(o.ticker)).fair;
      const now = after.find((x) => x.id === o.id)!;
      expect(now.fairValue).toBeCloseTo(expected, 4);
      expect(now.price).toBeCloseTo(expected, 4);
      // The mark drifts a quarter of the way toward the new fair value (as the tick's price point
      // records it: the pool managers trade later in the tick, and their fills move the mark again).
      const [point] = await db
        .select()
        .from(perpPricePoints)
        .where(and(eq(perpPricePoints.ticker, o.ticker), eq(perpPricePoints.source, 'tick')))
        .orderBy(asc(perpPricePoints.createdAt))
        .limit(1);
      expect(Number(point!.markPrice)).toBeCloseTo(o.markPrice! + (expected - o.markPrice!) * 0.25, 3);
      expect(now.markPrice).not.toBeNull();
    }

    expect(res.body.pricePoints.perps).toBe(8);
    expect(await count(perpPricePoints)).toBeGreaterThanOrEqual(16);
    const active = await activeQuestions();
    expect(active.length).toBeGreaterThanOrEqual(10);
    expect(active.length).toBeLessThanOrEqual(20);
    // The tick's rules (the seed's SOLR question has its price rule from the seed, issue 31).
    const rules = (await db.select().from(questionRules)).filter((r) => r.createdAt.getTime() >= T0.getTime());
    expect(rules.length).toBe(res.body.questions.created);
    expect(rules.length).toBeGreaterThanOrEqual(4);
    for (const q of active.filter((m) => rules.some((r) => r.marketId === m.id))) {
      const days = (q.resolutionDate.getTime() - T0.getTime()) / 86_400_000;
      expect(days).toBeGreaterThanOrEqual(1);
      expect(days).toBeLessThanOrEqual(7.05);
    }
    const upcoming = await db.select().from(eventLog).where(eq(eventLog.channel, 'upcoming-events'));
    expect(upcoming.length).toBeGreaterThanOrEqual(rules.length);
  });

  it('runs once when two ticks arrive together: the other answers skipped', async () => {
    const [a, b] = await Promise.all([tick(at(1)), tick(at(1))]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect([a.body.skipped, b.body.skipped].sort()).toEqual([false, true]);
    if (dbKind() === 'postgres') {
      // Another instance holding the advisory lock: this process's tick skips too.
      const db = await getDb();
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(7412002, hashtext(current_schema()))`);
        const c = await tick(at(2));
        expect(c.body).toEqual({ success: true, skipped: true });
      });
    }
  });

  it('does nothing while paused and resumes on start', async () => {
    const token = await tokenFor(admin);
    const paused = await call(controlPostRoute, '/api/game/control', { method: 'POST', token, body: { action: 'pause' } });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ success: true, action: 'pause', status: 'paused', paused: true });
    const before = { events: await count(worldEvents), points: await count(perpPricePoints), q: await count(marketPricePoints) };
    const res = await tick(at(3));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, paused: true });
    expect(res.body.gameTime).not.toBe(at(3));
    expect({ events: await count(worldEvents), points: await count(perpPricePoints), q: await count(marketPricePoints) }).toEqual(before);

    const started = await call(controlPostRoute, '/api/game/control', { method: 'POST', token, body: { action: 'start' } });
    expect(started.body).toMatchObject({ status: 'running', running: true });
    const again = await tick(at(3));
    expect(again.body).toMatchObject({ skipped: false, paused: false, gameTime: at(3) });
    expect(await count(perpPricePoints)).toBeGreaterThan(before.points);
  });

  it('moves prediction prices through biases (an NPC buys the favoured side) and removes spent biases', async () => {
    const db = await getDb();
    const [q] = await db
      .select({ id: markets.id })
      .from(markets)
      .innerJoin(questionRules, eq(questionRules.marketId, markets.id))
      .where(and(eq(markets.status, 'active'), eq(questionRules.kind, 'price')))
      .orderBy(desc(markets.resolutionDate))
      .limit(1);
    const bias = { marketId: q!.id, priceImpact: '0.01', decayRate: '0.1', createdAt: new Date(at(3)) };
    await db.insert(marketBiases).values([
      { ...bias, direction: 'YES', adjustment: '0.8', reason: 'live', expiresAt: new Date(at(9)) },
      { ...bias, direction: 'NO', adjustment: '0.5', reason: 'spent', expiresAt: new Date(at(3.5)) },
    ]);
    const res = await tick(at(4));
    expect(res.body.prices.biasTrades).toBeGreaterThanOrEqual(1);
    expect(res.body.prices.biasesExpired).toBeGreaterThanOrEqual(1);
    const left = await db.select().from(marketBiases).where(eq(marketBiases.marketId, q!.id));
    expect(left.map((b) => b.reason)).toContain('live');
    expect(left.map((b) => b.reason)).not.toContain('spent');
    // One hour on, the live bias has 0.8 × 0.9 = 0.72 of its strength: an NPC buys 28.8 of YES.
    const buys = await db
      .select({ amount: trades.amount, isActor: users.isActor })
      .from(trades)
      .innerJoin(users, eq(users.id, trades.userId))
      .where(and(eq(trades.marketId, q!.id), eq(trades.side, 'YES'), eq(trades.amount, '28.80000000')));
    expect(buys).toHaveLength(1);
    expect(buys[0]!.isActor).toBe(true);
  });

  it('resolves due questions from what happened in the world, and pays once', async () => {
    const db = await getDb();
    const [rule] = await db
      .select({ marketId: questionRules.marketId, organizationId: questionRules.organizationId, comparison: questionRules.comparison, threshold: questionRules.threshold, date: markets.resolutionDate })
      .from(questionRules)
      .innerJoin(markets, eq(markets.id, questionRules.marketId))
      .where(and(eq(questionRules.kind, 'price'), eq(markets.status, 'active')))
      .orderBy(asc(markets.resolutionDate))
      .limit(1);
    expect(rule).toBeDefined();
    // The player bets on the side the world will make true: push the price far past the threshold.
    const side = 'YES';
    const buy = await call(buyRoute, `/api/markets/predictions/${rule!.marketId}/buy`, {
      method: 'POST',
      token: await tokenFor(player),
      params: { id: rule!.marketId },
      body: { side: 'YES', amount: 100 },
    });
    expect(buy.status).toBe(200);
    const target = dec(rule!.threshold!).times(rule!.comparison === 'above' ? 3 : 0.3).toFixed(4);
    await db.update(organizations).set({ fairValue: target, currentPrice: target }).where(eq(organizations.id, rule!.organizationId!));

    const due = new Date(rule!.date.getTime() + 60_000).toISOString();
    const res = await tick(due);
    expect(res.status).toBe(200);
    expect(res.body.questions.resolved).toBeGreaterThanOrEqual(1);
    const [m] = await db.select().from(markets).where(eq(markets.id, rule!.marketId));
    expect(m).toMatchObject({ status: 'resolved', resolvedOutcome: side });
    // Pruning keeps a day of the event log by wall time: a jump in game time keeps the replay log.
    const firstNews = await db.select().from(eventLog).where(and(eq(eventLog.channel, 'breaking-news'), eq(eventLog.type, 'breaking_news')));
    expect(firstNews.some((e) => (e.data as { id: string }).id === `we-${T0.getTime().toString(36)}-0`)).toBe(true);

    const payouts = async () =>
      (await db.select().from(balanceTransactions).where(and(eq(balanceTransactions.userId, player.id), eq(balanceTransactions.type, 'pred_payout'))));
    expect(await payouts()).toHaveLength(1);
    // Every due question resolved; the active ones are topped up again.
    const overdue = (await activeQuestions()).filter((q) => q.resolutionDate.getTime() <= new Date(due).getTime());
    expect(overdue).toHaveLength(0);
    expect((await activeQuestions()).length).toBeGreaterThanOrEqual(10);

    // A later tick pays nothing again; the ledger still agrees with the balance.
    await tick(new Date(new Date(due).getTime() + HOUR).toISOString());
    expect(await payouts()).toHaveLength(1);
    const [u] = await db.select().from(users).where(eq(users.id, player.id));
    const [last] = await db.select().from(balanceTransactions).where(eq(balanceTransactions.userId, player.id)).orderBy(desc(balanceTransactions.createdAt), desc(balanceTransactions.id)).limit(1);
    expect(dec(u!.virtualBalance).eq(last!.balanceAfter)).toBe(true);
  });

  it('resolves an event question YES when the event happened and a seeded question from its price', async () => {
    const db = await getDb();
    const gameNow = new Date((await tick(await nextMinute())).body.gameTime as string);
    const [seeded] = await db.select().from(markets).where(eq(markets.id, 'seed-q-6'));
    expect(seeded!.status).toBe('active');
    const [q] = await db.select({ id: markets.id }).from(markets).where(eq(markets.text, 'Will the test event happen?'));
    expect(q).toBeUndefined();
    // An event question whose event happens inside its window.
    const [m] = await db
      .insert(markets)
      .values({ text: 'Will the test event happen?', yesShares: '500', noShares: '500', liquidity: '1000', resolutionDate: new Date(gameNow.getTime() + HOUR), createdAt: gameNow })
      .returning();
    await db.insert(questionRules).values({ marketId: m!.id, kind: 'event', organizationId: 'org-kldr', eventKind: 'partnership', createdAt: gameNow });
    await db.insert(worldEvents).values({ id: 'we-test-partnership', kind: 'partnership', title: 'Kaleido partners', content: '…', organizationId: 'org-kldr', createdAt: new Date(gameNow.getTime() + 60_000) });
    // seed-q-6 has no rule (like an admin's question): it resolves from its price.
    await db.update(markets).set({ resolutionDate: new Date(gameNow.getTime() + HOUR) }).where(eq(markets.id, 'seed-q-6'));
    await tick(new Date(gameNow.getTime() + 2 * HOUR).toISOString());
    const [event] = await db.select().from(markets).where(eq(markets.id, m!.id));
    const [seed] = await db.select().from(markets).where(eq(markets.id, 'seed-q-6'));
    expect(event).toMatchObject({ status: 'resolved', resolvedOutcome: 'YES' });
    // NPCs may trade it in the same tick: the outcome follows the reserves it resolved with.
    const yesPrice = dec(seed!.yesShares).div(dec(seed!.yesShares).plus(seed!.noShares));
    expect(seed).toMatchObject({ status: 'resolved', resolvedOutcome: yesPrice.gte(0.5) ? 'YES' : 'NO' });
  });
});

describe('a failing step', () => {
  it('is reported and the later steps still run', async () => {
    // Two accounts whose standings the tick's standings step must recompute.
    for (const [u, amount] of [[player, 7], [admin, 11]] as const) await withTransaction((tx) => applyPointsChange(tx, { userId: u.id, amount, reason: 'admin_award' }));
    npcFailure.on = true;
    try {
      const res = await tick(await nextMinute());
      expect(res.status).toBe(200);
      expect(res.body.errors).toEqual({ npc: 'npc step down' });
      expect(res.body.npc).toEqual({ posts: 0, replies: 0, likes: 0, shares: 0, trades: 0 });
      expect(res.body.questions.active).toBeGreaterThanOrEqual(10);
      const steps = Object.keys(res.body.timings);
      expect(steps.slice(0, 16)).toEqual(['funding', 'orders', 'news', 'prices', 'pricePoints', 'npc', 'pools', 'alerts', 'resolve', 'create', 'storylines', 'groups', 'selfDealing', 'identity', 'standings', 'leagues']);
      // Then the pruning of what is kept only for a while.
      expect(steps.slice(16)).toEqual(expect.arrayContaining(['prune', 'idempotencyKeys', 'a2aTasks', 'paymentRequests']));
      // The standing steps ran after the failure: the current season exists, as of game time.
      expect(res.body.leagues.season).toMatch(/^\d{4}-W\d{2}$/);
      // The standings step refreshed exactly the rows it stamped with this tick's time, the two
      // changed accounts among them, which now hold their new points (a failed step answers 0).
      const db = await getDb();
      const [stamped] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from standings where refreshed_at = ${res.body.gameTime}::timestamptz`));
      expect(res.body.standings.refreshed).toBe(stamped!.n);
      expect(res.body.standings.refreshed).toBeGreaterThanOrEqual(2);
      for (const u of [player, admin]) {
        const [row] = rowsOf<{ points: number; reputation_points: number; refreshed_at: Date | string; marked: boolean }>(
          await db.execute(sql`
            select s.points, u.reputation_points, s.refreshed_at, exists (select 1 from standings_dirty d where d.user_id = u.id) as marked
            from standings s join users u on u.id = s.user_id where s.user_id = ${u.id}`),
        );
        expect(row!.points).toBe(row!.reputation_points);
        expect(new Date(row!.refreshed_at).toISOString()).toBe(res.body.gameTime);
        expect(row!.marked).toBe(false);
      }
    } finally {
      npcFailure.on = false;
    }
  });
});

describe('GET|POST /api/game/control and GET /api/games', () => {
  it('answers 401 without a token, the status to players, 403 to a player starting it, 400 for an unknown action', async () => {
    expect((await call(controlGetRoute, '/api/game/control')).status).toBe(401);
    const token = await tokenFor(player);
    const status = await call(controlGetRoute, '/api/game/control', { token });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ success: true, status: 'running', paused: false });
    expect(status.body.tickCount).toBeGreaterThanOrEqual(3);
    expect(status.body.stats.activeQuestions).toBeGreaterThanOrEqual(10);
    expect(status.body.game).toEqual({ ...status.body, success: undefined, game: undefined, ...status.body.game });
    expect((await call(controlPostRoute, '/api/game/control', { method: 'POST', token, body: { action: 'pause' } })).status).toBe(403);
    expect((await call(controlPostRoute, '/api/game/control', { method: 'POST', body: { action: 'pause' } })).status).toBe(401);
    const bad = await call(controlPostRoute, '/api/game/control', { method: 'POST', token: await tokenFor(admin), body: { action: 'explode' } });
    expect(bad.status).toBe(400);
  });

  it('lists the one world publicly', async () => {
    const res = await call(gamesRoute, '/api/games');
    expect(res.status).toBe(200);
    expect(res.body.games).toHaveLength(1);
    expect(res.body.games[0]).toMatchObject({ id: 'main', status: 'running' });
    expect(res.body.games[0].stats.worldEvents).toBe(await count(worldEvents));
  });
});

describe('feed widgets on the living world', () => {
  it('breaking news lists the newest world events with the event fields', async () => {
    const res = await call(breakingNewsRoute, '/api/feed/widgets/breaking-news');
    expect(res.status).toBe(200);
    const newest = await (await getDb()).select().from(worldEvents).orderBy(desc(worldEvents.createdAt), desc(worldEvents.id)).limit(10);
    expect(res.body.news.map((n: { id: string }) => n.id)).toEqual(newest.map((e) => e.id));
    expect(res.body.news[0]).toMatchObject({ title: newest[0]!.title, relatedQuestions: newest[0]!.relatedQuestions });
  });

  it('upcoming events are the questions resolving soonest and the next funding; stats count the world', async () => {
    const up = await call(upcomingRoute, '/api/feed/widgets/upcoming-events');
    expect(up.status).toBe(200);
    const resolutions = up.body.events.filter((e: { type: string }) => e.type === 'resolution');
    expect(resolutions).toHaveLength(5);
    expect(up.body.events.some((e: { type: string }) => e.type === 'funding')).toBe(true);
    const stats = await call(statsRoute, '/api/feed/widgets/stats');
    expect(stats.status).toBe(200);
    expect(stats.body.stats.activeMarkets).toBe((await activeQuestions()).length);
  });
});

describe('the tick prunes what is kept only for a while', () => {
  it('A2A tasks after 24 hours, unpaid payment requests 24 hours after they expired; fresh ones and paid ones stay', async () => {
    const db = await getDb();
    const next = await nextMinute();
    const g = new Date(next).getTime();
    const task = (id: string, age: number) => ({ id, ownerId: player.id, contextId: 'ctx', state: 'completed' as const, method: 'a2a.getBalance', outcome: '{"result":{}}', createdAt: new Date(g - age) });
    await db.insert(a2aTasks).values([task('task-25h', 25 * HOUR), task('task-23h', 23 * HOUR), task('task-now', 0)]);
    const request = (id: string, status: 'pending' | 'paid', expiresIn: number) => ({
      id,
      payerId: player.id,
      recipientId: admin.id,
      amount: '1',
      service: 'pruning',
      status,
      expiresAt: new Date(g + expiresIn),
      createdAt: new Date(g + expiresIn - 15 * 60_000),
      ...(status === 'paid' ? { paidAt: new Date(g + expiresIn - 60_000) } : {}),
    });
    await db.insert(a2aPaymentRequests).values([
      request('pay-expired-25h', 'pending', -25 * HOUR),
      request('pay-expired-1h', 'pending', -HOUR),
      request('pay-open', 'pending', 10 * 60_000),
      request('pay-paid-48h', 'paid', -48 * HOUR),
    ]);
    const res = await tick(next);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.storagePruned).toMatchObject({ a2aTasks: 1, paymentRequests: 1 });
    expect((await db.select({ id: a2aTasks.id }).from(a2aTasks).orderBy(asc(a2aTasks.id))).map((r) => r.id)).toEqual(['task-23h', 'task-now']);
    expect((await db.select({ id: a2aPaymentRequests.id }).from(a2aPaymentRequests).orderBy(asc(a2aPaymentRequests.id))).map((r) => r.id)).toEqual([
      'pay-expired-1h',
      'pay-open',
      'pay-paid-48h',
    ]);
    // A second tick finds nothing more to prune.
    const again = await tick(await nextMinute());
    expect(again.body.storagePruned).toMatchObject({ a2aTasks: 0, paymentRequests: 0 });
  });
});

// Last in this file: it leaves the file's database behind for two fresh ones.
describe('determinism', () => {
  it('two fresh worlds with the same GAME_SEED and game times make the same news, prices, questions and posts', async () => {
    const runWorld = async () => {
      await switchToFreshDatabase('game');
      // Seeded at the same (pinned) time too: the seed's questions date from it.
      setFixedTime(new Date(T0.getTime() - HOUR));
      const db = await getDb();
      await seedWorld(db);
      for (let i = 0; i < 3; i++) await runGameTick({ now: new Date(T0.getTime() + i * 60_000).toISOString() });
      const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));
      return {
        events: await q(sql`select id, kind, title, content, organization_id, actor_id, impact::text, related_questions from world_events order by id`),
        prices: await q(sql`select o.ticker, o.fair_value::text, o.current_price::text, m.mark_price::text from organizations o join perp_markets m on m.ticker = o.ticker order by o.ticker`),
        questions: await q(sql`
          select m.text, m.resolution_date, m.yes_shares::text, r.kind, r.ticker, r.actor_id, r.event_kind, r.comparison, r.threshold::text
          from markets m left join question_rules r on r.market_id = m.id order by m.question_number`),
        posts: await q(sql`select author_id, content from posts order by created_at, author_id, content`),
        poolNavs: await q(sql`select pool_id, total_value::text, share_price::text, source, created_at from pool_nav_points order by pool_id, created_at, source`),
        poolPerps: await q(sql`
          select p.user_id, p.ticker, p.side, p.size::text, p.leverage::text, p.status from perp_positions p
          join users u on u.id = p.user_id where u.is_pool_account order by p.user_id, p.opened_at, p.ticker, p.side`),
      };
    };
    const a = await runWorld();
    const b = await runWorld();
    expect(a.events.length).toBeGreaterThanOrEqual(4);
    expect(a.questions.length).toBeGreaterThanOrEqual(10);
    // The pool managers traded, and each tick recorded a NAV point per pool (after the seed's).
    expect(a.poolPerps.length).toBeGreaterThanOrEqual(1);
    expect(a.poolNavs.filter((n) => (n as { source: string }).source === 'tick')).toHaveLength(3 * 4);
    expect(b).toEqual(a);
  }, 120_000); // two databases built from nothing: slow on a busy machine
});
