/**
 * Tick step: world events and breaking news. First the news the world drew: each event question
 * drawn YES (lib/game/outcomes.ts) whose moment has come gets the event that fulfils it (the
 * question resolves YES at the next tick). Then a few random events (usually none, one for sure
 * in a quiet world) from templates about organizations and actors, none of which fulfils an open
 * drawn question: a NO never happens, a YES only at its moment. All are written with the biases
 * they put on related questions and their `breaking_news` announcements in ONE transaction, and
 * handed to the later steps through ctx.newEvents (prices push fair values by their impact; NPCs
 * react).
 */
import { sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction, type DbOrTx } from '@/db/client';
import { marketBiases, markets, questionRules, worldEvents } from '@/db/schema';
import { emitEvents } from '@/lib/events/outbox';
import { insertWorldEvents } from '@/lib/world/events';
import { NEWS_BIAS_HOURS } from '../prices';
import { loadActors, loadOpenQuestions, loadOrganizations } from '../state';
import type { TTickContext, TWorldEvent } from '../types';
import { NEWS_CATCH_UP_MINUTES, planEventCount, planFulfillingEvent, planWorldEvent, relatedQuestions, type TBiasPlan, type TEventKind, type TEventRule } from '../world-rules';

/** A bias from news lasts NEWS_BIAS_HOURS (../prices.ts) and loses this fraction of its strength per hour. */
export const NEWS_BIAS_DECAY = '0.1';
/** Largest fair-value push per tick of a full-strength bias on a price question. */
export const NEWS_BIAS_PRICE_IMPACT = '0.01';

/** Drawn event questions announced per tick at most; the rest come at the next tick. */
const MAX_DRAWN_EVENTS = 20;

type TDrawnRow = { organization_id: string; actor_id: string | null; event_kind: string };

const toEventRule = (r: TDrawnRow): TEventRule => ({ kind: 'event', organizationId: r.organization_id, actorId: r.actor_id, eventKind: r.event_kind as TEventKind });

/**
 * Active event questions whose outcome the world drew and whose window (up to and including their
 * date) is still running: random news must not fulfil them.
 */
const loadReserved = async (db: DbOrTx, at: Date) =>
  rowsOf<TDrawnRow>(
    await db.execute(sql`
      select r.organization_id, r.actor_id, r.event_kind
      from ${markets} m join ${questionRules} r on r.market_id = m.id
      where m.status = 'active' and r.kind = 'event' and r.drawn_outcome is not null and m.resolution_date >= ${at.toISOString()}::timestamptz
      order by m.question_number`),
  ).map(toEventRule);

/**
 * Event questions drawn YES whose moment has come (event_at at or before `at`) and whose event has
 * not happened yet, oldest moment first. A question already past its date (game time jumped over
 * the moment) is among them: its event is dated at its moment, inside its window.
 */
const loadDueDrawnEvents = async (db: DbOrTx, at: Date) =>
  rowsOf<TDrawnRow & { question_number: number; resolution_date: string | Date; event_at: string | Date }>(
    await db.execute(sql`
      select m.question_number, m.resolution_date, r.organization_id, r.actor_id, r.event_kind, r.event_at
      from ${markets} m join ${questionRules} r on r.market_id = m.id
      where m.status = 'active' and r.kind = 'event' and r.drawn_outcome = 'YES' and r.event_at <= ${at.toISOString()}::timestamptz
        and not exists (
          select 1 from ${worldEvents} e
          where e.kind = r.event_kind and e.organization_id = r.organization_id and (r.actor_id is null or e.actor_id = r.actor_id)
            and e.created_at > m.created_at and e.created_at <= m.resolution_date)
      order by r.event_at, m.question_number
      limit ${MAX_DRAWN_EVENTS}`),
  );

export async function runNewsStep(ctx: TTickContext) {
  const db = await getDb();
  const rng = ctx.rng.fork('news');
  const at = ctx.at;
  const orgs = await loadOrganizations(db);
  const actors = await loadActors(db);
  const questions = await loadOpenQuestions(db, at);
  const reserved = await loadReserved(db, at);
  const drawn = await loadDueDrawnEvents(db, at);
  const [recent] = rowsOf<{ n: number | string }>(
    await db.execute(sql`select count(*) as n from ${worldEvents} where created_at > ${new Date(at.getTime() - 3_600_000).toISOString()}::timestamptz`),
  );
  const minutes = Math.min(Math.max(1, Math.floor(ctx.minutes ?? 1)), NEWS_CATCH_UP_MINUTES);
  const count = planEventCount(rng, Number(recent?.n ?? 0) === 0, minutes);

  const events: TWorldEvent[] = [];
  const biases: TBiasPlan[] = [];
  // The drawn events first, each from its own fork (so the random news below draws the same either way).
  for (const d of drawn) {
    const e = planFulfillingEvent(rng.fork(`question-${d.question_number}`), toEventRule(d), { orgs, actors });
    if (!e) continue;
    const due = new Date(d.resolution_date).getTime() <= at.getTime();
    const createdAt = due ? new Date(d.event_at) : at;
    const related = relatedQuestions(e, questions);
    events.push({ ...e, id: `we-${createdAt.getTime().toString(36)}-q${d.question_number}`, relatedQuestions: related.numbers, directions: related.directions, createdAt });
    biases.push(...related.biases);
  }
  for (let i = 0; i < count; i++) {
    const e = planWorldEvent(rng.fork(`event-${i}`), { orgs, actors, reserved });
    if (!e) continue;
    const related = relatedQuestions(e, questions);
    // Ids from game time: the same seed and time make the same rows, and a repeated tick at the
    // same game time finds them already there.
    events.push({ ...e, id: `we-${at.getTime().toString(36)}-${i}`, relatedQuestions: related.numbers, directions: related.directions, createdAt: at });
    biases.push(...related.biases);
  }
  if (!events.length) return { events: 0, biases: 0 };

  const written = await withTransaction(async (tx) => {
    const inserted = await insertWorldEvents(tx, events);
    if (!inserted.length) return [];
    if (biases.length) {
      await tx.insert(marketBiases).values(
        biases.map((b) => ({
          marketId: b.marketId,
          direction: b.direction,
          adjustment: b.adjustment.toFixed(6),
          priceImpact: NEWS_BIAS_PRICE_IMPACT,
          decayRate: NEWS_BIAS_DECAY,
          reason: 'news',
          expiresAt: new Date(at.getTime() + NEWS_BIAS_HOURS * 3_600_000),
          createdAt: at,
        })),
      );
    }
    const ids = new Set(inserted);
    const fresh = events.filter((e) => ids.has(e.id));
    await emitEvents(
      tx,
      'breaking-news',
      fresh.map((e) => ({
        type: 'breaking_news',
        data: { id: e.id, title: e.title, content: e.content, relatedQuestions: e.relatedQuestions, timestamp: e.createdAt.toISOString() },
      })),
    );
    return fresh;
  });
  ctx.newEvents.push(...written);
  return { events: written.length, biases: written.length ? biases.length : 0 };
}
