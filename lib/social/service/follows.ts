/**
 * Follows and favorites. A follow is one insert guarded by the primary key: ten parallel follows
 * make one (the others are ALREADY_FOLLOWING), and the followed user is notified once.
 */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { favorites, follows, users } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
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

export const followUser = async (me: { id: string; username: string }, targetIdent: string) => {
  const target = await requireUser(targetIdent);
  if (target.id === me.id) throw new AppError('CANNOT_FOLLOW_SELF', 'You cannot follow yourself');
  await withTransaction(async (tx) => {
    const inserted = await tx
      .insert(follows)
      .values({ followerId: me.id, followingId: target.id, createdAt: now() })
      .onConflictDoNothing()
      .returning({ id: follows.followerId });
    if (inserted.length === 0) throw new AppError('ALREADY_FOLLOWING', `You already follow @${target.username}`);
    await notify(tx, [{ userId: target.id, type: 'follow', actorId: me.id, title: 'New follower', message: `@${me.username} followed you` }]);
  });
  return { following: true, followersCount: await followersCountOf(target.id) };
};

export const unfollowUser = async (meId: string, targetIdent: string) => {
  const target = await requireUser(targetIdent);
  const removed = await (await getDb())
    .delete(follows)
    .where(and(eq(follows.followerId, meId), eq(follows.followingId, target.id)))
    .returning({ id: follows.followerId });
  if (removed.length === 0) throw new AppError('NOT_FOUND', `You do not follow @${target.username}`);
  return { following: false, followersCount: await followersCountOf(target.id) };
};

export const followStatus = async (meId: string, targetIdent: string) => {
  const target = await requireUser(targetIdent);
  const [f] = await (await getDb())
    .select({ id: follows.followerId })
    .from(follows)
    .where(and(eq(follows.followerId, meId), eq(follows.followingId, target.id)));
  return { isFollowing: !!f, following: !!f };
};

const followList = async (ident: string, direction: 'followers' | 'following', q: { limit: number; offset: number }, viewerId: string | null) => {
  const user = await requireUser(ident);
  const db = await getDb();
  const mine = direction === 'followers' ? follows.followingId : follows.followerId;
  const other = direction === 'followers' ? follows.followerId : follows.followingId;
  const rows = await db
    .select({
      user: users,
      followedAt: follows.createdAt,
      isFollowing: sql<boolean>`exists(select 1 from ${follows} v where v.follower_id = ${viewerId ?? ''} and v.following_id = ${users.id})`,
    })
    .from(follows)
    .innerJoin(users, eq(users.id, other))
    .where(eq(mine, user.id))
    .orderBy(desc(follows.createdAt))
    .limit(q.limit)
    .offset(q.offset);
  const [t] = await db.select({ n: count() }).from(follows).where(eq(mine, user.id));
  const list = rows.map((r) => ({
    id: r.user.id,
    username: r.user.username,
    displayName: r.user.displayName,
    profileImageUrl: r.user.profileImageUrl,
    isActor: r.user.isActor,
    followedAt: r.followedAt.toISOString(),
    isFollowing: r.isFollowing === true || (r.isFollowing as unknown) === 't',
  }));
  return { list, total: Number(t?.n ?? 0) };
};

export const listFollowers = async (ident: string, q: { limit: number; offset: number }, viewerId: string | null) => {
  const { list, total } = await followList(ident, 'followers', q, viewerId);
  return { followers: list, users: list, count: list.length, total };
};

export const listFollowing = async (ident: string, q: { limit: number; offset: number }, viewerId: string | null) => {
  const { list, total } = await followList(ident, 'following', q, viewerId);
  return { following: list, users: list, count: list.length, total };
};

export const favoriteProfile = async (meId: string, targetIdent: string) => {
  const target = await requireUser(targetIdent);
  if (target.id === meId) throw new AppError('VALIDATION_ERROR', 'You cannot favorite your own profile');
  await (await getDb()).insert(favorites).values({ userId: meId, favoriteUserId: target.id, createdAt: now() }).onConflictDoNothing();
  return { favorited: true };
};

export const unfavoriteProfile = async (meId: string, targetIdent: string) => {
  const target = await requireUser(targetIdent);
  await (await getDb()).delete(favorites).where(and(eq(favorites.userId, meId), eq(favorites.favoriteUserId, target.id)));
  return { favorited: false };
};

export const listFavoriteProfiles = async (meId: string) => {
  const rows = await (await getDb())
    .select({ user: users, at: favorites.createdAt })
    .from(favorites)
    .innerJoin(users, eq(users.id, favorites.favoriteUserId))
    .where(eq(favorites.userId, meId))
    .orderBy(desc(favorites.createdAt), sql`${users.username}`);
  const profiles = rows.map((r) => ({ ...toUserSummary(r.user), favoritedAt: r.at.toISOString() }));
  return { profiles, favorites: profiles, count: profiles.length };
};
