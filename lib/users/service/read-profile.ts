/** Reading users: the caller's own account, profiles (with private fields for their owner) and stats. */
import 'server-only';
import { getDb } from '@/db/client';
import type { TUserRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { toUserDto, type TUserDto, type TUserStats } from '../dto';
import { computeUserStats, findSocialHandles, findUserByIdentifier, findUserByUsername } from '../queries';

type TUserDtoOptions = { self: boolean; isAdmin?: boolean; isModerator?: boolean };

/** getUserDto for stats the caller has already read (statsOfCounts): only the linked accounts, if any, are read. */
export async function userDtoWithStats(user: TUserRow, stats: TUserStats, opts: TUserDtoOptions): Promise<TUserDto> {
  const social = user.hasSocialA || user.hasSocialB ? await findSocialHandles(await getDb(), user.id) : {};
  return toUserDto(user, stats, { ...opts, social });
}

/** A user as the API shows it; `self` adds email and referral code. */
export async function getUserDto(user: TUserRow, opts: TUserDtoOptions): Promise<TUserDto> {
  const db = await getDb();
  const [stats, social] = await Promise.all([
    computeUserStats(db, user),
    user.hasSocialA || user.hasSocialB ? findSocialHandles(db, user.id) : Promise.resolve({}),
  ]);
  return toUserDto(user, stats, { ...opts, social });
}

/**
 * GET /api/users/me. `user` is the caller's row, which authentication loaded in this same
 * request: passing it saves reading it again.
 */
export async function getCurrentUser(input: { caller: TCaller; user: TUserRow }) {
  return getUserDto(input.user, { self: true, isAdmin: input.caller.isAdmin, isModerator: input.caller.isModerator });
}

/** A profile by id, username or wallet address (`userId`); the caller's own shows its private fields. */
export async function getProfile(input: { caller: TCaller | null; userId: string }) {
  const user = await findUserByIdentifier(await getDb(), input.userId);
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: input.userId });
  return getUserDto(user, { self: user.id === input.caller?.userId });
}

export async function getProfileByUsername(input: { caller: TCaller | null; username: string }) {
  const user = await findUserByUsername(await getDb(), input.username);
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { username: input.username });
  return getUserDto(user, { self: user.id === input.caller?.userId });
}

/** A user's stats with the user's id (lib/equity sets their lifetimePnL to the one P&L). */
export async function getUserStats(ident: string) {
  const db = await getDb();
  const user = await findUserByIdentifier(db, ident);
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: ident });
  return { userId: user.id, stats: await computeUserStats(db, user) };
}
