/** Reputation: a deterministic score from 0 to 1000 with its level, and the parts that make it up. */
import { z } from 'zod';
import { ZIdParam, ZSuccess, ZTimestamp } from './common';
import { defineEndpoint } from './endpoint';

export const ZReputationLevel = z.enum(['newcomer', 'contributor', 'trusted', 'respected', 'legendary']);

export const ZReputation = z.object({
  userId: z.string(),
  score: z.number().int().min(0).max(1000),
  maxScore: z.literal(1000),
  level: ZReputationLevel,
  isActor: z.boolean(),
  computedAt: ZTimestamp,
});

/** The figures a part is computed from (null: none yet, e.g. no resolved forecast; flags are 1 or 0). */
const ZRaw = z.record(z.string(), z.number().nullable());

export const reputationGet = defineEndpoint({
  id: 'reputation.get',
  method: 'GET',
  path: '/api/reputation/{userId}',
  summary: "An account's reputation (players, agents and NPC actors): score 0 to 1000 and level",
  tag: 'standing',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: z.object({ userId: ZIdParam }),
  response: z.object({ success: ZSuccess, reputation: ZReputation }),
  errors: ['USER_NOT_FOUND'],
});

export const reputationBreakdownGet = defineEndpoint({
  id: 'reputation.breakdown',
  method: 'GET',
  path: '/api/reputation/breakdown/{userId}',
  summary: 'What makes up a reputation: each part with its weight, raw figures, value (0 to 1) and contribution, and the penalties',
  tag: 'standing',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: z.object({ userId: ZIdParam }),
  response: z.object({
    success: ZSuccess,
    reputation: ZReputation,
    breakdown: z.object({
      parts: z.array(
        z.object({
          key: z.enum(['trading', 'accuracy', 'social', 'community']),
          label: z.string(),
          weight: z.number().describe('share of the 1000 points this part can give'),
          value: z.number().min(0).max(1),
          contribution: z.number().int().describe('round(1000 × weight × value)'),
          raw: ZRaw,
        }),
      ),
      penalties: z.array(
        z.object({ key: z.enum(['reports', 'ban']), label: z.string(), contribution: z.number().int().max(0), raw: ZRaw }),
      ),
      formula: z.string().describe('how the parts add up, in words'),
    }),
  }),
  errors: ['USER_NOT_FOUND'],
});

export const reputationEndpoints = [reputationGet, reputationBreakdownGet] as const;
