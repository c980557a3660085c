/**
 * Fair outcomes in the living world (issue 31, deliverable 1), through the real tick:
 *  - every question the tick asks is born with its probability, an event question with a drawn
 *    outcome (and a YES with the moment its event happens); no API answer shows the draw;
 *  - the news follows the draws: an event question drawn YES gets its news at its moment and
 *    resolves YES at the next tick; no other news fulfils an open drawn question, so one drawn NO
 *    sees no such news and resolves NO at its date;
 *  - a tick that jumps past a YES question's moment and date still publishes its news inside its
 *    window (dated at its moment) and resolves it YES.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as listRoute } from '@/app/api/markets/predictions/route';
import { GET as detailRoute } from '@/app/api/markets/predictions/[id]/route';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { resetEnvCache } from '@/lib/env';
import { createRuledQuestion } from '@/lib/game/steps/questions';
import { loadOpenQuestions } from '@/lib/game/state';
import { runGameTick } from '@/lib/game/tick';
import { ASKABLE_KINDS, collides, type TEventRule } from '@/lib/game/world-rules';
import { seedWorld } from '@/lib/world/seed/world';
import { ORGANIZATIONS } from '@/lib/world/seed/world-data';
import { call } from '@/test/http';

const SEED = 'outcomes-seed';
const T0 = new Date('2030-03-04T05:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await (await getDb()).execute(query));
const tick = async (at: Date) => {
  const r = (await runGameTick({ now: at.toISOString() })) as { errors?: Record<string, string>; skipped?: boolean };
  expect(r.errors).toBeUndefined();
  expect(r.skipped).toBe(false);
};

type TRuleRow = { market_id: string; question_number: number; kind: string; probability: string | null; drawn_outcome: string | null; event_at: string | Date | null; created_at: string | Date; resolution_date: string | Date };
const rules = () =>
  q<TRuleRow>(sql`
    select r.market_id, m.question_number, r.kind, r.probability::text as probability, r.drawn_outcome, r.event_at, m.created_at, m.resolution_date
    from question_rules r join markets m on m.id = r.market_id order by m.question_number`);

/** Asks an event question as the tick does, with the outcome (and moment) given. */
const ask = (rule: TEventRule, createdAt: Date, resolutionDate: Date, outcome: 'YES' | 'NO', eventAt: Date | null) =>
  withTransaction((tx) =>
    createRuledQuestion(tx, {
      text: `Will ${rule.organizationId} see ${rule.eventKind}?`,
      resolutionDate,
      rule,
      liquidity: 1000,
      at: createdAt,
      odds: { probability: 0.3, outcome, eventAt },
    }),
  );

beforeAll(async () => {
  process.env.GAME_SEED = SEED;
  process.env.ALLOW_TEST_CLOCK = '1';
  resetEnvCache();
  resetClock();
  setFixedTime(new Date(T0.getTime() - HOUR));
  await seedWorld(await getDb());
}, 120_000);

afterAll(() => {
  delete process.env.GAME_SEED;
  delete process.env.ALLOW_TEST_CLOCK;
  resetEnvCache();
  resetClock();
});

describe('fair outcomes in the tick', () => {
  it('asks every question with its probability, an event question with its draw, and no answer shows the draw', async () => {
    await tick(T0);
    const asked = (await rules()).filter((r) => new Date(r.created_at).getTime() === T0.getTime());
    expect(asked.length).toBeGreaterThanOrEqual(4);
    for (const r of asked) {
      expect(Number(r.probability), r.market_id).toBeGreaterThan(0);
      expect(Number(r.probability), r.market_id).toBeLessThan(1);
      if (r.kind === 'price') expect([r.drawn_outcome, r.event_at]).toEqual([null, null]);
      else {
        expect(['YES', 'NO']).toContain(r.drawn_outcome);
        if (r.drawn_outcome === 'NO') expect(r.event_at).toBeNull();
        else {
          const e = new Date(r.event_at!).getTime();
          expect(e).toBeGreaterThan(T0.getTime());
          expect(e).toBeLessThanOrEqual(new Date(r.resolution_date).getTime() - HOUR);
        }
      }
    }
    // The seed's SOLR question is a price rule on its ticker (never its own market).
    const [solr] = await q<{ kind: string; ticker: string; threshold: string; text: string }>(sql`
      select r.kind, r.ticker, r.threshold::text as threshold, m.text from question_rules r join markets m on m.id = r.market_id where m.id = 'seed-q-5'`);
    expect(solr).toMatchObject({ kind: 'price', ticker: 'SOLR' });
    expect(Number(solr!.threshold)).toBe(40);
    expect(solr!.text).toMatch(/^Will \$SOLR close above 40 by \w{3}, \w{3} \d{1,2}\?$/);

    // No key of any answer carries the odds or the draw (the criteria's words may say a draw exists).
    const hidden = /"(drawn\w*|event_?at|probability)"\s*:/i;
    const list = await call(listRoute, '/api/markets/predictions', { query: { limit: '100' } });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toMatch(hidden);
    for (const r of asked) {
      const detail = await call(detailRoute, `/api/markets/predictions/${r.market_id}`, { params: { id: r.market_id } });
      expect(detail.status).toBe(200);
      expect(JSON.stringify(detail.body)).not.toMatch(hidden);
    }
  });

  it('makes the news follow the draws: YES at its moment and resolved at the next tick, NO never, resolved NO at its date', async () => {
    const db = await getDb();
    const start = new Date(T0.getTime() + MIN);
    setFixedTime(start);
    const end = new Date(T0.getTime() + 2 * HOUR);
    // Every event question the game could ask about every organization, unless one already open
    // could be settled by the same news: one drawn YES (its news 25 minutes in), the rest NO, so
    // nearly every kind of news is reserved and a random event that ignored the draws would hit one.
    const taken = (await loadOpenQuestions(db, start)).map((o) => o.rule).filter((r): r is TEventRule => r?.kind === 'event');
    const mine: { id: string; rule: TEventRule; outcome: 'YES' | 'NO' }[] = [];
    for (const o of ORGANIZATIONS) {
      for (const eventKind of ASKABLE_KINDS) {
        const rule: TEventRule = { kind: 'event', organizationId: o.id, actorId: null, eventKind };
        if (taken.some((t) => collides(t, rule))) continue;
        const outcome = mine.length === 0 ? 'YES' : 'NO';
        mine.push({ id: await ask(rule, start, end, outcome, outcome === 'YES' ? new Date(start.getTime() + 25 * MIN) : null), rule, outcome });
      }
    }
    expect(mine.length).toBeGreaterThan(30);
    const yes = mine[0]!;
    const [{ question_number: yesNumber } = { question_number: 0 }] = await q<{ question_number: number }>(sql`select question_number from markets where id = ${yes.id}`);

    const times = Array.from({ length: 8 }, (_, i) => new Date(T0.getTime() + (i + 1) * 15 * MIN));
    const statusAt: string[] = [];
    for (const t of times) {
      await tick(t);
      const [m] = await q<{ status: string; resolved_outcome: string | null }>(sql`select status, resolved_outcome from markets where id = ${yes.id}`);
      statusAt.push(`${m!.status}:${m!.resolved_outcome ?? ''}`);
    }
    // Its news at the first tick at or after its moment (the 30-minute tick), paid at the next one.
    const [news] = await q<{ id: string; created_at: string | Date }>(sql`select id, created_at from world_events where id like ${`%-q${Number(yesNumber)}`}`);
    expect(new Date(news!.created_at).toISOString()).toBe(times[1]!.toISOString());
    expect(statusAt.slice(0, 2)).toEqual(['active:', 'active:']);
    expect(statusAt[2]).toBe('resolved:YES');

    // No news but the drawn one fulfilled an open drawn question before its moment, and the world
    // kept making other news meanwhile.
    const broken = await q<{ id: string; kind: string; market_id: string; drawn_outcome: string }>(sql`
      select e.id, e.kind, r.market_id, r.drawn_outcome from world_events e
        join question_rules r on r.kind = 'event' and r.event_kind = e.kind and r.organization_id = e.organization_id
          and (r.actor_id is null or r.actor_id = e.actor_id)
        join markets m on m.id = r.market_id
      where e.id like 'we-%' and r.drawn_outcome is not null
        and e.created_at > m.created_at and e.created_at <= m.resolution_date
        and (r.drawn_outcome = 'NO' or e.created_at < r.event_at)`);
    expect(broken).toEqual([]);
    const [other] = await q<{ n: number }>(sql`
      select count(*)::int as n from world_events where id like 'we-%' and id not like '%-q%' and created_at > ${start.toISOString()}::timestamptz`);
    expect(other!.n).toBeGreaterThanOrEqual(3);

    // At the date every NO resolves NO, by its draw.
    await tick(new Date(end.getTime() + MIN));
    const after = await q<{ id: string; status: string; resolved_outcome: string | null }>(sql`
      select id, status, resolved_outcome from markets where id in (${sql.join(
        mine.map((m) => sql`${m.id}`),
        sql`, `,
      )})`);
    for (const m of mine) expect(after.find((a) => a.id === m.id), m.rule.eventKind).toMatchObject({ status: 'resolved', resolved_outcome: m.outcome });
  }, 240_000);

  it('publishes a YES question’s news inside its window, dated at its moment, when game time jumps past its date', async () => {
    const db = await getDb();
    const start = new Date(T0.getTime() + 3 * HOUR);
    setFixedTime(start);
    const open = (await loadOpenQuestions(db, start)).map((o) => o.rule).filter((r): r is TEventRule => r?.kind === 'event');
    const rule = ORGANIZATIONS.flatMap((o) => ASKABLE_KINDS.map((eventKind): TEventRule => ({ kind: 'event', organizationId: o.id, actorId: null, eventKind }))).find(
      (r) => !open.some((t) => collides(t, r)),
    )!;
    const moment = new Date(start.getTime() + 20 * MIN);
    const id = await ask(rule, start, new Date(start.getTime() + 2 * HOUR), 'YES', moment);
    await tick(new Date(start.getTime() + 5 * HOUR));
    const [n] = await q<{ question_number: number }>(sql`select question_number from markets where id = ${id}`);
    const [news] = await q<{ kind: string; organization_id: string; created_at: string | Date }>(sql`
      select kind, organization_id, created_at from world_events where id like ${`%-q${Number(n!.question_number)}`}`);
    expect(news).toMatchObject({ kind: rule.eventKind, organization_id: rule.organizationId });
    expect(new Date(news!.created_at).toISOString()).toBe(moment.toISOString());
    const [m] = await q<{ status: string; resolved_outcome: string }>(sql`select status, resolved_outcome from markets where id = ${id}`);
    expect(m).toMatchObject({ status: 'resolved', resolved_outcome: 'YES' });
  }, 120_000);
});
