/**
 * Feed queries. A page of any feed costs a fixed number of statements, whatever its size:
 *   1. the page: which posts (and reposts) in which order, keyset or offset;
 *   2. the posts: content, author, counters, tags and the caller's like/share flags, all ids at once;
 *   3. (page form only) the total.
 * Every statement filters authors through lib/moderation/visibility's `canSee` (blocks either
 * way, the caller's mutes, banned authors): the page (posts, and for reposts both the post's
 * author and the sharer) and the hydration too, which is what makes a single hidden post read
 * 404 (lib/posts/service/read-posts.ts getPost) and keeps a block committed between statements 1
 * and 2 from showing the post anyway.
 */
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { favorites, follows, postLikes, posts, postTags, shares, users } from '@/db/schema';
import { canSee } from '@/lib/moderation/visibility';
import { encodeCursor, type TCursor } from './cursor';
import { toPostDto, type TPostRowRaw, type TRepostRaw } from './dto';

export type TFeedSource =
  | { kind: 'all'; type?: 'post' | 'article' }
  | { kind: 'author'; authorId: string; type?: 'post' | 'article' }
  | { kind: 'following'; userId: string; type?: 'post' | 'article' }
  | { kind: 'favorites'; userId: string }
  | { kind: 'tag'; tag: string };

export type TPageSpec = { limit: number } & ({ cursor: TCursor } | { offset: number });

type TPageRow = { item_id: string; post_id: string; at: string | Date } & Partial<TRepostRaw>;

const typeFilter = (type?: 'post' | 'article') => (type ? sql`and p.type = ${type}` : sql``);

/** The items of a feed (posts, and for `following` the reposts of followed users) as one union. */
const itemsOf = (source: TFeedSource, callerId: string | null): SQL => {
  const own = (where: SQL) => sql`
    select p.id as item_id, p.id as post_id, p.created_at as at, null::text as share_id, null::text as sharer_id,
      null::text as sharer_username, null::text as sharer_display_name, null::text as sharer_image, null::text as quote
    from ${posts} p where ${where} and ${canSee(sql`p.author_id`, callerId)}`;
  switch (source.kind) {
    case 'all':
      return own(sql`true ${typeFilter(source.type)}`);
    case 'author':
      return own(sql`p.author_id = ${source.authorId} ${typeFilter(source.type)}`);
    case 'favorites':
      return own(sql`p.author_id in (select favorite_user_id from ${favorites} where user_id = ${source.userId})`);
    case 'tag':
      return own(sql`p.id in (select post_id from ${postTags} where tag = ${source.tag})`);
    case 'following': {
      const followed = sql`(select following_id from ${follows} where follower_id = ${source.userId})`;
      return sql`${own(sql`p.author_id in ${followed} ${typeFilter(source.type)}`)}
        union all
        select s.id as item_id, s.post_id, s.created_at as at, s.id as share_id, s.user_id as sharer_id,
          su.username as sharer_username, su.display_name as sharer_display_name, su.profile_image_url as sharer_image, s.quote
        from ${shares} s join ${users} su on su.id = s.user_id join ${posts} p on p.id = s.post_id
        where s.user_id in ${followed} ${typeFilter(source.type)} and ${canSee(sql`p.author_id`, callerId)}
          and ${canSee(sql`s.user_id`, callerId)}`;
    }
  }
};

/**
 * Statement 1: the ordered page of items. Exported so the benchmark can issue it directly.
 * `nulls last` changes nothing in the order (the columns are not null) but matches the indexes
 * (posts_created_idx and posts_author_created_idx are `desc nulls last`; a plain `desc` means
 * nulls first and PostgreSQL does not use them for it): the page then walks the index and probes
 * the visibility predicates for the rows it keeps, instead of sorting every visible post.
 */
export const buildFeedPageQuery = (source: TFeedSource, page: TPageSpec, callerId: string | null) => {
  const keyset =
    'cursor' in page ? sql`where (f.at, f.item_id) < (${page.cursor.at.toISOString()}::timestamptz, ${page.cursor.id})` : sql``;
  const offset = 'offset' in page ? sql`offset ${page.offset}` : sql``;
  return sql`select f.* from (${itemsOf(source, callerId)}) f ${keyset} order by f.at desc nulls last, f.item_id desc nulls last limit ${page.limit} ${offset}`;
};

/** Statement 3 (page form): how many items the feed has. */
export const buildFeedCountQuery = (source: TFeedSource, callerId: string | null) =>
  sql`select count(*) as n from (${itemsOf(source, callerId)}) f`;

/** Statement 2: the posts behind the ids that the caller may see, with authors, tags and the caller's flags. */
export const buildPostsQuery = (ids: string[], callerId: string | null) => {
  const caller = callerId ?? '';
  return sql`
    select p.id, p.type, p.content, p.image_url, p.related_question_id, p.likes_count, p.comments_count, p.shares_count,
      p.created_at, p.author_id, u.username, u.display_name, u.profile_image_url, u.reputation_points, u.is_actor,
      array(select t.tag from ${postTags} t where t.post_id = p.id order by t.tag) as tags,
      exists(select 1 from ${postLikes} l where l.post_id = p.id and l.user_id = ${caller}) as liked,
      exists(select 1 from ${shares} s where s.post_id = p.id and s.user_id = ${caller}) as shared
    from ${posts} p join ${users} u on u.id = p.author_id
    where p.id in (${ids.length ? sql.join(ids.map((id) => sql`${id}`), sql`, `) : sql`null`}) and ${canSee(sql`p.author_id`, callerId)}`;
};

/** The posts of `ids` the caller may see, by id (missing and hidden ids are absent). */
export const loadPosts = async (db: DbOrTx, ids: string[], callerId: string | null) => {
  if (ids.length === 0) return new Map<string, TPostRowRaw>();
  const rows = rowsOf<TPostRowRaw>(await db.execute(buildPostsQuery([...new Set(ids)], callerId)));
  return new Map(rows.map((r) => [r.id, r]));
};

/** One page of a feed: the posts (reposts marked), the next cursor, and the total when asked. */
export const readFeed = async (db: DbOrTx, source: TFeedSource, page: TPageSpec, callerId: string | null, withTotal: boolean) => {
  const items = rowsOf<TPageRow>(await db.execute(buildFeedPageQuery(source, page, callerId)));
  const byId = await loadPosts(
    db,
    items.map((i) => i.post_id),
    callerId,
  );
  const postsOut = items.flatMap((i) => {
    const row = byId.get(i.post_id);
    if (!row) return [];
    return [toPostDto(row, i.share_id ? (i as TRepostRaw) : null)];
  });
  const last = items.at(-1);
  const nextCursor = last && items.length === page.limit ? encodeCursor({ at: new Date(last.at), id: last.item_id }) : null;
  let total: number | undefined;
  if (withTotal) {
    const [r] = rowsOf<{ n: number | string }>(await db.execute(buildFeedCountQuery(source, callerId)));
    total = Number(r?.n ?? 0);
  }
  return { posts: postsOut, nextCursor, total };
};
