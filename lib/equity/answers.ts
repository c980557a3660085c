/**
 * The answers that show an account's numbers, each the domain's own answer with the one P&L of
 * this folder: the balance (owner and administrators), profiles (`lifetimePnL` for everyone, the
 * whole `account` for the user themself), stats, and positions (`account` for the owner and
 * administrators: cash is theirs only). lib/equity sits above the products and lib/users, so the
 * routes, A2A and the track record call these rather than lib/users' readers.
 */
import 'server-only';
import type { TCaller } from '@/lib/auth/caller';
import type { TPrincipal } from '@/lib/principals/principal';
import { getUserPositions } from '@/lib/markets/service/read-markets';
import { AppError } from '@/lib/errors/app-error';
import { toNumber } from '@/lib/money/decimal';
import type { TAccountNumbers } from '@/lib/ledger/account-numbers';
import type { TUserDto } from '@/lib/users/dto';
import { getBalance } from '@/lib/users/service/get-balance';
import { statsOfCounts } from '@/lib/users/queries';
import { getProfile, getProfileByUsername, getUserStats, userDtoWithStats } from '@/lib/users/service/read-profile';
import { readAccountNumbers, readAccountNumbersWithStatsCounts, readMeBySubject } from './service';

export { readMeBySubject };

/** GET /api/users/{userId}/balance: lifetimePnL is the one P&L, `account` its whole story. */
export async function getBalanceWithNumbers(input: { caller: TCaller; userId: string; limit: number; offset: number }) {
  const { ownerId, answer } = await getBalance(input); // the owner rule first
  const account = await readAccountNumbers(ownerId);
  if (!account) throw new AppError('NOT_FOUND', 'Balance not found', { userId: input.userId });
  return { ...answer, lifetimePnL: account.pnl, account };
}

async function withNumbers(user: TUserDto, self: boolean): Promise<TUserDto> {
  return withAccount(user, await readAccountNumbers(user.id), self);
}

function withAccount(user: TUserDto, account: TAccountNumbers | null, self: boolean): TUserDto {
  if (!account) return user;
  const pnl = toNumber(account.pnl);
  return { ...user, lifetimePnL: pnl, stats: { ...user.stats, lifetimePnL: pnl }, ...(self ? { account } : {}) };
}

/**
 * GET /api/users/me: the principal's row, its stats and its account's numbers. They came with the
 * row when the route's caller read (readMeBySubject) loaded it; otherwise (a session's or a key's
 * lookup loaded the row) they are one statement more.
 */
export async function getCurrentUserWithNumbers(input: { caller: TCaller; principal: TPrincipal }) {
  const { user: row, preloaded } = input.principal;
  const { account, counts } =
    preloaded?.read === readMeBySubject
      ? (preloaded.value as Awaited<ReturnType<typeof readAccountNumbersWithStatsCounts>>)
      : await readAccountNumbersWithStatsCounts(row.id);
  const user = await userDtoWithStats(row, statsOfCounts(row, counts), {
    self: true,
    isAdmin: input.caller.isAdmin,
    isModerator: input.caller.isModerator,
  });
  return withAccount(user, account, true);
}

/** GET /api/users/{userId}/profile. */
export async function getProfileWithNumbers(input: { caller: TCaller | null; userId: string }) {
  const user = await getProfile(input);
  return withNumbers(user, user.id === input.caller?.userId);
}

/** GET /api/users/by-username/{username}. */
export async function getProfileByUsernameWithNumbers(input: { caller: TCaller | null; username: string }) {
  const user = await getProfileByUsername(input);
  return withNumbers(user, user.id === input.caller?.userId);
}

/** GET /api/users/{userId}/stats. */
export async function getUserStatsWithNumbers(ident: string) {
  const { userId, stats } = await getUserStats(ident);
  const account = await readAccountNumbers(userId);
  return account ? { ...stats, lifetimePnL: toNumber(account.pnl) } : stats;
}

/** GET /api/markets/positions/{userId} and a2a.getPositions: the account's numbers for its owner and administrators. */
export async function getPositionsWithNumbers(userId: string, viewer: TCaller | null) {
  const positions = await getUserPositions(userId);
  if (!viewer || (viewer.userId !== userId && !viewer.isAdmin)) return positions;
  const account = await readAccountNumbers(userId);
  return account ? { ...positions, account } : positions;
}
