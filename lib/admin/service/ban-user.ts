/**
 * Bans (administrators only), with their history in user_bans. A ban takes effect on the banned
 * user's next request: the operation core reads users.is_banned for every call and refuses their
 * writes (403 USER_BANNED), and the feeds' canSee hides their content; unbanning restores both.
 * NPC actors can be banned too (the tick skips them).
 *
 * Invariants: users.is_banned and the newest user_bans row of a user agree; a ban or unban that
 * changes nothing (banning a banned user) writes no row and answers the current state. Nobody
 * bans themselves, and no administrator bans another.
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { withTransaction, type Tx } from '@/db/client';
import { userBans, users, type TUserRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';
import { roleOf } from '../dto';

export type TBanAction = 'ban' | 'unban';

/** The target's row, locked until the transaction ends (two admins banning at once write one row). */
const lockUser = async (tx: Tx, userId: string): Promise<TUserRow> => {
  const [u] = await tx.select().from(users).where(eq(users.id, userId)).for('no key update');
  if (!u) throw new AppError('USER_NOT_FOUND', 'User not found', { userId });
  return u;
};

const isAdministrator = (u: TUserRow) => roleOf(u, env().adminSubjects) === 'admin';

/**
 * Bans or unbans `userId` inside `tx` (the ban route's and the report action ban_user's one code
 * path). Refuses to ban an administrator (FORBIDDEN). Returns the user's state after, and whether
 * anything changed (a row in user_bans is written only then).
 */
export async function applyBan(
  tx: Tx,
  input: { actorId: string; userId: string; action: TBanAction; reason?: string | null; reportId?: string | null },) {
  const target = await lockUser(tx, input.userId);
  if (input.action === 'ban' && isAdministrator(target)) throw new AppError('FORBIDDEN', 'Administrators cannot be banned', { userId: target.id });
  const isBanned = input.action === 'ban';
  if (target.isBanned === isBanned) return { user: { id: target.id, username: target.username, isBanned }, changed: false };
  const at = now();
  await tx.update(users).set({ isBanned, updatedAt: at }).where(eq(users.id, target.id));
  await tx.insert(userBans).values({
    userId: target.id,
    actorId: input.actorId,
    action: input.action,
    reason: input.reason ?? null,
    reportId: input.reportId ?? null,
    createdAt: at,
  });
  return { user: { id: target.id, username: target.username, isBanned }, changed: true };
}

/** POST /api/admin/users/{userId}/ban: ban (default) or unban, with the reason kept in the history. */
export async function banUser(input: { caller: TCaller; userId: string; action: TBanAction; reason?: string }) {
  if (input.userId === input.caller.userId) throw new AppError('CANNOT_TARGET_SELF', 'You cannot ban or unban yourself');
  const { user, changed } = await withTransaction((tx) =>
    applyBan(tx, { actorId: input.caller.userId, userId: input.userId, action: input.action, reason: input.reason || null }),
  );
  const done = input.action === 'ban' ? 'banned' : 'unbanned';
  const message = changed ? `@${user.username} is ${done}` : `@${user.username} was already ${done}; nothing changed`;
  return { message, user };
}
