/**
 * The one writer of `world_events`, the world's news: the seed's past news (seed/world.ts), the
 * tick's news step (lib/game/steps/news.ts) and the backfill's past (lib/game/backfill/write.ts)
 * all insert through `insertWorldEvents`. Rows have fixed ids (the seed's, or ids made from game
 * time), so inserting one again is skipped: the seed and a repeated tick stay idempotent.
 */
import 'server-only';
import type { DbOrTx } from '@/db/client';
import { worldEvents } from '@/db/schema';

export type TNewWorldEvent = {
  id: string;
  kind: string;
  title: string;
  content: string;
  organizationId: string | null;
  actorId: string | null;
  /** Signed push on the organization's fair value (0.03 = +3%), kept to 6 places; none (0) for news already priced in. */
  impact?: number;
  /** questionNumber of the questions the event bears on; none by default. */
  relatedQuestions?: number[];
  createdAt: Date;
};

/** Inserts the events in one statement, skipping ids that exist; returns the ids inserted. */
export async function insertWorldEvents(db: DbOrTx, events: readonly TNewWorldEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = await db
    .insert(worldEvents)
    .values(
      events.map((e) => ({
        id: e.id,
        kind: e.kind,
        title: e.title,
        content: e.content,
        organizationId: e.organizationId,
        actorId: e.actorId,
        impact: e.impact === undefined ? undefined : e.impact.toFixed(6),
        relatedQuestions: e.relatedQuestions,
        createdAt: e.createdAt,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: worldEvents.id });
  return rows.map((r) => r.id);
}
