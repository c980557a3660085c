/**
 * Roles (administrators only): administrator (users.is_admin), moderator (users.is_moderator:
 * works the report queue, cannot ban or touch markets) or plain user. Takes effect on the user's
 * next request (the operation core reads the row each call). Nobody changes their own role, so
 * the last administrator cannot demote themselves by mistake.
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';
import { flagsOfRole, roleOf, type TRole } from '../dto';

/** POST /api/admin/users/{userId}/role: administrator, moderator or plain user (never oneself). */
export async function setUserRole(input: { caller: TCaller; userId: string; role: TRole }) {
  if (input.userId === input.caller.userId) throw new AppError('CANNOT_TARGET_SELF', 'You cannot change your own role');
  const [updated] = await (await getDb())
    .update(users)
    .set({ ...flagsOfRole(input.role), updatedAt: now() })
    .where(eq(users.id, input.userId))
    .returning();
  if (!updated) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: input.userId });
  // A subject in ADMIN_SUBJECTS stays an administrator whatever its row says: answer the role it has.
  return { user: { id: updated.id, username: updated.username, role: roleOf(updated, env().adminSubjects) } };
}
