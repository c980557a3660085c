/**
 * Reading posts: one post, and every feed (latest, by author, following with reposts, favorites,
 * by tag). Each page is a fixed number of statements (lib/posts/queries.ts). Public reads take a
 * `caller` that may be null: it sets the caller's like and share flags and what the caller may
 * see (lib/moderation/visibility canSee, applied in every statement of lib/posts/queries.ts).
 */
import 'server-only';
import { getDb } from '@/db/client';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { findUserByIdentifier } from '@/lib/users/queries';
import { decodeCursor } from '../cursor';
import type { TFeedFilterName } from '../feed-filter';
import { toPostDto } from '../dto';
import { loadPosts, readFeed, type TFeedSource, type TPageSpec } from '../queries';

const callerIdOf = (caller: TCaller | null) => caller?.userId ?? null;

/** Moderators (every administrator is one) read a removed post's content; everyone else its place and reason. */
const readOpts = (caller: TCaller | null) => ({ canSeeRemoved: !!caller && (caller.isModerator || caller.isAdmin) });

/**
 * One post, with the caller's like and share flags; 404 when unknown, and the same 404 when the
 * caller may not see it (a block either way, their mute, a banned author): a hidden post is
 * indistinguishable from a missing one.
 */
export async function getPost(input: { caller: TCaller | null; postId: string }) {
  const db = await getDb();
  const row = (await loadPosts(db, [input.postId], callerIdOf(input.caller))).get(input.postId);
  if (!row) throw new AppError('NOT_FOUND', 'Post not found', { postId: input.postId });
  return { post: toPostDto(row, null, readOpts(input.caller)) };
}

const pageSpec = (q: { limit: number; page?: number; offset?: number; cursor?: string }): TPageSpec =>
  q.cursor ? { limit: q.limit, cursor: decodeCursor(q.cursor) } : { limit: q.limit, offset: q.offset ?? ((q.page ?? 1) - 1) * q.limit };

/** Resolves the user a path names (id or username) for their posts; 404 when unknown. */
const authorIdOf = async (ident: string) => {
  const u = await findUserByIdentifier(await getDb(), ident);
  if (!u) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: ident });
  return u.id;
};

/**
 * GET /api/posts: the page form (pagination and total) unless a cursor is given (nextCursor only).
 * `userId` or `actorId` filters by author (an id or a username); `following` reads the caller's
 * following feed. A filter that names no user matches no post: an empty page, not a 404, as every
 * list filtered by a user in its query answers (the markets and trades lists too); a user named in
 * the path (GET /api/users/{userId}/posts) is a resource, and 404 when unknown.
 * `filter` (lib/posts/feed-filter.ts): `players` leaves out NPCs' posts (as `hideNpcs`), `mine`
 * keeps the posts about the markets and tickers the caller holds or has open orders in (as
 * `held`), `following` reads the following feed (as `following`); the last two need a signed-in
 * caller (401 otherwise). They narrow every form and combine with the booleans (lib/posts/queries.ts
 * TFeedFilter): a page is still one statement for the items and one for the posts.
 */
export async function listPosts(input: {
  caller: TCaller | null;
  page: number;
  limit: number;
  offset?: number;
  cursor?: string;
  userId?: string;
  actorId?: string;
  type?: 'post' | 'article';
  following?: boolean;
  hideNpcs?: boolean;
  held?: boolean;
  filter?: TFeedFilterName;
}) {
  const { caller, ...q } = input;
  const held = q.held === true || q.filter === 'mine';
  const following = q.following === true || q.filter === 'following';
  if (held && !caller) throw new AppError('UNAUTHORIZED', 'Sign in to read the posts about what you hold');
  const filter = { hideNpcs: q.hideNpcs === true || q.filter === 'players', heldBy: held && caller ? caller.userId : undefined };
  let source: TFeedSource;
  if (following) {
    if (!caller) throw new AppError('UNAUTHORIZED', 'Sign in to read the posts of the people you follow');
    source = { kind: 'following', userId: caller.userId, type: q.type };
  } else if (q.userId || q.actorId) {
    const author = await findUserByIdentifier(await getDb(), (q.userId ?? q.actorId)!);
    if (!author) {
      return { posts: [], nextCursor: null, ...(q.cursor ? {} : { pagination: { page: q.page, limit: q.limit, total: 0, pages: 0 } }) };
    }
    source = { kind: 'author', authorId: author.id, type: q.type };
  } else {
    source = { kind: 'all', type: q.type };
  }
  const spec = pageSpec(q);
  const withTotal = !q.cursor;
  const db = await getDb();
  const { posts: items, nextCursor, total } = await readFeed(db, { ...source, filter }, spec, callerIdOf(caller), withTotal, readOpts(caller));
  return {
    posts: items,
    nextCursor,
    ...(total !== undefined ? { pagination: { page: q.page, limit: q.limit, total, pages: Math.ceil(total / q.limit) } } : {}),
  };
}

/** A user's posts (`userId`: id or username), page form. */
export async function listUserPosts(input: { caller: TCaller | null; userId: string; page: number; limit: number; type?: 'post' | 'article' }) {
  const authorId = await authorIdOf(input.userId);
  const db = await getDb();
  const { posts: items, total } = await readFeed(
    db,
    { kind: 'author', authorId, type: input.type },
    { limit: input.limit, offset: (input.page - 1) * input.limit },
    callerIdOf(input.caller),
    true,
    readOpts(input.caller),
  );
  return { posts: items, pagination: { page: input.page, limit: input.limit, total: total!, pages: Math.ceil(total! / input.limit) } };
}

/** The posts of the profiles the caller favorited, by cursor. */
export async function listFavoritesFeed(input: { caller: TCaller; limit: number; cursor?: string }) {
  const { caller, ...q } = input;
  const db = await getDb();
  const { posts: items, nextCursor } = await readFeed(db, { kind: 'favorites', userId: caller.userId }, pageSpec(q), caller.userId, false, readOpts(caller));
  return { posts: items, nextCursor };
}

/** Posts with a tag, page form by offset. */
export async function listTagPosts(input: { caller: TCaller | null; tag: string; limit: number; offset: number }) {
  const db = await getDb();
  const { posts: items, total } = await readFeed(
    db,
    { kind: 'tag', tag: input.tag },
    { limit: input.limit, offset: input.offset },
    callerIdOf(input.caller),
    true,
    readOpts(input.caller),
  );
  return { tag: input.tag, posts: items, count: items.length, total: total! };
}
