/** What the steps of one game tick share (lib/game/tick.ts runs them in order). */
import type { TRng } from './rng';

/** A world event created by this tick: news about an organization or an actor. */
export type TWorldEvent = {
  id: string;
  kind: string;
  title: string;
  content: string;
  organizationId: string | null;
  ticker: string | null;
  actorId: string | null;
  /** Signed push on the organization's fair value, as a fraction (0.03 = +3%). */
  impact: number;
  /** questionNumber of the questions this event bears on. */
  relatedQuestions: number[];
  /** For each related question, the side the event makes more likely (question number → side). */
  directions?: Record<number, 'YES' | 'NO'>;
  createdAt: Date;
};

export type TTickContext = {
  /** The game time this tick runs as of. */
  at: Date;
  /** Seeded by GAME_SEED and `at`; use rng.fork('<step>') per step. */
  rng: TRng;
  /** performance.now() value by which the step must return (its time budget). */
  deadline: number;
  /** World events created earlier in this tick. */
  newEvents: TWorldEvent[];
  /**
   * Game minutes since the previous tick: 1 when the scheduler ticks every minute, more after a
   * pause or under the test clock (coarse steps). The NPCs and managers catch up on part of what
   * those minutes would have brought (lib/game/npc/plan.ts catchUp). Absent means 1.
   */
  minutes?: number;
};

/** `trades` counts every trade: prediction buys and sales, perp opens and closes. */
export type TNpcActivityResult = { posts: number; replies: number; likes: number; shares: number; trades: number };
