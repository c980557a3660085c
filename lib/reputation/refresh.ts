/**
 * Stores reputation in the standings read model (the registry and leaderboards read it there):
 * for the accounts just refreshed plus `sweep` of those computed longest ago, so each account is
 * recomputed in turn even when nothing marked it (a question resolved, a report upheld).
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { standings } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { loadReputationInputs } from './inputs';
import { reputationOf } from './score';

export const refreshReputation = async (userIds: readonly string[], sweep: number) => {
  const db = await getDb();
  const ids = new Set(userIds);
  if (sweep > 0) {
    const stale = rowsOf<{ user_id: string }>(
      await db.execute(sql`select user_id from ${standings} order by reputation_at asc nulls first, user_id limit ${sweep}`),
    );
    for (const r of stale) ids.add(r.user_id);
  }
  if (ids.size === 0) return 0;
  const at = now().toISOString();
  const inputs = await loadReputationInputs(db, [...ids]);
  const values = [...inputs].map(([id, inp]) => {
    const r = reputationOf(inp);
    return sql`(${id}, ${r.score}::int, ${r.level})`;
  });
  if (values.length === 0) return 0;
  await db.execute(sql`
    update ${standings} s set reputation = v.score, reputation_level = v.level, reputation_at = ${at}::timestamptz
    from (values ${sql.join(values, sql`, `)}) as v(user_id, score, level)
    where s.user_id = v.user_id`);
  return values.length;
};
