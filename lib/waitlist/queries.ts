/**
 * The waitlist's ranking: players (not NPC actors, agents or pool accounts) by points, earlier
 * accounts first on a tie, then by id; a player's rank is one more than the players ahead.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { referrals, users } from '@/db/schema';

const PLAYER = sql`not u.is_actor and not u.is_agent and not u.is_pool_account`;

export async function waitlistPosition(db: DbOrTx, userId: string) {
  const [row] = rowsOf<{ points: number; ahead: string; total: string; referrals: string; player: boolean }>(
    await db.execute(sql`
      with me as (select id, reputation_points, created_at, (not is_actor and not is_agent and not is_pool_account) as player from ${users} where id = ${userId})
      select me.reputation_points as points, me.player,
        (select count(*) from ${users} u, me where ${PLAYER} and u.id <> me.id and (u.reputation_points > me.reputation_points
          or (u.reputation_points = me.reputation_points and (u.created_at, u.id) < (me.created_at, me.id)))) as ahead,
        (select count(*) from ${users} u where ${PLAYER}) as total,
        (select count(*) from ${referrals} r where r.referrer_id = me.id) as referrals
      from me`),
  );
  return row ? { points: Number(row.points), ahead: Number(row.ahead), total: Number(row.total), referralCount: Number(row.referrals), player: row.player } : null;
}

export async function waitlistTop(db: DbOrTx, limit: number) {
  const rows = rowsOf<{ id: string; username: string; display_name: string; profile_image_url: string | null; points: number; referrals: string; total: string }>(
    await db.execute(sql`
      select u.id, u.username, u.display_name, u.profile_image_url, u.reputation_points as points,
        (select count(*) from ${referrals} r where r.referrer_id = u.id) as referrals,
        count(*) over () as total
      from ${users} u where ${PLAYER}
      order by u.reputation_points desc, u.created_at, u.id
      limit ${limit}`),
  );
  return rows;
}

export async function countPlayers(db: DbOrTx) {
  const [row] = rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from ${users} u where ${PLAYER}`));
  return Number(row?.n ?? 0);
}
