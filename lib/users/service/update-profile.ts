/**
 * Updating the caller's own profile in one transaction (the row locked): display name, bio,
 * images, and the username (unique ignoring case, changeable once per 30 days).
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { withTransaction } from '@/db/client';
import { users, type TUserRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { isUsernameTaken } from '../queries';
import { getUserDto } from './read-profile';
import { isUniqueViolation } from './shared';

export const USERNAME_CHANGE_INTERVAL_MS = 30 * 24 * 60 * 60 * 1000;

export type TUpdateProfileInput = {
  displayName?: string;
  bio?: string | null;
  username?: string;
  profileImageUrl?: string | null;
  coverImageUrl?: string | null;
};

/**
 * Updates the caller's own profile. Rules: only the owner (403), username unique ignoring case
 * (USERNAME_TAKEN) and changeable once per 30 days (USERNAME_CHANGE_TOO_SOON); the profile counts
 * as complete once it has a display name.
 */
export const updateProfile = async (input: { caller: TCaller; userId: string } & TUpdateProfileInput) => {
  if (input.caller.userId !== input.userId) throw new AppError('FORBIDDEN', 'You can only update your own profile');
  try {
    const updated = await withTransaction(async (tx) => {
      const [user] = await tx.select().from(users).where(eq(users.id, input.userId)).for('update');
      if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: input.userId });
      const at = now();
      const patch: Partial<TUserRow> = { updatedAt: at };
      if (input.displayName !== undefined) patch.displayName = input.displayName.trim();
      if (input.bio !== undefined) patch.bio = input.bio === null || input.bio.trim() === '' ? null : input.bio;
      if (input.profileImageUrl !== undefined) patch.profileImageUrl = input.profileImageUrl || null;
      if (input.coverImageUrl !== undefined) patch.coverImageUrl = input.coverImageUrl || null;
      const isCaseOnly = input.username !== undefined && input.username.toLowerCase() === user.username.toLowerCase();
      if (input.username !== undefined && input.username !== user.username && isCaseOnly) {
        // Same name, other capitals: the name is still the player's own, so no 30-day clock.
        patch.username = input.username;
      } else if (input.username !== undefined && input.username !== user.username) {
        if (user.usernameChangedAt && at.getTime() - user.usernameChangedAt.getTime() < USERNAME_CHANGE_INTERVAL_MS) {
          const next = new Date(user.usernameChangedAt.getTime() + USERNAME_CHANGE_INTERVAL_MS);
          throw new AppError('USERNAME_CHANGE_TOO_SOON', 'Username can be changed once every 30 days', {
            field: 'username',
            nextChangeAllowedAt: next.toISOString(),
          });
        }
        if (await isUsernameTaken(tx, input.username, user.id)) {
          throw new AppError('USERNAME_TAKEN', 'Username is already taken', { field: 'username', provided: input.username });
        }
        patch.username = input.username;
        patch.usernameChangedAt = at;
      }
      const displayName = patch.displayName ?? user.displayName;
      if (displayName !== '') patch.profileComplete = true;
      const [row] = await tx.update(users).set(patch).where(eq(users.id, user.id)).returning();
      return row!;
    });
    return getUserDto(updated, { self: true });
  } catch (e) {
    if (isUniqueViolation(e)) {
      throw new AppError('USERNAME_TAKEN', 'Username is already taken', { field: 'username', provided: input.username });
    }
    throw e;
  }
};
