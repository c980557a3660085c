/**
 * Updating the caller's own profile in one transaction (the row locked): display name, bio,
 * images, and the username (unique ignoring case, changeable once per 30 days). The milestones a
 * change earns (profile completed, profile image, username set) are paid in the same transaction,
 * each once per user (lib/points). Signup (lib/onboarding) writes the profile through writeProfile.
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { withTransaction, type Tx } from '@/db/client';
import { users, type TUserRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import type { TMilestone } from '@/lib/points/milestones';
import { awardMilestones } from '@/lib/points/service/milestones';
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

/** The caller's row, locked for the rest of `tx`. */
export async function lockUser(tx: Tx, userId: string) {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('no key update');
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { userId });
  return user;
}

/**
 * Writes a profile change to a locked user row and answers the new row with the milestones it
 * earned. Rules: username unique ignoring case (USERNAME_TAKEN), changeable once per 30 days
 * after the first choice (USERNAME_CHANGE_TOO_SOON); the profile counts as complete once it has
 * a display name, or when `complete` says so (signup).
 */
export async function writeProfile(tx: Tx, user: TUserRow, input: TUpdateProfileInput & { complete?: boolean }, at: Date) {
  const patch: Partial<TUserRow> = { updatedAt: at };
  const earned: TMilestone[] = [];
  if (input.displayName !== undefined) patch.displayName = input.displayName.trim();
  if (input.bio !== undefined) patch.bio = input.bio === null || input.bio.trim() === '' ? null : input.bio;
  if (input.profileImageUrl !== undefined) patch.profileImageUrl = input.profileImageUrl || null;
  if (input.coverImageUrl !== undefined) patch.coverImageUrl = input.coverImageUrl || null;
  const isCaseOnly = input.username !== undefined && input.username.toLowerCase() === user.username.toLowerCase();
  if (input.username !== undefined && isCaseOnly) {
    // Same name, other capitals: the name is still the player's own, so no 30-day clock.
    if (input.username !== user.username) patch.username = input.username;
    // Choosing the generated name at signup is still choosing it.
    if (input.complete && !user.usernameChangedAt) patch.usernameChangedAt = at;
    if (input.complete) earned.push('username_set');
  } else if (input.username !== undefined) {
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
    earned.push('username_set');
  }
  const displayName = patch.displayName ?? user.displayName;
  if (displayName !== '' || input.complete) patch.profileComplete = true;
  if (patch.profileComplete) earned.push('profile_completed');
  if ('profileImageUrl' in patch ? patch.profileImageUrl : user.profileImageUrl) earned.push('profile_image');
  const [row] = await tx.update(users).set(patch).where(eq(users.id, user.id)).returning();
  const paid = await awardMilestones(tx, user.id, earned);
  // Points paid after the update: read them back so the answer shows them.
  const [fresh] = paid.length ? await tx.select().from(users).where(eq(users.id, user.id)) : [row!];
  return { user: fresh!, milestones: paid };
}

/** Maps a username unique violation raced past the check to USERNAME_TAKEN. */
export function usernameRace(e: unknown, username: string | undefined) {
  return isUniqueViolation(e) ? new AppError('USERNAME_TAKEN', 'Username is already taken', { field: 'username', provided: username }) : e;
}

/** Updates the caller's own profile (only the owner: 403). */
export async function updateProfile(input: { caller: TCaller; userId: string } & TUpdateProfileInput) {
  if (input.caller.userId !== input.userId) throw new AppError('FORBIDDEN', 'You can only update your own profile');
  try {
    const { user } = await withTransaction(async (tx) => writeProfile(tx, await lockUser(tx, input.userId), input, now()));
    return getUserDto(user, { self: true });
  } catch (e) {
    throw usernameRace(e, input.username);
  }
}
