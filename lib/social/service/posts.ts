/** Posts: create (tags and mentions in the same transaction), read one, and every feed. */
import { eq, inArray, sql } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { markets, posts, postTags, users } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { emitEvent } from '@/lib/events/outbox';
import { AppError } from '@/lib/errors/app-error';
import { notify } from '@/lib/notifications/service';
import { findUserByIdentifier } from '@/lib/users/queries';
import { loadPosts, readFeed, type TFeedSource, type TPageSpec } from '../queries';
import { toPostDto } from '../dto';
import { decodeCursor } from '../cursor';
import { POST_MAX_CHARS, parseMentions, parseTags, visibleLength } from '@/lib/posts/text';

const IMAGE_URL = /^(\/api\/uploads\/[A-Za-z0-9._-]+|https?:\/\/\S+)$/;

export const getPost = async (id: string, viewerId: string | null) => {
  const db = await getDb();
  const row = (await loadPosts(db, [id], viewerId)).get(id);
  if (!row) throw new AppError('NOT_FOUND', 'Post not found', { postId: id });
  return { post: toPostDto(row) };
};

/** The post row or 404. */
export const requirePost = async (id: string) => {
  const db = await getDb();
  const [p] = await db.select({ id: posts.id, authorId: posts.authorId }).from(posts).where(eq(posts.id, id));
  if (!p) throw new AppError('NOT_FOUND', 'Post not found', { postId: id });
  return p;
};

export const createPost = async (input: {
  authorId: string;
  authorUsername: string;
  content: string;
  type: 'post' | 'article';
  relatedQuestion?: string | null;
  imageUrl?: string | null;
}) => {
  const content = input.content.trim();
  const length = visibleLength(content);
  if (length < 1 || length > POST_MAX_CHARS) {
    throw new AppError('VALIDATION_ERROR', `A post is 1 to ${POST_MAX_CHARS} characters (this one is ${length})`, { length, max: POST_MAX_CHARS });
  }
  if (input.imageUrl && !IMAGE_URL.test(input.imageUrl)) {
    throw new AppError('VALIDATION_ERROR', 'imageUrl must be an uploaded image (/api/uploads/…) or an http(s) URL');
  }
  const db = await getDb();
  if (input.relatedQuestion) {
    const [m] = await db.select({ id: markets.id }).from(markets).where(eq(markets.id, input.relatedQuestion));
    if (!m) throw new AppError('VALIDATION_ERROR', 'relatedQuestion is not a known question', { relatedQuestion: input.relatedQuestion });
  }
  const tags = parseTags(content);
  const mentions = parseMentions(content).filter((u) => u !== input.authorUsername.toLowerCase());
  const at = now();
  const id = await withTransaction(async (tx) => {
    const [post] = await tx
      .insert(posts)
      .values({
        authorId: input.authorId,
        type: input.type,
        content,
        imageUrl: input.imageUrl ?? null,
        relatedQuestionId: input.relatedQuestion ?? null,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: posts.id });
    if (tags.length) await tx.insert(postTags).values(tags.map((tag) => ({ postId: post!.id, tag, createdAt: at })));
    if (mentions.length) {
      const mentioned = await tx
        .select({ id: users.id })
        .from(users)
        .where(inArray(sql`lower(${users.username})`, mentions));
      await notify(
        tx,
        mentioned.map((u) => ({
          userId: u.id,
          type: 'mention' as const,
          actorId: input.authorId,
          postId: post!.id,
          title: 'You were mentioned',
          message: `@${input.authorUsername} mentioned you: ${content.slice(0, 120)}`,
        })),
      );
    }
    await emitEvent(tx, 'feed', {
      type: 'feed_update',
      data: { post: { id: post!.id, content, authorId: input.authorId, timestamp: at.toISOString() } },
    });
    return post!.id;
  });
  const { post } = await getPost(id, input.authorId);
  return { post };
};

const pageSpec = (q: { limit: number; page?: number; offset?: number; cursor?: string }): TPageSpec =>
  q.cursor ? { limit: q.limit, cursor: decodeCursor(q.cursor) } : { limit: q.limit, offset: q.offset ?? ((q.page ?? 1) - 1) * q.limit };

/** Resolves a user given by id or username for a feed filter; 404 when unknown. */
const authorIdOf = async (ident: string) => {
  const u = await findUserByIdentifier(await getDb(), ident);
  if (!u) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: ident });
  return u.id;
};

/** GET /api/posts: the page form (pagination and total) unless a cursor is given (nextCursor only). */
export const listPosts = async (
  q: { page: number; limit: number; offset?: number; cursor?: string; userId?: string; actorId?: string; type?: 'post' | 'article'; following?: boolean },
  viewerId: string | null,
) => {
  let source: TFeedSource;
  if (q.following) {
    if (!viewerId) throw new AppError('UNAUTHORIZED', 'Sign in to read the posts of the people you follow');
    source = { kind: 'following', userId: viewerId, type: q.type };
  } else if (q.userId || q.actorId) {
    source = { kind: 'author', authorId: await authorIdOf((q.userId ?? q.actorId)!), type: q.type };
  } else {
    source = { kind: 'all', type: q.type };
  }
  const spec = pageSpec(q);
  const withTotal = !q.cursor;
  const db = await getDb();
  const { posts: items, nextCursor, total } = await readFeed(db, source, spec, viewerId, withTotal);
  return {
    posts: items,
    nextCursor,
    ...(total !== undefined ? { pagination: { page: q.page, limit: q.limit, total, pages: Math.ceil(total / q.limit) } } : {}),
  };
};

export const listUserPosts = async (userIdent: string, q: { page: number; limit: number; type?: 'post' | 'article' }, viewerId: string | null) => {
  const authorId = await authorIdOf(userIdent);
  const db = await getDb();
  const { posts: items, total } = await readFeed(db, { kind: 'author', authorId, type: q.type }, { limit: q.limit, offset: (q.page - 1) * q.limit }, viewerId, true);
  return { posts: items, pagination: { page: q.page, limit: q.limit, total: total!, pages: Math.ceil(total! / q.limit) } };
};

export const listFavoritesFeed = async (userId: string, q: { limit: number; cursor?: string }) => {
  const db = await getDb();
  const { posts: items, nextCursor } = await readFeed(db, { kind: 'favorites', userId }, pageSpec(q), userId, false);
  return { posts: items, nextCursor };
};

export const listTagPosts = async (tag: string, q: { limit: number; offset: number }, viewerId: string | null) => {
  const db = await getDb();
  const { posts: items, total } = await readFeed(db, { kind: 'tag', tag }, { limit: q.limit, offset: q.offset }, viewerId, true);
  return { tag, posts: items, count: items.length, total: total! };
};
