/**
 * Tick step: world events and breaking news. Plans a few events (usually none, one for sure in a
 * quiet world) from templates about organizations and actors, writes them with the biases they put
 * on related questions and their `breaking_news` announcements in ONE transaction, and hands them
 * to the later steps through ctx.newEvents (prices push fair values by their impact; NPCs react).
 */
import { sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { marketBiases, worldEvents } from '@/db/schema';
import { emitEvents } from '@/lib/events/outbox';
import { insertWorldEvents } from '@/lib/world/events';
import { loadActors, loadOpenQuestions, loadOrganizations } from '../state';
import type { TTickContext, TWorldEvent } from '../types';
import { planEventCount, planWorldEvent, relatedQuestions, type TBiasPlan } from '../world-rules';

/** A bias from news lasts this long and loses this fraction of its strength per hour. */
export const NEWS_BIAS_HOURS = 6;
export const NEWS_BIAS_DECAY = '0.1';
/** Largest fair-value push per tick of a full-strength bias on a price question. */
export const NEWS_BIAS_PRICE_IMPACT = '0.01';

export async function runNewsStep(ctx: TTickContext) {
  const db = await getDb();
  const rng = ctx.rng.fork('news');
  const at = ctx.at;
  const orgs = await loadOrganizations(db);
  const actors = await loadActors(db);
  const questions = await loadOpenQuestions(db, at);
  const [recent] = rowsOf<{ n: number | string }>(
    await db.execute(sql`select count(*) as n from ${worldEvents} where created_at > ${new Date(at.getTime() - 3_600_000).toISOString()}::timestamptz`),
  );
  const count = planEventCount(rng, Number(recent?.n ?? 0) === 0);

  const events: TWorldEvent[] = [];
  const biases: TBiasPlan[] = [];
  for (let i = 0; i < count; i++) {
    const e = planWorldEvent(rng.fork(`event-${i}`), { orgs, actors, questions });
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
        data: { id: e.id, title: e.title, content: e.content, relatedQuestions: e.relatedQuestions, timestamp: at.toISOString() },
      })),
    );
    return fresh;
  });
  ctx.newEvents.push(...written);
  return { events: written.length, biases: written.length ? biases.length : 0 };
}
