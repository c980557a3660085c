/**
 * Follows and favorites. A follow is one insert guarded by the primary key: ten parallel follows
 * make one (the others are ALREADY_FOLLOWING), and the followed user is notified once. `userId`
 * names the other user (id, username or wallet address); the caller follows or favorites.
 *
 * Moderation: a follow reaches the other user, so a block between the two (either way) refuses it
 * with USER_BLOCKED inside the follow's transaction (lib/moderation/reach.ts); the block itself
 * removes existing follows both ways (lib/moderation/service). Follower and following lists never
 * show someone in a block with the caller (lib/moderation/visibility canSeeUser), and their
 * totals count the same rows.
 */
import 'server-only';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { favorites, follows, users } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import type { TCaller } from '@/lib/auth/caller';
import { assertCanReach } from '@/lib/moderation/reach';
import { canSeeUser } from '@/lib/moderation/visibility';
import { notify } from '@/lib/notifications/service';
import { toUserSummary } from '@/lib/users/dto';
import { findUserByIdentifier } from '@/lib/users/queries';

const requireUser = async (ident: string) => {
  const u = await findUserByIdentifier(await getDb(), ident);
  if (!u) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: ident });
  return u;
};

const followersCountOf = async (userId: string) => {
  const [r] = await (await getDb()).select({ n: count() }).from(follows).where(eq(follows.followingId, userId));
  return Number(r?.n ?? 0);
};

export async function followUser(input: { caller: TCaller; userId: string }) {
  const { caller } = input;
  const target = await requireUser(input.userId);
  if (target.id === caller.userId) throw new AppError('CANNOT_FOLLOW_SELF', 'You cannot follow yourself');
  await withTransaction(async (tx) => {
    await assertCanReach(tx, caller.userId, target.id, `follow @${target.username}`);
    const inserted = await tx
      .insert(follows)
      .values({ followerId: caller.userId, followingId: target.id, createdAt: now() })
      .onConflictDoNothing()
      .returning({ id: follows.followerId });
    if (inserted.length === 0) throw new AppError('ALREADY_FOLLOWING', `You already follow @${target.username}`);
    await notify(tx, [{ userId: target.id, type: 'follow', actorId: caller.userId, title: 'New follower', message: `@${caller.username} followed you` }]);
  });
  return { following: true, followersCount: await followersCountOf(target.id) };
}

export async function unfollowUser(input: { caller: TCaller; userId: string }) {
  const target = await requireUser(input.userId);
  const removed = await (await getDb())
    .delete(follows)
    .where(and(eq(follows.followerId, input.caller.userId), eq(follows.followingId, target.id)))
    .returning({ id: follows.followerId });
  if (removed.length === 0) throw new AppError('NOT_FOUND', `You do not follow @${target.username}`);
  return { following: false, followersCount: await followersCountOf(target.id) };
}

export async function followStatus(input: { caller: TCaller; userId: string }) {
  const target = await requireUser(input.userId);
  const [f] = await (await getDb())
    .select({ id: follows.followerId })
    .from(follows)
    .where(and(eq(follows.followerId, input.caller.userId), eq(follows.followingId, target.id)));
  return { isFollowing: !!f, following: !!f };
}

const followList = async (ident: string, direction: 'followers' | 'following', q: { limit: number; offset: number }, callerId: string | null) => {
  const user = await requireUser(ident);
  const db = await getDb();
  const mine = direction === 'followers' ? follows.followingId : follows.followerId;
  const other = direction === 'followers' ? follows.followerId : follows.followingId;
  const listed = and(eq(mine, user.id), canSeeUser(sql`${other}`, callerId));
  const rows = await db
    .select({
      user: users,
      followedAt: follows.createdAt,
      isFollowing: sql<boolean>`exists(select 1 from ${follows} v where v.follower_id = ${callerId ?? ''} and v.following_id = ${users.id})`,
    })
    .from(follows)
    .innerJoin(users, eq(users.id, other))
    .where(listed)
    .orderBy(desc(follows.createdAt))
    .limit(q.limit)
    .offset(q.offset);
  const [t] = await db.select({ n: count() }).from(follows).where(listed);
  const list = rows.map((r) => ({
    ...toUserSummary(r.user, { reputation: false }),
    followedAt: r.followedAt.toISOString(),
    isFollowing: r.isFollowing === true || (r.isFollowing as unknown) === 't',
  }));
  return { list, total: Number(t?.n ?? 0) };
};

/** Who follows `userId`, newest first, each with whether the caller follows them. */
export async function listFollowers(input: { caller: TCaller | null; userId: string; limit: number; offset: number }) {
  const { list, total } = await followList(input.userId, 'followers', input, input.caller?.userId ?? null);
  return { followers: list, users: list, count: list.length, total };
}

/** Whom `userId` follows, newest first, each with whether the caller follows them. */
export async function listFollowing(input: { caller: TCaller | null; userId: string; limit: number; offset: number }) {
  const { list, total } = await followList(input.userId, 'following', input, input.caller?.userId ?? null);
  return { following: list, users: list, count: list.length, total };
}

export async function favoriteProfile(input: { caller: TCaller; userId: string }) {
  const target = await requireUser(input.userId);
  if (target.id === input.caller.userId) throw new AppError('VALIDATION_ERROR', 'You cannot favorite your own profile');
  await (await getDb()).insert(favorites).values({ userId: input.caller.userId, favoriteUserId: target.id, createdAt: now() }).onConflictDoNothing();
  return { favorited: true };
}

export async function unfavoriteProfile(input: { caller: TCaller; userId: string }) {
  const target = await requireUser(input.userId);
  await (await getDb()).delete(favorites).where(and(eq(favorites.userId, input.caller.userId), eq(favorites.favoriteUserId, target.id)));
  return { favorited: false };
}

/** The profiles the caller favorited, newest first (a block removes the favorite; none in a block is listed meanwhile). */
export async function listFavoriteProfiles(input: { caller: TCaller }) {
  const rows = await (await getDb())
    .select({ user: users, at: favorites.createdAt })
    .from(favorites)
    .innerJoin(users, eq(users.id, favorites.favoriteUserId))
    .where(and(eq(favorites.userId, input.caller.userId), canSeeUser(sql`${users.id}`, input.caller.userId)))
    .orderBy(desc(favorites.createdAt), sql`${users.username}`);
  const profiles = rows.map((r) => ({ ...toUserSummary(r.user), favoritedAt: r.at.toISOString() }));
  return { profiles, favorites: profiles, count: profiles.length };
}
