/**
 * The snapshot NPC activity plans from, read in a fixed number of set-based statements whatever
 * the number of actors and markets (the tick runs at 200 NPCs and 50 markets in the benchmark).
 * Reads only. Every list has a total order that does not depend on generated ids or insertion
 * timing, so two fresh worlds with the same seed read the same snapshot (determinism).
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { actors, comments, marketPositions, markets, organizations, perpMarkets, perpPositions, postLikes, posts, shares, users } from '@/db/schema';
import type { TRng } from '@/lib/game/rng';
import { prices, toPool } from '@/lib/markets/cpmm';
import { toNumber } from '@/lib/money/decimal';
import { NPC_ACTING_PER_TICK, pickActingActors, type TNpcActor, type TNpcWorld } from './plan';

/** How far back the NPCs look for posts to answer, like and share. */
const RECENT_POSTS_WINDOW_MS = 6 * 60 * 60 * 1000;
const RECENT_POSTS_LIMIT = 40;
const REPLY_WINDOW_MS = 60 * 60 * 1000;

const inList = (ids: readonly string[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);

/** Reads the world as of `at` and picks this tick's acting actors with `rng`. */
export async function loadNpcWorld(db: DbOrTx, at: Date, rng: TRng): Promise<TNpcWorld> {
  const ts = (ms: number) => sql`${new Date(at.getTime() - ms).toISOString()}::timestamptz`;
  const actorRows = rowsOf<{ id: string; username: string; display_name: string; balance: string; tier: TNpcActor['tier']; role: string; personality: string; ticker: string | null; org_name: string | null }>(
    await db.execute(sql`
      select u.id, u.username, u.display_name, u.virtual_balance as balance, a.tier, a.role, a.personality, o.ticker, o.name as org_name
      from ${actors} a join ${users} u on u.id = a.user_id left join ${organizations} o on o.id = a.organization_id
      where not u.is_banned
      order by u.id`),
  );
  const all: TNpcActor[] = actorRows.map((r) => ({
    id: r.id,
    username: r.username,
    displayName: r.display_name,
    role: r.role,
    personality: r.personality,
    tier: r.tier,
    balance: String(r.balance),
    orgTicker: r.ticker,
    orgName: r.org_name,
  }));
  const acting = pickActingActors(all, NPC_ACTING_PER_TICK, rng);
  const empty: TNpcWorld = {
    acting,
    allUsernames: all.map((a) => a.username),
    orgs: [],
    markets: [],
    holdings: [],
    perps: [],
    tickers: [],
    recentPosts: [],
    recentReplyPairs: new Set(),
    liked: new Set(),
    shared: new Set(),
  };
  if (!acting.length) return empty;
  const ids = inList(acting.map((a) => a.id));

  const orgs = rowsOf<{ ticker: string; name: string; sector: string; current_price: string; initial_price: string }>(
    await db.execute(sql`select ticker, name, sector, current_price, initial_price from ${organizations} order by ticker`),
  ).map((o) => ({ ticker: o.ticker, name: o.name, sector: o.sector, price: toNumber(String(o.current_price)), initialPrice: toNumber(String(o.initial_price)) }));

  const marketRows = rowsOf<{ id: string; question_number: number; text: string; yes_shares: string; no_shares: string }>(
    await db.execute(sql`
      select id, question_number, text, yes_shares, no_shares from ${markets}
      where status = 'active' and resolution_date > ${at.toISOString()}::timestamptz
      order by question_number`),
  );
  const marketList = marketRows.map((m) => {
    // 0.5 for a pool without weights (createPool never makes one).
    const price = prices(toPool({ yesShares: String(m.yes_shares), noShares: String(m.no_shares) })).yes;
    return { id: m.id, questionNumber: Number(m.question_number), text: m.text, yesPrice: price.isFinite() ? price.toNumber() : 0.5 };
  });

  const holdings = rowsOf<{ user_id: string; market_id: string; side: 'YES' | 'NO'; shares: string }>(
    await db.execute(sql`
      select mp.user_id, mp.market_id, mp.side, mp.shares from ${marketPositions} mp join ${markets} m on m.id = mp.market_id
      where mp.user_id in (${ids}) and mp.shares > 0 and mp.settled_at is null and m.status = 'active'
      order by mp.user_id, m.question_number, mp.side`),
  ).map((h) => ({ userId: h.user_id, marketId: h.market_id, side: h.side, shares: String(h.shares) }));

  // In game-time order (ids are random: ordering by them would make two worlds of one seed differ);
  // the id only breaks ties between identical positions opened in one instant.
  const perps = rowsOf<{ id: string; user_id: string; ticker: string; side: 'long' | 'short'; size: string; leverage: string }>(
    await db.execute(sql`
      select id, user_id, ticker, side, size, leverage from ${perpPositions}
      where user_id in (${ids}) and status = 'open' order by user_id, opened_at, ticker, side, size, id`),
  ).map((p) => ({ id: p.id, userId: p.user_id, ticker: p.ticker, side: p.side, size: toNumber(String(p.size)), leverage: toNumber(String(p.leverage)) }));

  // Every ticker's mark, index and open interest by side (everyone's open positions, pools too):
  // the NPCs' perp flow leans against the heavier side and against the premium.
  const tickers = rowsOf<{ ticker: string; mark_price: string; index_price: string; oi_long: string; oi_short: string }>(
    await db.execute(sql`
      select m.ticker, m.mark_price, o.current_price as index_price,
        coalesce(sum(p.size) filter (where p.side = 'long'), 0) as oi_long,
        coalesce(sum(p.size) filter (where p.side = 'short'), 0) as oi_short
      from ${perpMarkets} m join ${organizations} o on o.ticker = m.ticker
        left join ${perpPositions} p on p.ticker = m.ticker and p.status = 'open'
      group by m.ticker, m.mark_price, o.current_price
      order by m.ticker`),
  ).map((t) => ({
    ticker: t.ticker,
    markPrice: toNumber(String(t.mark_price)),
    indexPrice: toNumber(String(t.index_price)),
    oiLong: toNumber(String(t.oi_long)),
    oiShort: toNumber(String(t.oi_short)),
  }));

  // Newest first; ties (posts of one tick share a timestamp) broken by author and text, not by
  // the random id, so the order is the same in any world built the same way.
  const recentPosts = rowsOf<{ id: string; author_id: string; username: string; content: string }>(
    await db.execute(sql`
      select p.id, p.author_id, u.username, p.content from ${posts} p join ${users} u on u.id = p.author_id
      where p.created_at > ${ts(RECENT_POSTS_WINDOW_MS)} and not u.is_banned
      order by p.created_at desc, p.author_id, p.content
      limit ${RECENT_POSTS_LIMIT}`),
  ).map((p) => ({ id: p.id, authorId: p.author_id, authorUsername: p.username, content: p.content }));

  const replyPairs = rowsOf<{ author_id: string; reply_to_user_id: string }>(
    await db.execute(sql`
      select distinct author_id, reply_to_user_id from ${comments}
      where author_id in (${ids}) and reply_to_user_id is not null and created_at > ${ts(REPLY_WINDOW_MS)}`),
  );

  const postIds = recentPosts.map((p) => p.id);
  const reacted = postIds.length
    ? rowsOf<{ kind: 'like' | 'share'; user_id: string; post_id: string }>(
        await db.execute(sql`
          select 'like' as kind, user_id, post_id from ${postLikes} where user_id in (${ids}) and post_id in (${inList(postIds)})
          union all
          select 'share' as kind, user_id, post_id from ${shares} where user_id in (${ids}) and post_id in (${inList(postIds)})`),
      )
    : [];

  return {
    ...empty,
    orgs,
    markets: marketList,
    holdings,
    perps,
    tickers,
    recentPosts,
    recentReplyPairs: new Set(replyPairs.map((r) => `${r.author_id}:${r.reply_to_user_id}`)),
    liked: new Set(reacted.filter((r) => r.kind === 'like').map((r) => `${r.user_id}:${r.post_id}`)),
    shared: new Set(reacted.filter((r) => r.kind === 'share').map((r) => `${r.user_id}:${r.post_id}`)),
  };
}
