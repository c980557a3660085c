import { asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as calibrationRoute } from '@/app/api/actors/[actorId]/calibration/route';
import { GET as leaderboardRoute } from '@/app/api/actors/calibration/route';
import { POST as tickRoute } from '@/app/api/cron/game-tick/route';
import { GET as storyRoute } from '@/app/api/markets/predictions/[id]/story/route';
import { GET as tickerStoryRoute } from '@/app/api/markets/perps/tickers/[ticker]/story/route';
import { GET as postsRoute } from '@/app/api/posts/route';
import { getDb, rowsOf } from '@/db/client';
import { markets, npcCalibration, npcCalls, posts, questionRules, storylineBeats, storylines, worldEvents } from '@/db/schema';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import type { TStory } from '@/lib/contracts/storylines';
import { env, resetEnvCache } from '@/lib/env';
import { publishDueBeats, publishResolved } from '@/lib/game/storylines/service';
import { readGameClock } from '@/lib/game/tick';
import { seedWorld } from '@/lib/world/seed/world';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { call } from '@/test/http';

const SEED = 'story-test-seed';
const HOUR = 3_600_000;
const T0 = new Date('2030-03-04T05:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const tick = (now: string) => call(tickRoute, '/api/cron/game-tick', { method: 'POST', token: env().cronSecret, body: { now } });
const story = async (id: string) => {
  const res = await call(storyRoute, `/api/markets/predictions/${id}/story`, { params: { id } });
  expect(res.status).toBe(200);
  return res.body.story as TStory;
};

beforeAll(async () => {
  process.env.GAME_SEED = SEED;
  process.env.ALLOW_TEST_CLOCK = '1';
  resetEnvCache();
  resetClock();
  setFixedTime(new Date(T0.getTime() - HOUR));
  await seedWorld(await getDb());
});

afterAll(() => {
  delete process.env.GAME_SEED;
  delete process.env.ALLOW_TEST_CLOCK;
  resetEnvCache();
  resetClock();
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

let target: { marketId: string; resolutionDate: Date };

describe('storylines', () => {
  it('gives every question the tick creates a storyline of 4 to 9 beats inside its life', async () => {
    const res = await tick(iso(T0.getTime()));
    expect(res.status).toBe(200);
    expect(res.body.timings).toHaveProperty('storylines');
    const db = await getDb();
    // The tick's questions (the seed's were asked before storylines).
    const ruled = await db
      .select({ id: markets.id, created: markets.createdAt, end: markets.resolutionDate })
      .from(markets)
      .innerJoin(questionRules, eq(questionRules.marketId, markets.id))
      .where(eq(markets.createdAt, T0));
    expect(res.body.questions.created).toBeGreaterThan(0);
    expect(ruled.length).toBe(res.body.questions.created);
    const stories = await db.select().from(storylines);
    for (const q of ruled) {
      const s = stories.find((x) => x.marketId === q.id);
      expect(s, q.id).toBeTruthy();
      const beats = await db.select().from(storylineBeats).where(eq(storylineBeats.storylineId, s!.id)).orderBy(asc(storylineBeats.seq));
      expect(beats.length).toBeGreaterThanOrEqual(4);
      expect(beats.length).toBeLessThanOrEqual(9);
      for (const b of beats) {
        expect(b.at.getTime()).toBeGreaterThanOrEqual(q.created.getTime());
        expect(b.at.getTime()).toBeLessThan(q.end.getTime());
      }
    }
    // The soonest question to resolve is the one we follow.
    const soonest = [...ruled].sort((a, b) => a.end.getTime() - b.end.getTime())[0]!;
    target = { marketId: soonest.id, resolutionDate: soonest.end };
  });

  it('publishes beats as time passes: posts and news dated at the beat, the story showing only landed beats, no roles', async () => {
    const db = await getDb();
    const [s] = await db.select().from(storylines).where(eq(storylines.marketId, target.marketId));
    const beats = await db.select().from(storylineBeats).where(eq(storylineBeats.storylineId, s!.id)).orderBy(asc(storylineBeats.seq));
    const mid = beats[Math.floor(beats.length / 2)]!;
    // Tick just after the middle beat (a later minute than the last tick).
    const last = (await readGameClock())!.lastTickAt.getTime();
    const when = Math.max(last + 60_000, mid.at.getTime() + 60_000);
    expect(when).toBeLessThan(target.resolutionDate.getTime());
    const res = await tick(iso(when));
    expect(res.status).toBe(200);
    expect(res.body.storylines.beats).toBeGreaterThan(0);
    const after = await db.select().from(storylineBeats).where(eq(storylineBeats.storylineId, s!.id)).orderBy(asc(storylineBeats.seq));
    const landed = after.filter((b) => b.at.getTime() <= when);
    expect(landed.length).toBeGreaterThan(0);
    for (const b of after) expect(b.publishedAt !== null).toBe(b.at.getTime() <= when);
    for (const b of landed) {
      if (b.actorId) {
        const [p] = await db.select().from(posts).where(eq(posts.id, b.postId!));
        expect(p).toMatchObject({ authorId: b.actorId, content: b.body, relatedQuestionId: target.marketId });
        expect(p!.createdAt.getTime()).toBe(b.at.getTime());
      } else {
        const [e] = await db.select().from(worldEvents).where(eq(worldEvents.id, b.worldEventId!));
        expect(e).toMatchObject({ kind: b.kind, title: b.headline, organizationId: s!.organizationId });
        expect(e!.createdAt.getTime()).toBe(b.at.getTime());
      }
      expect(b.body).not.toMatch(/\b(bought|sold|opened|closed)\b/i);
    }
    // Shocks moved their organization's fundamental value; publishing again does nothing.
    const shocked = rowsOf<{ organization_id: string; fundamental_value: string | null }>(
      await db.execute(sql`select distinct s.organization_id, o.fundamental_value::text as fundamental_value
        from storyline_beats b join storylines s on s.id = b.storyline_id join organizations o on o.id = s.organization_id
        where b.published_at is not null and b.impact <> 0`),
    );
    for (const o of shocked) expect(o.fundamental_value).not.toBeNull();
    expect((await publishDueBeats(db, new Date(when))).beats).toBe(0);
    // Calls for the actors' beats with a direction.
    const calls = await db.select().from(npcCalls).where(eq(npcCalls.marketId, target.marketId));
    expect(calls.length).toBe(landed.filter((b) => b.actorId && b.direction).length);

    const st = await story(target.marketId);
    expect(st).toMatchObject({ status: 'developing', outcome: null, calls: [], marketId: target.marketId });
    expect(st.beats.map((b) => b.seq)).toEqual(landed.map((b) => b.seq));
    for (const b of st.beats) expect([b.role, b.truthful]).toEqual([null, null]);
    // Nothing in the answer gives the plan away.
    expect(JSON.stringify(st)).not.toMatch(/insider|deceiver|misdirection|truth"/);

    const org = await db.execute(sql`select ticker from organizations where id = ${s!.organizationId}`);
    const ticker = rowsOf<{ ticker: string }>(org)[0]!.ticker;
    const byTicker = await call(tickerStoryRoute, `/api/markets/perps/tickers/${ticker}/story`, { params: { ticker } });
    expect(byTicker.status).toBe(200);
    expect(byTicker.body.developing.map((x: TStory) => x.marketId)).toContain(target.marketId);
  });

  it('publishes the whole story when its question resolves, with calls and right flags', async () => {
    const db = await getDb();
    const res = await tick(iso(target.resolutionDate.getTime() + 60_000));
    expect(res.status).toBe(200);
    const [m] = await db.select().from(markets).where(eq(markets.id, target.marketId));
    expect(m!.status).toBe('resolved');
    const st = await story(target.marketId);
    expect(st.status).toBe('published');
    expect(st.outcome).toBe(m!.resolvedOutcome);
    const [s] = await db.select().from(storylines).where(eq(storylines.marketId, target.marketId));
    const all = await db.select().from(storylineBeats).where(eq(storylineBeats.storylineId, s!.id));
    expect(st.beats.length).toBe(all.length);
    for (const b of st.beats) expect(b.role).not.toBeNull();
    expect(st.calls.length).toBeGreaterThan(0);
    for (const c of st.calls) expect(c.right).toBe(c.probability >= 0.5 === (st.outcome === 'YES'));
    // An event question's insiders were right, its deceivers wrong.
    if (s!.truth) {
      for (const b of st.beats.filter((x) => x.role === 'insider' && x.actor)) expect(b.direction).toBe(st.outcome);
      for (const b of st.beats.filter((x) => x.role === 'deceiver' && x.actor)) expect(b.direction).not.toBe(st.outcome);
    }
    const [cal] = await db.select().from(npcCalibration).where(eq(npcCalibration.userId, st.calls[0]!.actor.id));
    expect(cal!.resolved).toBeGreaterThanOrEqual(1);
  });

  it('ranks an insider above a deceiver by calibration', async () => {
    const db = await getDb();
    // Ten days on, the first questions have all resolved.
    expect((await tick(iso(T0.getTime() + 10 * 24 * HOUR))).status).toBe(200);
    // Three resolved questions; one NPC called each as an insider would, another as a deceiver.
    const resolved = await db.select().from(markets).where(eq(markets.status, 'resolved')).orderBy(asc(markets.questionNumber));
    const three = resolved.filter((m) => m.resolvedOutcome).slice(0, 3);
    expect(three.length).toBe(3);
    const [insider, deceiver] = ['actor-ada_vance', 'actor-marcus_reed'];
    const rows = rowsOf<{ id: string }>(await db.execute(sql`select user_id as id from actors where user_id in (${insider}, ${deceiver})`));
    expect(rows.length).toBe(2);
    await db.delete(npcCalls).where(inArray(npcCalls.userId, [insider!, deceiver!]));
    await db.insert(npcCalls).values(
      three.flatMap((m, i) => {
        const yes = m.resolvedOutcome === 'YES';
        const calledAt = new Date(m.resolvedAt!.getTime() - HOUR);
        return [
          { id: `t-in-${i}`, userId: insider!, marketId: m.id, probability: yes ? '0.85' : '0.15', source: 'beat', calledAt },
          { id: `t-de-${i}`, userId: deceiver!, marketId: m.id, probability: yes ? '0.2' : '0.8', source: 'beat', calledAt },
        ];
      }),
    );
    // Their stories publish again: the calibration of their callers is recomputed.
    await db.execute(sql`update storylines set published_at = null where market_id in (${sql.join(three.map((m) => sql`${m.id}`), sql`, `)})`);
    await db.execute(sql`insert into storylines (id, market_id, title, theme, plan, starts_at, ends_at, created_at)
      select 'st-' || m.id, m.id, 't', 'market', '{}'::jsonb, m.created_at, m.resolution_date, m.created_at from markets m
      where m.id in (${sql.join(three.map((m) => sql`${m.id}`), sql`, `)}) on conflict do nothing`);
    await publishResolved(db, new Date((await readGameClock())!.lastTickAt));

    const a = await call(calibrationRoute, `/api/actors/${insider}/calibration`, { params: { actorId: insider! } });
    const b = await call(calibrationRoute, `/api/actors/${deceiver}/calibration`, { params: { actorId: deceiver! } });
    expect(a.status).toBe(200);
    expect(a.body.calibration).toMatchObject({ resolved: 3, right: 3 });
    expect(b.body.calibration).toMatchObject({ resolved: 3, right: 0 });
    expect(a.body.calibration.brier).toBeCloseTo(0.0225, 6);
    expect(b.body.calibration.brier).toBeCloseTo(0.64, 6);
    expect(a.body.calibration.rank).toBeLessThan(b.body.calibration.rank);
    expect(a.body.recent).toHaveLength(3);
    for (const r of a.body.recent) expect(r.right).toBe(true);

    const board = await call(leaderboardRoute, '/api/actors/calibration?limit=100', {});
    expect(board.status).toBe(200);
    const ids = board.body.actors.map((x: { id: string }) => x.id);
    expect(ids.indexOf(insider)).toBeLessThan(ids.indexOf(deceiver));
    for (let i = 1; i < board.body.actors.length; i++) expect(board.body.actors[i].brier).toBeGreaterThanOrEqual(board.body.actors[i - 1].brier);

    // Their posts' author objects carry the calibration.
    const t = (await readGameClock())!.lastTickAt;
    await db.insert(posts).values({ id: 'cal-post', authorId: insider!, content: 'hello world', createdAt: t, updatedAt: t });
    const feed = await call(postsRoute, `/api/posts?userId=${insider}&limit=5`, {});
    expect(feed.status).toBe(200);
    const mine = feed.body.posts.find((p: { id: string }) => p.id === 'cal-post');
    expect(mine.author.calibration).toEqual({ brier: 0.0225, resolved: 3 });
  });

  it('answers 404 for unknown questions, tickers and actors', async () => {
    expect((await call(storyRoute, '/api/markets/predictions/nope/story', { params: { id: 'nope' } })).status).toBe(404);
    expect((await call(tickerStoryRoute, '/api/markets/perps/tickers/NOPE/story', { params: { ticker: 'NOPE' } })).status).toBe(404);
    expect((await call(calibrationRoute, '/api/actors/nope/calibration', { params: { actorId: 'nope' } })).status).toBe(404);
  });
});
