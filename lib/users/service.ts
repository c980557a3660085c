/**
 * Account operations: provisioning on first sign-in, profile reads and updates, onboarding
 * helpers. Each write is one transaction; money moves only through lib/ledger.
 */
import { eq } from 'drizzle-orm';
import { users, type TUserRow } from '@/db/schema';
import { getDb, postgresErrorCode, withTransaction } from '@/db/client';
import { now } from '@/lib/clock/clock';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';
import { credit } from '@/lib/ledger/ledger';
import { findBalanceSummary, findTransactions } from '@/lib/ledger/queries';
import { dec } from '@/lib/money/decimal';
import { toUserDto, type TUserDto } from './dto';
import {
  computeUserStats,
  findUserById,
  findUserByIdentifier,
  findUserBySubject,
  findUserByUsername,
  isUsernameTaken,
  searchUsers as searchUserRows,
} from './queries';
import {
  generateProfileSuggestion,
  generateReferralCode,
  isValidUsername,
  usernameCandidate,
} from './names';

export const USERNAME_CHANGE_INTERVAL_MS = 30 * 24 * 60 * 60 * 1000;

export type TProvisionInput = {
  subject: string;
  email?: string;
  name?: string;
  preferredUsername?: string;
  isAgent?: boolean;
};

const isUniqueViolation = (e: unknown) => postgresErrorCode(e) === '23505';

/**
 * The user behind a token subject, created on first sight with a unique username,
 * profileComplete false and STARTING_BALANCE credited as a `deposit`. Safe under concurrent
 * first requests: exactly one of them inserts and credits, the others read its row.
 */
export const provisionUser = async (input: TProvisionInput): Promise<TUserRow> => {
  const db = await getDb();
  const existing = await findUserBySubject(db, input.subject);
  if (existing) return existing;

  const wish = input.preferredUsername ?? input.name ?? input.email?.split('@')[0];
  for (let attempt = 0; attempt < 6; attempt++) {
    const username = usernameCandidate(wish, attempt);
    if (await isUsernameTaken(db, username)) continue;
    try {
      return await withTransaction(async (tx) => {
        const at = now();
        const [row] = await tx
          .insert(users)
          .values({
            authSubject: input.subject,
            username,
            displayName: '',
            email: input.email ?? null,
            isAgent: input.isAgent ?? false,
            referralCode: generateReferralCode(),
            createdAt: at,
            updatedAt: at,
          })
          .onConflictDoNothing({ target: users.authSubject })
          .returning();
        if (!row) {
          // Another request provisioned this subject first.
          const [winner] = await tx.select().from(users).where(eq(users.authSubject, input.subject));
          return winner!;
        }
        const starting = dec(env().startingBalance);
        if (starting.gt(0)) {
          await credit(tx, {
            userId: row.id,
            amount: starting,
            type: 'deposit',
            description: 'Starting balance',
          });
        }
        const [fresh] = await tx.select().from(users).where(eq(users.id, row.id));
        return fresh!;
      });
    } catch (e) {
      // A username (or referral code) taken between the check and the insert: try another.
      if (isUniqueViolation(e)) continue;
      throw e;
    }
  }
  throw new AppError('INTERNAL_ERROR', 'Could not allocate a username');
};

const getUserOrThrow = async (id: string) => {
  const user = await findUserById(await getDb(), id);
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: id });
  return user;
};

/** A user as the API shows it; `self` adds email and referral code. */
export const getUserDto = async (user: TUserRow, opts: { self: boolean; isAdmin?: boolean }): Promise<TUserDto> =>
  toUserDto(user, await computeUserStats(await getDb(), user), opts);

/** GET /api/users/me: the caller's row was loaded by authentication in this same request. */
export const getCurrentUser = async (user: TUserRow, isAdmin: boolean) => getUserDto(user, { self: true, isAdmin });

/** A profile by id, username or wallet address. */
export const getProfile = async (ident: string, viewerId?: string) => {
  const user = await findUserByIdentifier(await getDb(), ident);
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: ident });
  return getUserDto(user, { self: user.id === viewerId });
};

export const getProfileByUsername = async (username: string, viewerId?: string) => {
  const user = await findUserByUsername(await getDb(), username);
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { username });
  return getUserDto(user, { self: user.id === viewerId });
};

export const getUserStats = async (ident: string) => {
  const db = await getDb();
  const user = await findUserByIdentifier(db, ident);
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: ident });
  return computeUserStats(db, user);
};

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
export const updateProfile = async (opts: { actorId: string; userId: string; input: TUpdateProfileInput }) => {
  if (opts.actorId !== opts.userId) throw new AppError('FORBIDDEN', 'You can only update your own profile');
  const { input } = opts;
  try {
    const updated = await withTransaction(async (tx) => {
      const [user] = await tx.select().from(users).where(eq(users.id, opts.userId)).for('update');
      if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: opts.userId });
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

/** Balance and history, readable by the owner and by administrators only. */
export const getBalance = async (opts: { actorId: string; isAdmin: boolean; userId: string; limit: number; offset: number }) => {
  const db = await getDb();
  const target = await findUserByIdentifier(db, opts.userId);
  if (target && target.id !== opts.actorId && !opts.isAdmin) {
    throw new AppError('FORBIDDEN', 'You can only read your own balance');
  }
  if (!target) {
    if (!opts.isAdmin) throw new AppError('FORBIDDEN', 'You can only read your own balance');
    throw new AppError('NOT_FOUND', 'Balance not found', { userId: opts.userId });
  }
  const summary = await findBalanceSummary(db, target.id);
  if (!summary) throw new AppError('NOT_FOUND', 'Balance not found', { userId: opts.userId });
  const transactions = await findTransactions(db, target.id, { limit: opts.limit, offset: opts.offset });
  return { ...summary, transactions };
};

export const searchUsers = async (opts: { q: string; limit: number; type?: 'user' | 'actor' }) => {
  const rows = await searchUserRows(await getDb(), opts);
  return { users: rows, count: rows.length };
};

/** Whether the user still has to set up a profile. */
export const getIsNew = async (opts: { actorId: string; isAdmin: boolean; userId: string }) => {
  if (opts.userId !== opts.actorId && !opts.isAdmin) throw new AppError('FORBIDDEN', 'You can only check your own account');
  const user = await getUserOrThrow(opts.userId);
  return { isNew: !user.profileComplete, needsSetup: !user.profileComplete, profileComplete: user.profileComplete };
};

export const checkUsername = async (username: string, viewerId?: string) => {
  if (!isValidUsername(username)) {
    return { available: false, reason: 'Usernames are 3 to 20 letters, digits or underscores' };
  }
  const taken = await isUsernameTaken(await getDb(), username, viewerId);
  return taken ? { available: false, reason: 'Username is already taken' } : { available: true };
};

/** A random profile suggestion whose username is free right now. */
export const suggestProfile = async () => {
  const db = await getDb();
  for (let i = 0; i < 5; i++) {
    const s = generateProfileSuggestion();
    if (!(await isUsernameTaken(db, s.username))) return s;
  }
  return generateProfileSuggestion();
};
