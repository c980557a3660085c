/**
 * Feed queries. A page of any feed costs a fixed number of statements, whatever its size:
 *   1. the page: which posts (and reposts) in which order, keyset or offset;
 *   2. the posts: content, author, counters, tags and the caller's like/share flags, all ids at once,
 *      with the related market, the author's position in it, the reported trade and the $TICKERs;
 *   3. (page form only) the total.
 * Every statement filters authors through lib/moderation/visibility's `canSee` (blocks either
 * way, the caller's mutes, banned authors): the page (posts, and for reposts both the post's
 * author and the sharer) and the hydration too, which is what makes a single hidden post read
 * 404 (lib/posts/service/read-posts.ts getPost) and keeps a block committed between statements 1
 * and 2 from showing the post anyway.
 */
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import {
  favorites,
  follows,
  marketPositions,
  marketPricePoints,
  markets,
  npcCalibration,
  perpMarkets,
  perpOrders,
  perpPositions,
  perpTrades,
  postCounts,
  postLikes,
  posts,
  postTotals,
  postTags,
  predictionOrders,
  shares,
  trades,
  users,
} from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { canSee, unseenAuthorsQuery } from '@/lib/moderation/visibility';
import { encodeCursor, type TCursor } from './cursor';
import { toPostDto, type TPostRowRaw, type TRepostRaw } from './dto';

/**
 * Narrowing any feed (GET /api/posts `filter`: players is `hideNpcs`, mine is `heldBy`):
 * `hideNpcs` leaves out posts by NPC actors (users.is_actor; for a repost, an NPC's post or an
 * NPC's share); `heldBy` keeps only posts about what that user holds or has an open order in: a
 * market with an open position (shares > 0, not settled) or an open limit order, named by the
 * post's relatedQuestion or by the prediction trade it reports, or a ticker with an open perp or an
 * open perp order, named by the perp trade it reports or written as `$TICKER` in its text.
 */
export type TFeedFilter = { hideNpcs?: boolean; heldBy?: string };

export type TFeedSource = (
  | { kind: 'all'; type?: 'post' | 'article' }
  | { kind: 'author'; authorId: string; type?: 'post' | 'article' }
  | { kind: 'following'; userId: string; type?: 'post' | 'article' }
  | { kind: 'favorites'; userId: string }
  | { kind: 'tag'; tag: string }
) & { filter?: TFeedFilter };

export type TPageSpec = { limit: number } & ({ cursor: TCursor } | { offset: number });

type TPageRow = { item_id: string; post_id: string; at: string | Date } & Partial<TRepostRaw>;

const typeFilter = (type?: 'post' | 'article') => (type ? sql`and p.type = ${type}` : sql``);

/** Not an NPC's: a primary-key probe of users per row the page keeps. */
const notNpc = (authorColumn: SQL) => sql`not exists (select 1 from ${users} nu where nu.id = ${authorColumn} and nu.is_actor)`;

/**
 * About what `userId` holds or has an open order in. The markets (open positions: shares > 0, not
 * settled; open or partly filled limit orders) and the tickers (open perps, open perp orders) are
 * two small sets read once per statement (`array(...)`: init plans over
 * market_positions_user_market_side_idx, prediction_orders_user_idx, perp_positions_user_status_idx
 * and perp_orders_user_idx); each post the page walks is then checked by its own columns, its
 * reported trade (a primary-key probe of the trade), and one `$TICKER` pattern.
 */
const aboutHoldings = (userId: string) => {
  const heldMarkets = sql`array(select mp.market_id from ${marketPositions} mp where mp.user_id = ${userId} and mp.shares > 0 and mp.settled_at is null
    union select po.market_id from ${predictionOrders} po where po.user_id = ${userId} and po.status in ('open', 'partially_filled'))`;
  const tickerRows = sql`(select pp.ticker from ${perpPositions} pp where pp.user_id = ${userId} and pp.status = 'open'
    union select xo.ticker from ${perpOrders} xo where xo.user_id = ${userId} and xo.status = 'open') ht`;
  const heldTickers = sql`array(select ht.ticker from ${tickerRows})`;
  // One pattern for every held ticker (anything but letters and digits escaped), null when none is
  // held: each post costs one match, with the same token bounds as the `tickers` field below.
  const tickerPattern = sql`(select '(^|[^A-Za-z0-9_$])[$](' || string_agg(distinct regexp_replace(ht.ticker, '([^A-Za-z0-9])', '\\\\\\1', 'g'), '|') || ')($|[^A-Za-z0-9_])' from ${tickerRows})`;
  return sql`(p.related_question_id = any(${heldMarkets})
    or (p.trade_kind = 'prediction' and exists (select 1 from ${trades} htr where htr.id = p.trade_id and htr.market_id = any(${heldMarkets})))
    or (p.trade_kind = 'perp' and exists (select 1 from ${perpTrades} hx where hx.id = p.trade_id and hx.ticker = any(${heldTickers})))
    or p.content ~ ${tickerPattern})`;
};

/** The filter's conditions on a post row `p` (and on the sharer of a repost). */
const filterOf = (filter: TFeedFilter | undefined, sharerColumn?: SQL): SQL => {
  const parts: SQL[] = [];
  if (filter?.hideNpcs) {
    parts.push(notNpc(sql`p.author_id`));
    if (sharerColumn) parts.push(notNpc(sharerColumn));
  }
  if (filter?.heldBy) parts.push(aboutHoldings(filter.heldBy));
  return parts.length ? sql`and ${sql.join(parts, sql` and `)}` : sql``;
};

/** The items of a feed (posts, and for `following` the reposts of followed users) as one union. */
const itemsOf = (source: TFeedSource, callerId: string | null): SQL => {
  const own = (where: SQL) => sql`
    select p.id as item_id, p.id as post_id, p.created_at as at, null::text as share_id, null::text as sharer_id,
      null::text as sharer_username, null::text as sharer_display_name, null::text as sharer_image, null::text as quote
    from ${posts} p where ${where} and ${canSee(sql`p.author_id`, callerId)} ${filterOf(source.filter)}`;
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
          and ${canSee(sql`s.user_id`, callerId)} ${filterOf(source.filter, sql`s.user_id`)}`;
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
export function buildFeedPageQuery(source: TFeedSource, page: TPageSpec, callerId: string | null) {
  const keyset =
    'cursor' in page ? sql`where (f.at, f.item_id) < (${page.cursor.at.toISOString()}::timestamptz, ${page.cursor.id})` : sql``;
  const offset = 'offset' in page ? sql`offset ${page.offset}` : sql``;
  return sql`select f.* from (${itemsOf(source, callerId)}) f ${keyset} order by f.at desc nulls last, f.item_id desc nulls last limit ${page.limit} ${offset}`;
}

/** How many items the feed has, counted item by item: every feed but everyone's (and the tests' reference). */
export function buildFeedExactCountQuery(source: TFeedSource, callerId: string | null) {
  return sql`select count(*) as n from (${itemsOf(source, callerId)}) f`;
}

/**
 * Statement 3 (page form): how many items the feed has. The feed of everyone (unless narrowed to
 * what a user holds) is not counted post by post: it is the kept total of its types (post_totals,
 * migration 0035) less the kept counts (post_counts) of the authors `canSee` hides from this
 * caller (banned authors but the caller, and for a signed-in caller the blocks either way and
 * their mutes; with `hideNpcs` the NPC actors too), so it costs what those sets hold. Posts are
 * never deleted and never change author or type, so both give the same number
 * (test/api/feed-total.int.test.ts holds them equal).
 */
export function buildFeedCountQuery(source: TFeedSource, callerId: string | null) {
  if (source.kind !== 'all' || source.filter?.heldBy) return buildFeedExactCountQuery(source, callerId);
  const ofType = (column: SQL) => (source.type ? sql`and ${column} = ${source.type}` : sql``);
  const hidden = [unseenAuthorsQuery(callerId)];
  if (source.filter?.hideNpcs) hidden.push(sql`select nu.id from ${users} nu where nu.is_actor`);
  return sql`select (select coalesce(sum(t.n), 0) from ${postTotals} t where true ${ofType(sql`t.type`)})
    - (select coalesce(sum(c.n), 0) from ${postCounts} c where c.author_id in (${sql.join(hidden, sql` union `)}) ${ofType(sql`c.type`)}) as n`;
}

const DAY_MS = 86_400_000;

/**
 * Statement 2: the posts behind the ids that the caller may see, with authors, tags and the
 * caller's flags, and what makes a post tradeable, still in the one statement (a page of 20 costs
 * what a page of 2 does):
 * - the relatedQuestion's market (reserves, status) and its YES price 24 h before `at`, the same
 *   rule as lib/markets/queries (the newest point at or before then, else the first point);
 * - the author's open position in it (shares > 0, not settled; the larger side if both);
 * - the trade the post reports (`trade_kind`/`trade_id`: a `trades` row, or a `perp_trades` row
 *   with its position's leverage);
 * - the perp tickers the content writes as `$TICKER` (a whole token, case as listed).
 */
export function buildPostsQuery(ids: string[], callerId: string | null, at: Date = now()) {
  const caller = callerId ?? '';
  const since = sql`${new Date(at.getTime() - DAY_MS).toISOString()}::timestamptz`;
  return sql`
    select p.id, p.type, p.content, p.image_url, p.related_question_id, p.likes_count, p.comments_count, p.shares_count,
      p.created_at, p.removed_at, p.removed_reason, p.author_id, u.username, u.display_name, u.profile_image_url, u.reputation_points, u.is_actor,
      nc.brier::text as author_brier, nc.resolved as author_resolved,
      array(select t.tag from ${postTags} t where t.post_id = p.id order by t.tag) as tags,
      exists(select 1 from ${postLikes} l where l.post_id = p.id and l.user_id = ${caller}) as liked,
      exists(select 1 from ${shares} s where s.post_id = p.id and s.user_id = ${caller}) as shared,
      m.id as market_id, m.text as market_text, m.status as market_status, m.yes_shares::text as market_yes_shares,
      m.no_shares::text as market_no_shares, m.resolved_outcome as market_resolved_outcome,
      case when m.id is null then null else coalesce(
        (select pp.yes_price from ${marketPricePoints} pp where pp.market_id = m.id and pp.created_at <= ${since} order by pp.created_at desc limit 1),
        (select pp.yes_price from ${marketPricePoints} pp where pp.market_id = m.id order by pp.created_at asc limit 1))::text end as market_yes_24h_ago,
      ap.side as position_side, ap.shares::text as position_shares, ap.cost_basis::text as position_cost_basis,
      p.trade_kind,
      coalesce(pt.id, xt.id) as trade_id, coalesce(pt.side, xt.side) as trade_side, coalesce(pt.action, xt.action) as trade_action,
      pt.market_id as trade_market_id, xt.ticker as trade_ticker,
      coalesce(pt.amount, xt.size)::text as trade_amount, coalesce(pt.price, xt.price)::text as trade_price,
      pt.shares::text as trade_shares, xp.leverage::text as trade_leverage, coalesce(pt.created_at, xt.created_at) as trade_created_at,
      array(select pm.ticker from ${perpMarkets} pm
        where position(('$' || pm.ticker) in p.content) > 0 and p.content ~ ('(^|[^A-Za-z0-9_$])[$]' || pm.ticker || '($|[^A-Za-z0-9_])')
        order by position(('$' || pm.ticker) in p.content)) as tickers
    from ${posts} p join ${users} u on u.id = p.author_id
      left join ${npcCalibration} nc on nc.user_id = p.author_id and u.is_actor and nc.resolved >= 3 and nc.brier is not null
      left join ${markets} m on m.id = p.related_question_id
      left join ${trades} pt on p.trade_kind = 'prediction' and pt.id = p.trade_id
      left join lateral (
        select mp.side, mp.shares, mp.cost_basis from ${marketPositions} mp
        where mp.market_id = p.related_question_id and mp.user_id = p.author_id and mp.shares > 0 and mp.settled_at is null
        order by (mp.side = pt.side) desc nulls last, mp.shares desc, mp.side limit 1) ap on true
      left join ${perpTrades} xt on p.trade_kind = 'perp' and xt.id = p.trade_id
      left join ${perpPositions} xp on xp.id = xt.position_id
    where p.id in (${ids.length ? sql.join(ids.map((id) => sql`${id}`), sql`, `) : sql`null`}) and ${canSee(sql`p.author_id`, callerId)}`;
}

/** The posts of `ids` the caller may see, by id (missing and hidden ids are absent). */
export async function loadPosts(db: DbOrTx, ids: string[], callerId: string | null) {
  if (ids.length === 0) return new Map<string, TPostRowRaw>();
  const rows = rowsOf<TPostRowRaw>(await db.execute(buildPostsQuery([...new Set(ids)], callerId)));
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * One page of a feed: the posts (reposts marked), the next cursor, and the total when asked.
 * `canSeeRemoved` (a moderator reads) serves removed posts' content (lib/posts/dto toPostDto).
 */
export async function readFeed(
  db: DbOrTx,
  source: TFeedSource,
  page: TPageSpec,
  callerId: string | null,
  withTotal: boolean,
  opts: { canSeeRemoved?: boolean } = {},
) {
  const items = rowsOf<TPageRow>(await db.execute(buildFeedPageQuery(source, page, callerId)));
  const byId = await loadPosts(
    db,
    items.map((i) => i.post_id),
    callerId,
  );
  const postsOut = items.flatMap((i) => {
    const row = byId.get(i.post_id);
    if (!row) return [];
    return [toPostDto(row, i.share_id ? (i as TRepostRaw) : null, opts)];
  });
  const last = items.at(-1);
  const nextCursor = last && items.length === page.limit ? encodeCursor({ at: new Date(last.at), id: last.item_id }) : null;
  let total: number | undefined;
  if (withTotal) {
    const [r] = rowsOf<{ n: number | string }>(await db.execute(buildFeedCountQuery(source, callerId)));
    total = Number(r?.n ?? 0);
  }
  return { posts: postsOut, nextCursor, total };
}
