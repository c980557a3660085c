/**
 * Storylines in the database (issue 34): each game question is created with its storyline
 * (`createStoryline`, in the question's transaction); the tick's `storylines` step (and the
 * backfill, once at its end) publishes the beats whose time came (`publishDueBeats`): an NPC post by
 * the beat's actor, or a world event for press and company beats, each dated at the beat's time;
 * an NPC call for every beat by an actor with a direction; a beat's impact on its organization's
 * fundamental value (a beat moves its market through that and the traders who read it, never a
 * bias of its own: the backfill could not replay one, and its past would trade less than the
 * live world). When a question
 * resolves, its storyline is published whole and the callers' calibration recomputed
 * (`publishResolved`).
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { rowsOf, unnestSql, type DbOrTx, type Tx } from '@/db/client';
import { markets, npcCalibration, npcCalls, organizations, posts, storylineBeats, storylines } from '@/db/schema';
import { emitEvents } from '@/lib/events/outbox';
import { env } from '@/lib/env';
import { insertWorldEvents } from '@/lib/world/events';
import type { TQuestionOdds } from '../outcomes';
import { createRng } from '../rng';
import { loadActors } from '../state';
import { planStoryline, type TStoryRule } from './plan';

/** Due beats published per call at most (the next tick continues). */
const MAX_BEATS = 500;

export function storylineId(marketId: string) {
  return `st-${marketId}`;
}

/**
 * The storyline of a new question and its beats, in the caller's transaction. Deterministic:
 * seeded by GAME_SEED, the question's text and its time.
 */
export async function createStoryline(
  tx: Tx,
  q: { marketId: string; text: string; rule: TStoryRule; odds: TQuestionOdds | null; at: Date; resolutionDate: Date },
): Promise<string | null> {
  const orgIds = [q.rule.organizationId, ...(q.rule.rivalOrganizationId ? [q.rule.rivalOrganizationId] : [])];
  const orgRows = rowsOf<{ id: string; name: string; ticker: string }>(
    await tx.execute(sql`select id, name, ticker from ${organizations} where id in (${sql.join(
      orgIds.map((id) => sql`${id}`),
      sql`, `,
    )}) order by ticker`),
  );
  const org = orgRows.find((o) => o.id === q.rule.organizationId);
  if (!org) return null;
  const actors = await loadActors(tx);
  const rng = createRng(`${env().gameSeed}:story:${q.text}:${q.at.toISOString()}`);
  const story = planStoryline(rng, {
    text: q.text,
    rule: q.rule,
    odds: q.odds,
    createdAt: q.at,
    resolutionDate: q.resolutionDate,
    org,
    others: orgRows.filter((o) => o.id !== org.id),
    actors,
  });
  const id = storylineId(q.marketId);
  await tx.insert(storylines).values({
    id,
    marketId: q.marketId,
    organizationId: org.id,
    otherOrganizationIds: orgRows.filter((o) => o.id !== org.id).map((o) => o.id),
    title: story.title,
    theme: story.theme,
    truth: story.truth,
    plan: { ...story.plan, calls: Object.fromEntries(story.beats.filter((b) => b.probability !== null).map((b) => [b.seq, b.probability])) },
    startsAt: q.at,
    endsAt: q.resolutionDate,
    createdAt: q.at,
  });
  if (story.beats.length) {
    await tx.insert(storylineBeats).values(
      story.beats.map((b) => ({
        id: `${id}-${b.seq}`,
        storylineId: id,
        seq: b.seq,
        at: b.at,
        kind: b.kind,
        headline: b.headline,
        body: b.body,
        actorId: b.actorId,
        role: b.role,
        direction: b.direction,
        truthful: b.truthful,
        impact: b.impact.toFixed(6),
      })),
    );
  }
  return id;
}

type TDueBeat = {
  id: string;
  storyline_id: string;
  seq: number;
  at: string | Date;
  kind: string;
  headline: string;
  body: string;
  actor_id: string | null;
  role: string;
  direction: 'YES' | 'NO' | null;
  impact: string;
  market_id: string;
  question_number: number;
  market_status: string;
  organization_id: string | null;
  probability: string | null;
};

const iso = (d: string | Date) => new Date(d).toISOString();

/**
 * Publishes the beats due at `at` (their time reached, not yet published), oldest first: posts
 * and world events dated at each beat's time, calls, fundamental shocks, then marks them.
 */
export async function publishDueBeats(db: DbOrTx, at: Date, opts: { deadline?: number } = {}) {
  // One transaction: a shock is applied once, with the beat it comes from marked.
  return db.transaction((tx) => publishBeats(tx, at, opts));
}

const publishBeats = async (db: Tx, at: Date, opts: { deadline?: number }) => {
  const ts = sql`${at.toISOString()}::timestamptz`;
  const due = rowsOf<TDueBeat>(
    await db.execute(sql`
      select b.id, b.storyline_id, b.seq, b.at, b.kind, b.headline, b.body, b.actor_id, b.role, b.direction, b.impact::text as impact,
        s.market_id, m.question_number, m.status as market_status, s.organization_id, s.plan -> 'calls' ->> (b.seq::text) as probability
      from ${storylineBeats} b join ${storylines} s on s.id = b.storyline_id join ${markets} m on m.id = s.market_id
      where b.published_at is null and b.at <= ${ts}
      order by b.at, b.id
      limit ${MAX_BEATS}`),
  );
  if (!due.length || (opts.deadline !== undefined && performance.now() > opts.deadline)) return { beats: 0, posts: 0, events: 0, calls: 0, shocks: 0 };

  const postBeats = due.filter((b) => b.actor_id !== null);
  const newsBeats = due.filter((b) => b.actor_id === null);
  const postId = (b: TDueBeat) => `sp-${b.id}`;
  // Ids from game time and the question's number (not its random id): the same world makes the same news.
  const eventId = (b: TDueBeat) => `ws-${new Date(b.at).getTime().toString(36)}-s${b.question_number}-${b.seq}`;

  // 1. Posts by the actors, dated at the beat.
  if (postBeats.length) {
    const v = unnestSql('v', {
      id: postBeats.map(postId),
      author_id: postBeats.map((b) => b.actor_id),
      content: postBeats.map((b) => b.body),
      market_id: postBeats.map((b) => b.market_id),
      at: postBeats.map((b) => iso(b.at)),
    });
    await db.execute(sql`
      insert into ${posts} (id, author_id, type, content, related_question_id, created_at, updated_at)
      select v.id, v.author_id, 'post', v.content, v.market_id, v.at::timestamptz, v.at::timestamptz from ${v}
      on conflict (id) do nothing`);
  }
  // 2. News for press and company beats (announced like the news step's).
  const inserted = new Set(
    await insertWorldEvents(
      db,
      newsBeats.map((b) => ({
        id: eventId(b),
        kind: b.kind,
        title: b.headline,
        content: b.body,
        organizationId: b.organization_id,
        actorId: null,
        impact: Number(b.impact),
        relatedQuestions: [Number(b.question_number)],
        createdAt: new Date(b.at),
      })),
    ),
  );
  const fresh = newsBeats.filter((b) => inserted.has(eventId(b)));
  await emitEvents(
    db,
    'breaking-news',
    fresh.map((b) => ({
      type: 'breaking_news',
      data: { id: eventId(b), title: b.headline, content: b.body, relatedQuestions: [Number(b.question_number)], timestamp: iso(b.at) },
    })),
  );
  // 3. Calls: every beat by an actor with a stated probability.
  const calls = postBeats.filter((b) => b.probability !== null);
  if (calls.length) {
    const v = unnestSql('v', {
      id: calls.map((b) => `call-${b.id}`),
      user_id: calls.map((b) => b.actor_id),
      market_id: calls.map((b) => b.market_id),
      probability: calls.map((b) => b.probability),
      beat_id: calls.map((b) => b.id),
      post_id: calls.map(postId),
      at: calls.map((b) => iso(b.at)),
    });
    await db.execute(sql`
      insert into ${npcCalls} (id, user_id, market_id, probability, source, beat_id, post_id, called_at)
      select v.id, v.user_id, v.market_id, round(v.probability::numeric, 4), 'beat', v.beat_id, v.post_id, v.at::timestamptz from ${v}
      on conflict (id) do nothing`);
  }
  // 4. Fundamental shocks: each organization's value times the product of its beats' (1 + impact).
  const factor = new Map<string, number>();
  // Only while its question is open: a question already resolved (the backfill's past) made its history without it.
  for (const b of due) {
    if (b.market_status !== 'active') continue;
    const x = Number(b.impact);
    if (x && b.organization_id) factor.set(b.organization_id, (factor.get(b.organization_id) ?? 1) * (1 + x));
  }
  if (factor.size) {
    const v = unnestSql('v', { id: [...factor.keys()], f: [...factor.values()].map((f) => f.toFixed(8)) });
    await db.execute(sql`
      update ${organizations} o set fundamental_value = round(coalesce(o.fundamental_value, o.fair_value, o.current_price) * v.f::numeric, 8)
      from ${v} where o.id = v.id`);
  }
  // 6. Marked published, with what they became.
  const v = unnestSql('v', {
    id: due.map((b) => b.id),
    post_id: due.map((b) => (b.actor_id ? postId(b) : null)),
    event_id: due.map((b) => (b.actor_id ? null : eventId(b))),
    at: due.map((b) => iso(b.at)),
  });
  await db.execute(sql`
    update ${storylineBeats} b set published_at = v.at::timestamptz, post_id = v.post_id, world_event_id = v.event_id
    from ${v} where b.id = v.id`);
  return { beats: due.length, posts: postBeats.length, events: fresh.length, calls: calls.length, shocks: factor.size };
};

/**
 * Storylines whose question resolved are published (their outcome with them), and the
 * calibration of every NPC who called one of them recomputed from all its resolved calls: the
 * last call per question before it resolved; Brier = mean (p − y)², right = (p ≥ ½) = (y = 1).
 */
export async function publishResolved(db: DbOrTx, at: Date) {
  // One transaction: a story is published with its callers' calibration, or not at all.
  return db.transaction((tx) => publishStories(tx, at));
}

const publishStories = async (db: Tx, at: Date) => {
  const ts = sql`${at.toISOString()}::timestamptz`;
  const published = rowsOf<{ market_id: string }>(
    await db.execute(sql`
      update ${storylines} s set published_at = ${ts}, outcome = m.resolved_outcome
      from ${markets} m
      where m.id = s.market_id and m.status = 'resolved' and m.resolved_outcome is not null and s.published_at is null
      returning s.market_id`),
  );
  if (!published.length) return { published: 0, calibrated: 0 };
  const ids = sql.join(
    published.map((p) => sql`${p.market_id}`),
    sql`, `,
  );
  const calibrated = rowsOf<{ user_id: string }>(
    await db.execute(sql`
      insert into ${npcCalibration} (user_id, resolved, "right", brier, updated_at)
      select c.user_id, count(*)::int, (count(*) filter (where (c.p >= 0.5) = (c.y = 1)))::int, round(avg((c.p - c.y) * (c.p - c.y)), 6), ${ts}
      from (
        select distinct on (nc.user_id, nc.market_id) nc.user_id, nc.probability as p, case when m.resolved_outcome = 'YES' then 1 else 0 end as y
        from ${npcCalls} nc join ${markets} m on m.id = nc.market_id
        where m.status = 'resolved' and m.resolved_outcome is not null
          and nc.called_at <= coalesce(m.resolved_at, m.resolution_date)
          and nc.user_id in (select distinct user_id from ${npcCalls} where market_id in (${ids}))
        order by nc.user_id, nc.market_id, nc.called_at desc, nc.id desc
      ) c
      group by c.user_id
      on conflict (user_id) do update set resolved = excluded.resolved, "right" = excluded."right", brier = excluded.brier, updated_at = excluded.updated_at
      returning user_id`),
  );
  return { published: published.length, calibrated: calibrated.length };
};
