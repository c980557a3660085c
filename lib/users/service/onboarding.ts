/**
 * Onboarding: whether an account still needs its profile, whether a username is free, and a
 * random profile suggestion. (Referrals and the waitlist join this folder with their issues.)
 */
import 'server-only';
import { getDb } from '@/db/client';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { generateProfileSuggestion, isValidUsername } from '../names';
import { findUserById, isUsernameTaken } from '../queries';

/** Whether `userId` still has to set up a profile: the caller's own account, or any for administrators. */
export async function getIsNew(input: { caller: TCaller; userId: string }) {
  const { caller } = input;
  if (input.userId !== caller.userId && !caller.isAdmin) throw new AppError('FORBIDDEN', 'You can only check your own account');
  const user = await findUserById(await getDb(), input.userId);
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: input.userId });
  return { isNew: !user.profileComplete, needsSetup: !user.profileComplete, profileComplete: user.profileComplete };
}

/** Whether a username is valid and free; the caller's own name counts as free for them. */
export async function checkUsername(input: { caller: TCaller | null; username: string }) {
  if (!isValidUsername(input.username)) {
    return { available: false, reason: 'Usernames are 3 to 20 letters, digits or underscores' };
  }
  const taken = await isUsernameTaken(await getDb(), input.username, input.caller?.userId);
  return taken ? { available: false, reason: 'Username is already taken' } : { available: true };
}

/** A random profile suggestion whose username is free right now. */
export async function suggestProfile() {
  const db = await getDb();
  for (let i = 0; i < 5; i++) {
    const s = generateProfileSuggestion();
    if (!(await isUsernameTaken(db, s.username))) return s;
  }
  return generateProfileSuggestion();
}
