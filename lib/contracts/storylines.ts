/**
 * Storyline endpoints (issue 34): the story behind a question (its beats as they land; roles,
 * truth and calls once it resolved), the stories of a ticker, and the NPCs' public calibration.
 * All public reads.
 */
import { z } from 'zod';
import { ZIdParam, ZSuccess, ZTimestamp, zQueryInt } from './common';
import { defineEndpoint } from './endpoint';

export const ZStoryActor = z.object({ id: z.string(), username: z.string(), displayName: z.string(), avatarUrl: z.string() });
export type TStoryActor = z.infer<typeof ZStoryActor>;

export const ZStoryBeat = z.object({
  seq: z.number().int(),
  at: ZTimestamp,
  kind: z.string(),
  headline: z.string(),
  body: z.string(),
  actor: ZStoryActor.nullable(),
  direction: z.enum(['YES', 'NO']).nullable(),
  /** Who said it and why: null until the story is published. */
  role: z.enum(['press', 'company', 'insider', 'deceiver', 'analyst']).nullable(),
  /** Whether it pointed to the truth: null until published (and when the world decided). */
  truthful: z.boolean().nullable(),
});
export type TStoryBeat = z.infer<typeof ZStoryBeat>;

export const ZStory = z.object({
  id: z.string(),
  marketId: z.string(),
  question: z.string(),
  title: z.string(),
  theme: z.string(),
  status: z.enum(['developing', 'published']),
  organization: z.object({ id: z.string(), name: z.string(), ticker: z.string() }).nullable(),
  startsAt: ZTimestamp,
  endsAt: ZTimestamp,
  outcome: z.enum(['YES', 'NO']).nullable(),
  /** Developing: only the beats already landed; published: all. */
  beats: z.array(ZStoryBeat),
  /** Published only (empty while developing): each NPC's last call before resolution. */
  calls: z.array(z.object({ actor: ZStoryActor, probability: z.number(), calledAt: ZTimestamp, right: z.boolean() })),
});
export type TStory = z.infer<typeof ZStory>;

export const predictionStory = defineEndpoint({
  id: 'storylines.prediction',
  method: 'GET',
  path: '/api/markets/predictions/{id}/story',
  summary: 'The storyline behind a question: its beats so far; once resolved, the whole arc with roles, truth and the NPCs’ calls',
  tag: 'markets',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: z.object({ id: ZIdParam }),
  response: z.object({ success: ZSuccess, marketId: z.string(), story: ZStory.nullable() }),
  errors: ['NOT_FOUND'],
});

export const tickerStories = defineEndpoint({
  id: 'storylines.ticker',
  method: 'GET',
  path: '/api/markets/perps/tickers/{ticker}/story',
  summary: "A ticker's developing storylines and its newest five resolved ones",
  tag: 'perps',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: z.object({ ticker: z.string().min(1).max(20).transform((t) => t.toUpperCase()) }),
  response: z.object({ success: ZSuccess, ticker: z.string(), developing: z.array(ZStory), resolved: z.array(ZStory) }),
  errors: ['NOT_FOUND'],
});

export const actorCalibration = defineEndpoint({
  id: 'world.actorCalibration',
  method: 'GET',
  path: '/api/actors/{actorId}/calibration',
  summary: "An NPC's calibration: resolved calls, right calls, Brier score and rank, and its newest resolved calls",
  tag: 'world',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: z.object({ actorId: ZIdParam }),
  response: z.object({
    success: ZSuccess,
    actorId: z.string(),
    calibration: z.object({
      resolved: z.number().int(),
      right: z.number().int(),
      brier: z.number().nullable(),
      /** 1 = best Brier among NPCs with at least 3 resolved calls; null when not ranked. */
      rank: z.number().int().nullable(),
      ranked: z.number().int(),
    }),
    recent: z.array(z.object({ marketId: z.string(), question: z.string(), probability: z.number(), outcome: z.enum(['YES', 'NO']), right: z.boolean(), calledAt: ZTimestamp })),
  }),
  errors: ['NOT_FOUND'],
});

export const calibrationLeaderboard = defineEndpoint({
  id: 'world.calibration',
  method: 'GET',
  path: '/api/actors/calibration',
  summary: 'NPCs ranked by calibration (Brier score ascending), those with at least 3 resolved calls',
  tag: 'world',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  query: z.object({ limit: zQueryInt({ default: 20, min: 1, max: 100 }) }),
  response: z.object({
    success: ZSuccess,
    actors: z.array(
      z.object({ id: z.string(), username: z.string(), displayName: z.string(), avatarUrl: z.string(), resolved: z.number().int(), right: z.number().int(), brier: z.number() }),
    ),
  }),
});

export const storylinesEndpoints = [predictionStory, tickerStories, actorCalibration, calibrationLeaderboard] as const;
