/**
 * The snapshot NPC activity plans from, read in a fixed number of set-based statements whatever
 * the number of actors and markets (the tick runs at 200 NPCs and 50 markets in the benchmark).
 * Reads only. Every list has a total order that does not depend on generated ids or insertion
 * timing, so two fresh worlds with the same seed read the same snapshot (determinism).
 * The open questions come with what each is worth (loadValuedMarkets: value.ts over the question's
 * rule, its ticker's price and realized volatility, its evidence), which the pool step reads too.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import {
  actors,
  comments,
  marketPositions,
  markets,
  organizations,
  perpMarkets,
  perpPositions,
  perpPricePoints,
  pools,
  postLikes,
  posts,
  questionRules,
  shares,
  users,
  worldEvents,
} from '@/db/schema';
import type { TRng } from '@/lib/game/rng';
import { toRule, type TRuleColumns } from '@/lib/game/state';
import { prices, toPool } from '@/lib/markets/cpmm';
import { toNumber } from '@/lib/money/decimal';
import { NPC_ACTING_PER_TICK, pickActingActors, type TNpcActor, type TNpcMarket, type TNpcWorld } from './plan';
import { eventProbability, eventWindow } from '../outcomes';
import type { TFundBook } from './fund';
import { questionValue, volatilityPerDay, type TQuestionFacts } from './value';

/** How far back the NPCs look for posts to answer, like and share. */
const RECENT_POSTS_WINDOW_MS = 6 * 60 * 60 * 1000;
const RECENT_POSTS_LIMIT = 40;
const REPLY_WINDOW_MS = 60 * 60 * 1000;

const inList = (ids: readonly string[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);

/** How far back a ticker's realized volatility looks, and the moves it needs before it is trusted. */
const VOLATILITY_WINDOW_MS = 6 * 60 * 60 * 1000;
const VOLATILITY_MIN_MOVES = 60;
const DAY_MS = 86_400_000;

/**
 * Each ticker's volatility per √day as of `at` (value.ts volatilityPerDay): realized from its
 * index's log moves over the last VOLATILITY_WINDOW_MS of price points (Σ r² over the days they
 * span), else the organization's σ per tick scaled to a day. Trade points are left out: the index
 * moves only with the tick (and an administrator). Points of one instant are ordered by their
 * values, never by their generated ids, so two worlds of one seed measure the same figure.
 */
export async function loadTickerVolatilities(db: DbOrTx, at: Date): Promise<Map<string, number>> {
  const from = new Date(at.getTime() - VOLATILITY_WINDOW_MS).toISOString();
  const rows = rowsOf<{ ticker: string; per_tick: string; ss: string | null; moves: number | string; days: number | string | null }>(
    await db.execute(sql`
      select o.ticker, o.volatility as per_tick, x.ss, coalesce(x.moves, 0) as moves, x.days
      from ${organizations} o left join (
        select ticker, sum(r * r) as ss, count(r) as moves, extract(epoch from max(created_at) - min(created_at)) / 86400 as days
        from (
          select ticker, created_at, ln(index_price / lag(index_price) over (partition by ticker order by created_at, source, index_price, mark_price)) as r
          from ${perpPricePoints}
          where source <> 'trade' and index_price > 0 and created_at > ${from}::timestamptz and created_at <= ${at.toISOString()}::timestamptz
        ) moves
        group by ticker
      ) x on x.ticker = o.ticker
      order by o.ticker`),
  );
  return new Map(
    rows.map((r) => [
      r.ticker,
      volatilityPerDay({
        perTick: Number(r.per_tick),
        realized: r.ss === null || r.days === null ? null : { sumSquares: Number(r.ss), days: Number(r.days), moves: Number(r.moves) },
        minMoves: VOLATILITY_MIN_MOVES,
      }),
    ]),
  );
}

/**
 * The open questions (active, before their date), by question number, with their pools and what
 * the world says each is worth (value.ts): a price question from its ticker's price, volatility
 * and time left; an event question from the probability it was born with (question_rules
 * .probability, lib/game/outcomes.ts; rules from before migration 0021 recompute it with
 * eventProbability from public facts: its kind, its organization's volatility, its window), the
 * quiet part of its event window and whether a fulfilling event already happened. Never the
 * outcome the world drew for it. A question without a rule has no value (null).
 */
export async function loadValuedMarkets(db: DbOrTx, at: Date): Promise<(TNpcMarket & { yesShares: string; noShares: string; fair: number | null })[]> {
  const ts = sql`${at.toISOString()}::timestamptz`;
  const rows = rowsOf<
    TRuleColumns & {
      id: string;
      question_number: number;
      text: string;
      yes_shares: string;
      no_shares: string;
      created_at: string | Date;
      resolution_date: string | Date;
      spot: string | null;
      per_tick: string | null;
      born_probability: string | null;
      fulfilled: boolean | null;
    }
  >(
    await db.execute(sql`
      select m.id, m.question_number, m.text, m.yes_shares, m.no_shares, m.created_at, m.resolution_date,
        r.kind, r.organization_id, r.ticker, r.actor_id, r.event_kind, r.comparison, r.threshold, o.current_price as spot, o.volatility as per_tick, r.probability as born_probability,
        (r.kind = 'event' and exists (
          select 1 from ${worldEvents} e
          where e.kind = r.event_kind and e.organization_id = r.organization_id and (r.actor_id is null or e.actor_id = r.actor_id)
            and e.created_at > m.created_at and e.created_at <= ${ts} and e.created_at <= m.resolution_date)) as fulfilled
      from ${markets} m left join ${questionRules} r on r.market_id = m.id left join ${organizations} o on o.id = r.organization_id
      where m.status = 'active' and m.resolution_date > ${ts}
      order by m.question_number`),
  );
  const vols = rows.some((r) => r.kind === 'price') ? await loadTickerVolatilities(db, at) : new Map<string, number>();
  return rows.map((m) => {
    const yesShares = String(m.yes_shares);
    const noShares = String(m.no_shares);
    // 0.5 for a pool without weights (createPool never makes one).
    const price = prices(toPool({ yesShares, noShares })).yes;
    const rule = toRule(m);
    const created = new Date(m.created_at).getTime();
    const end = new Date(m.resolution_date).getTime();
    let facts: TQuestionFacts | null = null;
    if (rule?.kind === 'price' && m.spot !== null && vols.has(rule.ticker)) {
      facts = { kind: 'price', spot: Number(m.spot), strike: rule.threshold, comparison: rule.comparison, volatility: vols.get(rule.ticker)!, days: (end - at.getTime()) / DAY_MS };
    } else if (rule?.kind === 'event') {
      // The odds the world's rules give it (what it was born with) and the quiet part of its event window.
      const createdAt = new Date(created);
      const resolutionDate = new Date(end);
      const w = eventWindow(createdAt, resolutionDate);
      const span = w.end.getTime() - w.start.getTime();
      facts = {
        kind: 'event',
        // The probability it was born with (question_rules.probability: world knowledge, not the
        // draw); a rule from before it was stored falls back to the same formula from public facts.
        baseRate:
          m.born_probability !== null && Number.isFinite(Number(m.born_probability))
            ? Number(m.born_probability)
            : eventProbability({ eventKind: rule.eventKind, volatility: Number(m.per_tick ?? 0), createdAt, resolutionDate }),
        fulfilled: !!m.fulfilled,
        elapsed: span > 0 ? (at.getTime() - w.start.getTime()) / span : 1,
      };
    }
    return {
      id: m.id,
      questionNumber: Number(m.question_number),
      text: m.text,
      yesPrice: price.isFinite() ? price.toNumber() : 0.5,
      yesShares,
      noShares,
      fair: questionValue(facts),
    };
  });
}

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

  const marketList = await loadValuedMarkets(db, at);

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

  // What the acting pool managers' funds hold (sides only): a manager never trades against it.
  const fundRows = rowsOf<{ manager_id: string; kind: 'prediction' | 'perp'; key: string; side: string }>(
    await db.execute(sql`
      select pl.npc_actor_id as manager_id, 'prediction' as kind, mp.market_id as key, mp.side
      from ${pools} pl join ${marketPositions} mp on mp.user_id = pl.account_user_id
      where pl.npc_actor_id in (${ids}) and mp.shares > 0 and mp.settled_at is null
      union
      select pl.npc_actor_id as manager_id, 'perp' as kind, pp.ticker as key, pp.side
      from ${pools} pl join ${perpPositions} pp on pp.user_id = pl.account_user_id
      where pl.npc_actor_id in (${ids}) and pp.status = 'open'
      order by 1, 2, 3, 4`),
  );
  const funds = new Map<string, TFundBook>();
  for (const r of fundRows) {
    const f = funds.get(r.manager_id) ?? { predictions: [], perps: [] };
    if (r.kind === 'prediction') (f.predictions as { marketId: string; side: 'YES' | 'NO' }[]).push({ marketId: r.key, side: r.side as 'YES' | 'NO' });
    else (f.perps as { ticker: string; side: 'long' | 'short' }[]).push({ ticker: r.key, side: r.side as 'long' | 'short' });
    funds.set(r.manager_id, f);
  }

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
    funds,
    recentPosts,
    recentReplyPairs: new Set(replyPairs.map((r) => `${r.author_id}:${r.reply_to_user_id}`)),
    liked: new Set(reacted.filter((r) => r.kind === 'like').map((r) => `${r.user_id}:${r.post_id}`)),
    shared: new Set(reacted.filter((r) => r.kind === 'share').map((r) => `${r.user_id}:${r.post_id}`)),
  };
}
