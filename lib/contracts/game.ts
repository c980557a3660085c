/** The game: its control switch (status for players, start and pause for admins) and the list of games. */
import { z } from 'zod';
import { ZSuccess, ZTimestamp } from './common';
import { defineEndpoint } from './endpoint';

export const ZGameStats = z.object({
  organizations: z.number().int(),
  actors: z.number().int(),
  activeQuestions: z.number().int(),
  resolvedQuestions: z.number().int(),
  worldEvents: z.number().int(),
  worldEvents24h: z.number().int(),
  openPerpPositions: z.number().int(),
});

export const ZGameStatus = z.object({
  id: z.string(),
  status: z.enum(['running', 'paused']),
  running: z.boolean(),
  paused: z.boolean(),
  /** The time the newest tick ran as of (null before the first tick). */
  gameTime: ZTimestamp.nullable(),
  /** Wall-clock time the newest tick finished, and how long it took. */
  lastTickAt: ZTimestamp.nullable(),
  lastTickMs: z.number().int().nullable(),
  tickCount: z.number().int(),
  stats: ZGameStats,
});

export const gameControlGet = defineEndpoint({
  id: 'game.control.get',
  method: 'GET',
  path: '/api/game/control',
  summary: 'The game status: running or paused, game time, the last tick, counts',
  tag: 'game',
  auth: 'user',
  requires: ['read'],
  response: z.object({ success: ZSuccess, game: ZGameStatus }).extend(ZGameStatus.shape),
});

export const gameControlPost = defineEndpoint({
  id: 'game.control.post',
  method: 'POST',
  path: '/api/game/control',
  summary: 'Start or pause the game (administrators); a paused game\'s tick does nothing',
  tag: 'game',
  auth: 'user',
  requires: ['admin'],
  // "resume" and "stop" are accepted as the same two actions.
  body: z.strictObject({ action: z.enum(['start', 'pause', 'resume', 'stop']) }),
  response: z.object({ success: ZSuccess, action: z.enum(['start', 'pause']), game: ZGameStatus }).extend(ZGameStatus.shape),
  errors: ['UNAUTHORIZED', 'FORBIDDEN', 'VALIDATION_ERROR'],
});

export const gamesList = defineEndpoint({
  id: 'games.list',
  method: 'GET',
  path: '/api/games',
  summary: 'The games: this one living world, with its status and figures',
  tag: 'game',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  response: z.object({
    success: ZSuccess,
    games: z.array(ZGameStatus.extend({ name: z.string(), description: z.string() })),
  }),
});

export const gameEndpoints = [gameControlGet, gameControlPost, gamesList] as const;
