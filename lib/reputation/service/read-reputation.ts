/**
 * GET /api/reputation/{userId} and /breakdown/{userId}: computed live from the account's figures
 * (one statement), so the answer is exact as of now; the registry and boards show the copy the
 * standings refresh stores. Players, agents and NPC actors alike; pool accounts are not people.
 */
import 'server-only';
import { getDb } from '@/db/client';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { findUserById } from '@/lib/users/queries';
import { loadReputationInputs } from '../inputs';
import { MAX_REPUTATION, reputationOf, WEIGHTS, BAN_PENALTY, REPORT_PENALTY, MAX_REPORT_PENALTY } from '../score';

const FORMULA =
  `score = 1000 × (${WEIGHTS.trading} × trading + ${WEIGHTS.accuracy} × accuracy + ${WEIGHTS.social} × social + ${WEIGHTS.community} × community)` +
  ` − ${REPORT_PENALTY} per upheld report (at most ${MAX_REPORT_PENALTY}) − ${BAN_PENALTY} if banned, kept within 0 to ${MAX_REPUTATION}; each part is a value from 0 to 1`;

const computeFor = async (userId: string) => {
  const db = await getDb();
  const user = await findUserById(db, userId);
  if (!user || user.isPoolAccount) throw new AppError('USER_NOT_FOUND', 'User not found', { userId });
  const inputs = (await loadReputationInputs(db, [userId])).get(userId)!;
  const r = reputationOf(inputs);
  return {
    reputation: { userId, score: r.score, maxScore: MAX_REPUTATION as typeof MAX_REPUTATION, level: r.level, isActor: user.isActor, computedAt: now().toISOString() },
    r,
  };
};

export async function readReputation(userId: string) {
  return { reputation: (await computeFor(userId)).reputation };
}

export async function readReputationBreakdown(userId: string) {
  const { reputation, r } = await computeFor(userId);
  return { reputation, breakdown: { parts: r.parts, penalties: r.penalties, formula: FORMULA } };
}
