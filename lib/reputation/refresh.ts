/**
 * Reputation for a set of accounts, as the standings refresh stores it (the registry and boards
 * read it there): their figures in one statement, then the pure score.
 */
import 'server-only';
import type { DbOrTx } from '@/db/client';
import { loadReputationInputs } from './inputs';
import { reputationOf, type TLevel } from './score';

export async function computeReputations(db: DbOrTx, userIds: readonly string[]): Promise<Map<string, { score: number; level: TLevel }>> {
  const out = new Map<string, { score: number; level: TLevel }>();
  if (userIds.length === 0) return out;
  for (const [id, inputs] of await loadReputationInputs(db, userIds)) {
    const r = reputationOf(inputs);
    out.set(id, { score: r.score, level: r.level });
  }
  return out;
}
