/**
 * Bans (administrators only), with their history in user_bans and the moderation audit trail
 * (moderation_actions). A ban takes effect on the banned user's next request: the operation core
 * reads the user's row for every call and refuses their writes (403 USER_BANNED), and the feeds'
 * canSee hides their content; unbanning restores both. NPC actors can be banned too (the tick
 * skips them).
 *
 * Temporary bans (issue 35): a ban may carry an end (`until`, or `durationHours` from now); it is
 * stored as users.banned_until and user_bans.ends_at, and `liftExpiredBans` (called from the game
 * tick) lifts every ban whose end has passed in one statement. Until the tick runs, the operation
 * core already treats a user whose banned_until has passed as not banned (lib/principals).
 *
 * Invariants: users.is_banned and the newest user_bans row of a user agree; a ban or unban that
 * changes nothing (banning a user banned with the same end) writes no row and answers the current
 * state. Nobody bans themselves, and no administrator bans another.
 */
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { rowsOf, withTransaction, type DbOrTx, type Tx } from '@/db/client';
import { deliveryFor, wantsNotice } from '@/db/notification-delivery';
import { moderationActions, notifications, userBans, users, type TUserRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';
import { notify } from '@/lib/notifications/service';
import { roleOf } from '../dto';

export type TBanAction = 'ban' | 'unban';

/** The target's row, locked until the transaction ends (two admins banning at once write one row). */
const lockUser = async (tx: Tx, userId: string): Promise<TUserRow> => {
  const [u] = await tx.select().from(users).where(eq(users.id, userId)).for('no key update');
  if (!u) throw new AppError('USER_NOT_FOUND', 'User not found', { userId });
  return u;
};

const isAdministrator = (u: TUserRow) => roleOf(u, env().adminSubjects) === 'admin';

/** Whether a user row is banned at `at`: flagged, and a temporary ban's end not yet passed. Pure. */
export function isBannedAt(u: { isBanned: boolean; bannedUntil: Date | null }, at: Date) {
  return u.isBanned && (u.bannedUntil === null || u.bannedUntil.getTime() > at.getTime());
}

/**
 * A ban's end from the route's `until` (ISO, in the future) or `durationHours`; null for a ban
 * until lifted. Both at once, or an end not in the future, is VALIDATION_ERROR.
 */
export function banEndOf(input: { until?: string; durationHours?: number }, at: Date): Date | null {
  if (input.until !== undefined && input.durationHours !== undefined) {
    throw new AppError('VALIDATION_ERROR', 'Give either until or durationHours, not both', { issues: [{ path: 'until', message: 'Give either until or durationHours' }] });
  }
  if (input.durationHours !== undefined) return new Date(at.getTime() + input.durationHours * 3_600_000);
  if (input.until === undefined) return null;
  const end = new Date(input.until);
  if (Number.isNaN(end.getTime()) || end.getTime() <= at.getTime()) {
    throw new AppError('VALIDATION_ERROR', 'until must be a time in the future', { issues: [{ path: 'until', message: 'must be a time in the future' }] });
  }
  return end;
}

/**
 * Bans or unbans `userId` inside `tx` (the ban route's and the report action ban_user's one code
 * path). Refuses to ban an administrator (FORBIDDEN). Returns the user's state after, and whether
 * anything changed (a user_bans row, a moderation_actions row and a notification to the user are
 * written only then).
 */
export async function applyBan(
  tx: Tx,
  input: { actorId: string; userId: string; action: TBanAction; reason?: string | null; reportId?: string | null; endsAt?: Date | null },
) {
  const target = await lockUser(tx, input.userId);
  if (input.action === 'ban' && isAdministrator(target)) throw new AppError('FORBIDDEN', 'Administrators cannot be banned', { userId: target.id });
  const at = now();
  const isBanned = input.action === 'ban';
  const endsAt = isBanned ? (input.endsAt ?? null) : null;
  const wasBanned = isBannedAt(target, at);
  const sameEnd = (target.bannedUntil?.getTime() ?? null) === (endsAt?.getTime() ?? null);
  const state = { id: target.id, username: target.username, isBanned, bannedUntil: endsAt?.toISOString() ?? null };
  if (isBanned ? wasBanned && sameEnd : !target.isBanned) {
    return { user: { ...state, bannedUntil: target.bannedUntil?.toISOString() ?? null }, changed: false };
  }
  const reason = input.reason ?? null;
  await tx.update(users).set({ isBanned, bannedUntil: endsAt, updatedAt: at }).where(eq(users.id, target.id));
  await tx.insert(userBans).values({ userId: target.id, actorId: input.actorId, action: input.action, reason, reportId: input.reportId ?? null, endsAt, createdAt: at });
  await tx.insert(moderationActions).values({
    actorId: input.actorId,
    action: input.action,
    targetUserId: target.id,
    reportId: input.reportId ?? null,
    reason,
    endsAt,
    createdAt: at,
  });
  await notify(tx, [
    isBanned
      ? {
          userId: target.id,
          type: 'system',
          kind: 'moderation',
          title: endsAt ? 'Your account is suspended' : 'Your account is banned',
          message: `${endsAt ? `Suspended until ${endsAt.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'Banned until an administrator lifts it'}: ${reason || 'no reason given'}. You can still read, but not post or trade.`,
          link: null,
        }
      : { userId: target.id, type: 'system', kind: 'moderation', title: 'Your ban was lifted', message: 'You can post and trade again.', link: null },
  ]);
  return { user: state, changed: true };
}

/** POST /api/admin/users/{userId}/ban: ban (default, optionally until a time) or unban, with the reason kept in the history. */
export async function banUser(input: { caller: TCaller; userId: string; action: TBanAction; reason?: string; until?: string; durationHours?: number }) {
  if (input.userId === input.caller.userId) throw new AppError('CANNOT_TARGET_SELF', 'You cannot ban or unban yourself');
  if (input.action === 'unban' && (input.until !== undefined || input.durationHours !== undefined)) {
    throw new AppError('VALIDATION_ERROR', 'An unban takes no end', { issues: [{ path: 'until', message: 'only for a ban' }] });
  }
  const endsAt = banEndOf(input, now());
  const { user, changed } = await withTransaction((tx) =>
    applyBan(tx, { actorId: input.caller.userId, userId: input.userId, action: input.action, reason: input.reason || null, endsAt }),
  );
  const done = input.action === 'ban' ? (user.bannedUntil ? `banned until ${user.bannedUntil}` : 'banned') : 'unbanned';
  const message = changed ? `@${user.username} is ${done}` : `@${user.username} was already ${done}; nothing changed`;
  return { message, user };
}

/**
 * Lifts every temporary ban whose end is at or before `at`, in ONE statement: the users are
 * unbanned, and for each one a user_bans 'unban' row, a moderation_actions 'unban' row and a
 * 'moderation' notification are written. The actor of the lifting is whoever banned them (the
 * newest 'ban' row). Returns how many bans were lifted. The game tick calls it.
 */
export async function liftExpiredBans(db: DbOrTx, at: Date): Promise<number> {
  const t = at.toISOString();
  const rows = rowsOf<{ n: number | string }>(
    await db.execute(sql`
    with lifted as (
      update ${users} set is_banned = false, banned_until = null, updated_at = ${t}::timestamptz
      where is_banned and banned_until is not null and banned_until <= ${t}::timestamptz
      returning id
    ), who as (
      select l.id as user_id,
        coalesce((select b.actor_id from ${userBans} b where b.user_id = l.id and b.action = 'ban' order by b.created_at desc limit 1), l.id) as actor_id
      from lifted l
    ), bans as (
      insert into ${userBans} (id, user_id, actor_id, action, reason, created_at)
      select gen_random_uuid()::text, w.user_id, w.actor_id, 'unban', 'Temporary ban ended', ${t}::timestamptz from who w
    ), trail as (
      insert into ${moderationActions} (id, actor_id, action, target_user_id, reason, created_at)
      select gen_random_uuid()::text, w.actor_id, 'unban', w.user_id, 'Temporary ban ended', ${t}::timestamptz from who w
    ), told as (
      insert into ${notifications} (id, user_id, type, kind, title, message, read, delivery, created_at)
      select gen_random_uuid()::text, w.user_id, 'system', 'moderation', 'Your suspension has ended', 'You can post and trade again.', false,
        ${deliveryFor(sql`w.user_id`, sql`'moderation'`)}, ${t}::timestamptz
      from who w where ${wantsNotice(sql`w.user_id`, sql`'moderation'`)}
    )
    select count(*) as n from who`),
  );
  return Number(rows[0]?.n ?? 0);
}
