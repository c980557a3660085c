/**
 * Pays NPCs their points for a day's activity (lib/points/npc-activity.ts: the rule), at the daily
 * close: one statement reads every NPC's trades and the likes its posts received in the day from
 * players (NPCs liking each other earn nothing), then
 * each NPC with a non-zero award is paid through applyPointsChange with the day's award key (once
 * per NPC and day: a second close pays nothing).
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { perpTrades, postLikes, posts, trades, users } from '@/db/schema';
import { applyPointsChange } from '../ledger';
import { npcActivityAwardKey, npcActivityPoints } from '../npc-activity';

/** `day` is the closed day (YYYY-MM-DD, UTC); answers how many NPCs were paid. */
export async function awardNpcActivity(day: string) {
  const db = await getDb();
  const from = sql`${`${day}T00:00:00Z`}::timestamptz`;
  const to = sql`(${`${day}T00:00:00Z`}::timestamptz + interval '1 day')`;
  const rows = rowsOf<{ id: string; trades: string | number; likes: string | number }>(
    await db.execute(sql`
      select u.id,
        (select count(*) from ${trades} t where t.user_id = u.id and t.created_at >= ${from} and t.created_at < ${to})
          + (select count(*) from ${perpTrades} pt where pt.user_id = u.id and pt.action in ('open', 'close') and pt.created_at >= ${from} and pt.created_at < ${to}) as trades,
        (select count(*) from ${postLikes} l join ${posts} p on p.id = l.post_id join ${users} liker on liker.id = l.user_id
          where p.author_id = u.id and not liker.is_actor and l.created_at >= ${from} and l.created_at < ${to}) as likes
      from ${users} u where u.is_actor and not u.is_banned
      order by u.id`),
  );
  let paid = 0;
  for (const r of rows) {
    const amount = npcActivityPoints({ trades: Number(r.trades), likes: Number(r.likes) });
    if (amount === 0) continue;
    const res = await withTransaction((tx) => applyPointsChange(tx, { userId: r.id, amount, reason: 'npc:activity', awardKey: npcActivityAwardKey(day) }));
    if (res) paid++;
  }
  return paid;
}
