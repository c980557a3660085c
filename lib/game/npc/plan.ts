/**
 * What the NPCs do in one tick, decided up front from a snapshot of the world: who acts, what
 * they post, whom they answer, what they like and share, what they trade. Pure: no I/O; the same
 * snapshot, events and rng give the same plan (lib/game/npc/index.ts carries it out).
 *
 * The reply rule: "replies to an NPC actor: at most 1 per hour per NPC". The comments service
 * enforces it for every author, NPCs included, so an NPC answers another NPC at most once an
 * hour. The plan goes further and treats players the same way (an NPC answers the same person at
 * most once an hour, and once per tick), and it skips pairs that already replied within the hour
 * (the snapshot's recentReplyPairs) so no attempt is wasted on a refusal.
 *
 * Prediction trades go toward each question's value (value.ts, as each actor sees it), a few
 * points at a time at the market's depth, one side per market per actor, never against what the
 * actor's post this tick said about the question (README "Toward value").
 */
import { buyAmountToPrice, prices, quoteBuy, quoteSell, sellSharesToPrice, toPool, type TPool } from '@/lib/markets/cpmm';
import { dec, toDecimalString, type TDecimal } from '@/lib/money/decimal';
import type { TRng } from '@/lib/game/rng';
import type { TWorldEvent } from '@/lib/game/types';
import { newsDirections } from '@/lib/game/world-rules';
import { againstOwnFund, type TFundBook } from './fund';
import { personalView, VALUE_CEIL, VALUE_FLOOR } from './value';
import { renderPost, renderRebuttal, renderReply, renderShareQuote, renderTradePost, subjectOf, type TPostTopic, type TSpeaker } from './voice';

// Tunable per-tick activity. The whole tick aims at < 2 s with 200 NPCs and 50 markets, so the
// counts stay small: each action is one service call (a transaction or two).
export const NPC_ACTING_PER_TICK = 10;
/**
 * NPC posts in the feed per tick (one tick a game minute) at most, everything counted: plain posts,
 * trade announcements and pool managers' posts. A reader follows about 3 a minute; a tick with news
 * (every world event is breaking news) may bring up to 6. POOL_POSTS_PER_TICK of it is the pool
 * managers' (steps/pools.ts), the rest this step's (`npcPostBudget`).
 */
export const NPC_POSTS_PER_TICK = { quiet: 3, news: 6 } as const;
export const POOL_POSTS_PER_TICK = { quiet: 1, news: 2 } as const;
/**
 * Plain posts (not trade announcements) per tick, never past the step's budget: a quiet minute
 * brings one post at most, a minute with news (NEWS_POSTS_PER_TICK) a few reactions.
 */
export const POSTS_PER_TICK = { min: 0, max: 1 } as const;
export const NEWS_POSTS_PER_TICK = { min: 1, max: 3 } as const;

/** The tick's post budgets: the NPC step's (plain posts and trade announcements) and the pool managers'. */
export function npcPostBudget(events: readonly unknown[]): { npc: number; pool: number } {
  const news = events.length > 0;
  const total = news ? NPC_POSTS_PER_TICK.news : NPC_POSTS_PER_TICK.quiet;
  const pool = news ? POOL_POSTS_PER_TICK.news : POOL_POSTS_PER_TICK.quiet;
  return { npc: total - pool, pool };
}
export const REPLIES_PER_TICK = { min: 0, max: 1 } as const;
export const LIKES_PER_TICK = { min: 2, max: 6 } as const;
export const SHARES_PER_TICK = { min: 0, max: 1 } as const;
export const TRADES_PER_TICK = { min: 0, max: 2 } as const;
/**
 * A tick after a gap (game minutes since the last one: a pause, or the test clock's coarse steps)
 * draws the trades of that many minutes, up to CATCH_UP_MAX of them, so a world that ticks rarely
 * still trades toward value; a world ticking every minute draws one minute's.
 */
export const CATCH_UP_MAX = 8;
export function catchUp(minutes = 1) {
  return Math.min(Math.max(1, Math.floor(minutes)), CATCH_UP_MAX);
}
/** The sum of `times` draws of a per-tick range. */
const drawFor = (rng: TRng, range: { min: number; max: number }, times: number) => {
  let n = 0;
  for (let i = 0; i < times; i++) n += rng.int(range.min, range.max);
  return n;
};
/** Chance that an actor's buy goes to the question it thinks most mispriced (when neither news nor its own organisation draws it). */
export const EDGE_SEEKING_CHANCE = 0.5;
/** Chance that a trade by an actor holding shares is a sale rather than a buy. */
export const SELL_CHANCE = 0.25;
/** A buy spends this fraction of the actor's (remaining) balance, between MIN and MAX amounts. */
export const TRADE_FRACTION = { min: 0.005, max: 0.03 } as const;
export const TRADE_AMOUNT = { min: 1, max: 500 } as const;
/** Perp trades per tick (opens and closes), and the chance an actor holding perps closes one. */
export const PERP_TRADES_PER_TICK = { min: 0, max: 1 } as const;
export const PERP_CLOSE_CHANCE = 0.35;
/** An actor holding this many perps closes one rather than opening another: its book (and cash) stays bounded. */
export const NPC_MAX_PERPS = 5;
/** A perp's margin is this fraction of what the actor has left; its notional stays within PERP_SIZE. */
export const PERP_MARGIN_FRACTION = { min: 0.02, max: 0.06 } as const;
export const PERP_SIZE = { min: 10, max: 20_000 } as const;
/** Leverage by tier (whole numbers, inclusive): sensible, stars and degens a little bolder. */
export const PERP_LEVERAGE = { S: [2, 5], A: [2, 10], B: [1, 5], C: [1, 3] } as const;
/**
 * How the side of a perp is drawn: P(long) = 0.5 − IMBALANCE_LEAN × imbalance − PREMIUM_LEAN ×
 * premium (+ NEWS_LEAN toward this tick's news on the ticker), within [0.05, 0.95], where
 * imbalance = (long − short) / (long + short + IMBALANCE_FLOOR) of the ticker's open interest and
 * premium = (mark − index) / index. The flow leans against the heavier side and against the
 * premium, so open interest stays in rough balance and funding inside its cap.
 */
export const IMBALANCE_LEAN = 0.6;
export const PREMIUM_LEAN = 30;
export const NEWS_LEAN = 0.15;
export const IMBALANCE_FLOOR = 1000;
/** The chance that a trade (prediction or perp) is announced in a post, written after it succeeded. */
export const TRADE_POST_CHANCE = { prediction: 0.3, perp: 0.6 } as const;
/**
 * Trading toward value (value.ts): an actor trades a question with a rule only when its own view
 * and the price differ by more than VALUE_EDGE, toward its view; one trade moves the price at most
 * MAX_PRICE_MOVE (sized with the pool's depth, within the usual budget). Views stray from the fair
 * value by up to VIEW_SPREAD in log-odds, by tier: stars see more sharply.
 */
export const VALUE_EDGE = 0.03;
export const MAX_PRICE_MOVE = 0.03;
export const VIEW_SPREAD = { S: 0.1, A: 0.15, B: 0.2, C: 0.3 } as const;
/** Activity weight by tier: stars act more often. */
export const TIER_WEIGHT = { S: 4, A: 3, B: 2, C: 1 } as const;

export type TNpcActor = TSpeaker & {
  id: string;
  tier: keyof typeof TIER_WEIGHT;
  personality: string;
  /** Decimal string. */
  balance: string;
};
export type TNpcOrg = { ticker: string; name: string; sector: string; price: number; initialPrice: number };
export type TNpcMarket = {
  id: string;
  questionNumber: number;
  text: string;
  yesPrice: number;
  /** The pool's public weights (decimal strings): trades are sized to its depth. Without them, by budget alone. */
  yesShares?: string;
  noShares?: string;
  /** The question's fair YES probability (value.ts); null or absent for a question without a rule. */
  fair?: number | null;
};
export type TNpcHolding = { userId: string; marketId: string; side: 'YES' | 'NO'; shares: string };
export type TNpcPerp = { id: string; userId: string; ticker: string; side: 'long' | 'short'; size: number; leverage: number };
export type TNpcTicker = { ticker: string; markPrice: number; indexPrice: number; oiLong: number; oiShort: number };
export type TNpcPost = { id: string; authorId: string; authorUsername: string; content: string };

/** The snapshot the plan is made from (lib/game/npc/state.ts reads it in a few statements). */
export type TNpcWorld = {
  /** The actors acting this tick (already chosen by pickActingActors). */
  acting: TNpcActor[];
  /** Every actor's username, for @mentions. */
  allUsernames: string[];
  orgs: TNpcOrg[];
  markets: TNpcMarket[];
  holdings: TNpcHolding[];
  /** Open perpetual positions of the acting actors, by actor and game time of opening. */
  perps: TNpcPerp[];
  /** Every ticker with its mark, index and open interest by side, by ticker. */
  tickers: TNpcTicker[];
  /** Recent posts, newest first: what the NPCs answer, like and share. */
  recentPosts: TNpcPost[];
  /** `${authorId}:${replyToUserId}` of replies written within the last hour. */
  recentReplyPairs: ReadonlySet<string>;
  /** `${userId}:${postId}` the acting actors already liked / shared. */
  liked: ReadonlySet<string>;
  shared: ReadonlySet<string>;
  /** Acting pool managers (by actor id) → what their pools hold: a manager never trades against it (fund.ts). */
  funds?: ReadonlyMap<string, TFundBook>;
};

export type TPlannedPost = { actorId: string; username: string; content: string; relatedQuestion: string | null; topic: TPostTopic['kind'] };
export type TPlannedReply = { actorId: string; username: string; postId: string; replyToUserId: string; content: string };
export type TPlannedReaction = { actorId: string; username: string; postId: string; quote?: string | null };
/** `post`: the announcement, written (linked to the trade) only once the trade succeeded. */
export type TPlannedTrade =
  | { kind: 'buy'; actorId: string; marketId: string; outcome: 'YES' | 'NO'; amount: string; post: string | null }
  | { kind: 'sell'; actorId: string; marketId: string; outcome: 'YES' | 'NO'; shares: string; post: string | null };
export type TPlannedPerpTrade =
  | { kind: 'open'; actorId: string; ticker: string; side: 'long' | 'short'; size: string; leverage: number; post: string | null }
  | { kind: 'close'; actorId: string; positionId: string; ticker: string; side: 'long' | 'short'; leverage: number; post: string | null };

export type TNpcPlan = {
  /** The acting actors by id (the model prompt speaks as them). */
  speakers: ReadonlyMap<string, TNpcActor>;
  posts: TPlannedPost[];
  replies: TPlannedReply[];
  likes: TPlannedReaction[];
  shares: TPlannedReaction[];
  trades: TPlannedTrade[];
  perpTrades: TPlannedPerpTrade[];
};

/**
 * Chooses up to n actors, weighted by tier, without repeats. Deterministic for a given list order
 * and rng (the caller sorts the list by id).
 */
export function pickActingActors<T extends { tier: keyof typeof TIER_WEIGHT }>(all: readonly T[], n: number, rng: TRng): T[] {
  const pool = [...all];
  const out: T[] = [];
  while (out.length < n && pool.length > 0) {
    const total = pool.reduce((s, a) => s + TIER_WEIGHT[a.tier], 0);
    let r = rng.next() * total;
    let i = 0;
    for (; i < pool.length - 1; i++) {
      r -= TIER_WEIGHT[pool[i]!.tier];
      if (r < 0) break;
    }
    out.push(pool.splice(i, 1)[0]!);
  }
  return out;
}

const questionMentions = (m: TNpcMarket, a: TNpcActor) =>
  !!a.orgTicker && (m.text.includes(a.orgTicker) || (!!a.orgName && m.text.includes(a.orgName.split(' ')[0]!)));

/** One post topic for an actor: this tick's news first, then its company, holdings, questions, peers. */
export function chooseTopic(a: TNpcActor, world: TNpcWorld, events: readonly TWorldEvent[], rng: TRng): { topic: TPostTopic; relatedQuestion: string | null } {
  const own = events.filter((e) => e.actorId === a.id || (!!a.orgTicker && e.ticker === a.orgTicker));
  if (own.length && rng.chance(0.8)) {
    const e = rng.pick(own);
    return { topic: { kind: 'event', title: e.title, ticker: e.ticker, impact: e.impact, aboutSelf: true }, relatedQuestion: null };
  }
  const options: { weight: number; make: () => { topic: TPostTopic; relatedQuestion: string | null } }[] = [];
  if (events.length) {
    options.push({
      weight: 3,
      make: () => {
        const e = rng.pick(events);
        return { topic: { kind: 'event', title: e.title, ticker: e.ticker, impact: e.impact, aboutSelf: false }, relatedQuestion: null };
      },
    });
  }
  const org = world.orgs.find((o) => o.ticker === a.orgTicker);
  if (org) options.push({ weight: 2, make: () => ({ topic: { kind: 'org', ...org }, relatedQuestion: null }) });
  else if (world.orgs.length) options.push({ weight: 1, make: () => ({ topic: { kind: 'org', ...rng.pick(world.orgs) }, relatedQuestion: null }) });
  // "Still holding YES" only about a side it holds alone (a book from before one side per market
  // may hold both: it says nothing about that market until it has sold one).
  const mine = world.holdings.filter((h) => h.userId === a.id && dec(h.shares).gt(0));
  const held = mine.filter((h) => !mine.some((o) => o.marketId === h.marketId && o.side !== h.side));
  const heldMarkets = held.map((h) => ({ h, m: world.markets.find((m) => m.id === h.marketId) })).filter((x) => x.m);
  if (heldMarkets.length) {
    options.push({
      weight: 2,
      make: () => {
        const { h, m } = rng.pick(heldMarkets);
        return { topic: { kind: 'holding', question: m!.text, side: h.side, yesPrice: m!.yesPrice }, relatedQuestion: m!.id };
      },
    });
  }
  if (world.markets.length) {
    options.push({
      weight: 2,
      make: () => {
        const mine = world.markets.filter((m) => questionMentions(m, a));
        const m = rng.pick(mine.length && rng.chance(0.6) ? mine : world.markets);
        // The figure it states is its own view, the one it trades on (viewOf): words and trades agree.
        return { topic: { kind: 'question', question: m.text, yesPrice: m.yesPrice, view: viewOf(a, m) }, relatedQuestion: m.id };
      },
    });
  }
  const others = world.allUsernames.filter((u) => u !== a.username);
  if (others.length) {
    options.push({ weight: 1, make: () => ({ topic: { kind: 'mention', other: rng.pick(others), ticker: a.orgTicker ?? (world.orgs.length ? rng.pick(world.orgs).ticker : null) }, relatedQuestion: null }) });
  }
  const perps = world.perps.filter((p) => p.userId === a.id);
  if (perps.length) {
    options.push({
      weight: 1,
      make: () => {
        const p = rng.pick(perps);
        return { topic: { kind: 'perp', ticker: p.ticker, side: p.side }, relatedQuestion: null };
      },
    });
  }
  if (!options.length) return { topic: { kind: 'mention', other: a.username, ticker: null }, relatedQuestion: null };
  const total = options.reduce((s, o) => s + o.weight, 0);
  let r = rng.next() * total;
  for (const o of options) {
    r -= o.weight;
    if (r < 0) return o.make();
  }
  return options[options.length - 1]!.make();
}

/**
 * The direction an actor buys: the side this tick's news makes more likely (always: a question
 * the news concerns moves the way it implies), otherwise its own view of the price.
 */
const chooseOutcome = (m: TNpcMarket, directions: ReadonlyMap<number, 'YES' | 'NO'>, rng: TRng): 'YES' | 'NO' => {
  const news = directions.get(m.questionNumber);
  if (news) return news;
  // Leaning against extremes keeps prices inside (0, 1) and the markets two-sided.
  return rng.chance(1 - m.yesPrice * 0.8 - 0.1) ? 'YES' : 'NO';
};

/** An actor's own view of a question's YES probability (value.ts personalView); null without a fair value. */
export function viewOf(a: Pick<TNpcActor, 'id' | 'tier'>, m: Pick<TNpcMarket, 'questionNumber' | 'fair'>): number | null {
  // Keyed by the question number, not the market's generated id: two worlds of one seed agree.
  return m.fair === null || m.fair === undefined ? null : personalView(m.fair, `${a.id}:${m.questionNumber}`, VIEW_SPREAD[a.tier]);
}

/**
 * The side a view says to hold: YES when the price is below the view by more than the edge, NO
 * when above, none inside the edge. Never against this tick's news on the question (the news
 * moves the fair value the same way, so they agree but for noise).
 */
export function sideForView(view: number, yesPrice: number, news: 'YES' | 'NO' | undefined): 'YES' | 'NO' | null {
  const side = view > yesPrice + VALUE_EDGE ? 'YES' : view < yesPrice - VALUE_EDGE ? 'NO' : null;
  return side && news && side !== news ? null : side;
}

/** A market's pool as the plan tracks it through the tick (null for a market given without reserves). */
export type TLivePool = { pool: TPool | null; yesPrice: number };

const priceOfSide = (yesPrice: number, side: 'YES' | 'NO') => (side === 'YES' ? yesPrice : 1 - yesPrice);
const minOf = (a: TDecimal, b: TDecimal) => (a.lte(b) ? a : b);

/**
 * How far a trade on `side` may take that side's price: toward the view (or by MAX_PRICE_MOVE
 * without one), never more than MAX_PRICE_MOVE from where it is, within the value bounds.
 */
const targetFor = (live: TLivePool, side: 'YES' | 'NO', view: number | null, up: boolean) => {
  const price = priceOfSide(live.yesPrice, side);
  const viewSide = view === null ? null : priceOfSide(view, side);
  return up
    ? Math.min(VALUE_CEIL, price + MAX_PRICE_MOVE, viewSide ?? 1)
    : Math.max(VALUE_FLOOR, price - MAX_PRICE_MOVE, viewSide ?? 0);
};

/** The amount of a buy: the budget, cut to what moves the price to its target when the depth is known. */
export function depthBuyAmount(live: TLivePool, side: 'YES' | 'NO', view: number | null, budget: TDecimal): TDecimal {
  if (!live.pool) return budget;
  const target = targetFor(live, side, view, true);
  if (target <= priceOfSide(live.yesPrice, side)) return dec(0);
  return minOf(budget, buyAmountToPrice(live.pool, side, target));
}

/** The shares of a sale: the wanted part, cut to what moves the price to its target when the depth is known. */
export function depthSellShares(live: TLivePool, side: 'YES' | 'NO', view: number | null, wanted: TDecimal): TDecimal {
  const shares = wanted.toDecimalPlaces(8, 1);
  if (!live.pool) return shares;
  const target = targetFor(live, side, view, false);
  if (target >= priceOfSide(live.yesPrice, side)) return dec(0);
  return minOf(shares, sellSharesToPrice(live.pool, side, target));
}

/** Whether the plan's posts (plain ones and trade announcements, prediction and perp) leave room in `budget`. */
const postsLeft = (plan: TNpcPlan, budget: number) =>
  plan.posts.length + plan.trades.filter((t) => t.post).length + plan.perpTrades.filter((t) => t.post).length < budget;

/** The whole tick's plan (see the module header for the rules it keeps). */
export function planNpcActivity(world: TNpcWorld, events: readonly TWorldEvent[], rng: TRng, minutes = 1): TNpcPlan {
  const actors = world.acting;
  const plan: TNpcPlan = { speakers: new Map(actors.map((a) => [a.id, a])), posts: [], replies: [], likes: [], shares: [], trades: [], perpTrades: [] };
  if (!actors.length) return plan;

  const postRng = rng.fork('posts');
  /** `${actorId}:${marketId}` → the side the actor's post this tick favours (holding it, or calling it cheap). */
  const stance = new Map<string, 'YES' | 'NO'>();
  const postBudget = npcPostBudget(events).npc;
  // Plain posts leave room for at least one trade announcement in the budget.
  const perTick = events.length ? NEWS_POSTS_PER_TICK : POSTS_PER_TICK;
  const nPosts = Math.min(postRng.int(perTick.min, perTick.max), postBudget - 1);
  for (let i = 0; i < nPosts; i++) {
    const a = actors[i % actors.length]!;
    const { topic, relatedQuestion } = chooseTopic(a, world, events, postRng);
    // Two actors of one voice reacting to the same news can draw the same phrases: draw again,
    // and if the words still repeat, that actor stays quiet: one tick never says a thing twice.
    const said = (text: string) => plan.posts.some((p) => p.content === text);
    let content = renderPost(a, topic, postRng);
    for (let redraw = 0; redraw < 8 && said(content); redraw++) content = renderPost(a, topic, postRng);
    if (said(content)) continue;
    plan.posts.push({ actorId: a.id, username: a.username, content, relatedQuestion, topic: topic.kind });
    // What the words take a side on: the tick's trades by this actor on this question keep to it.
    if (relatedQuestion && topic.kind === 'holding') stance.set(`${a.id}:${relatedQuestion}`, topic.side);
    if (relatedQuestion && topic.kind === 'question' && typeof topic.view === 'number') stance.set(`${a.id}:${relatedQuestion}`, topic.view > topic.yesPrice ? 'YES' : 'NO');
  }

  const replyRng = rng.fork('replies');
  const repliedPairs = new Set(world.recentReplyPairs);
  const nReplies = replyRng.int(REPLIES_PER_TICK.min, REPLIES_PER_TICK.max);
  for (let tries = 0; plan.replies.length < nReplies && tries < nReplies * 4 && world.recentPosts.length; tries++) {
    const a = replyRng.pick(actors);
    const p = replyRng.pick(world.recentPosts);
    const pair = `${a.id}:${p.authorId}`;
    if (p.authorId === a.id || repliedPairs.has(pair)) continue;
    repliedPairs.add(pair);
    // Two who hold opposite sides of the post's ticker argue it out; others agree or not in their voice.
    const ticker = subjectOf(p.content);
    const mine = ticker ? world.perps.find((x) => x.userId === a.id && x.ticker === ticker) : undefined;
    const theirs = mine ? world.perps.find((x) => x.userId === p.authorId && x.ticker === ticker && x.side !== mine.side) : undefined;
    const content =
      mine && theirs
        ? renderRebuttal(a, { authorUsername: p.authorUsername, subject: `$${ticker}`, mySide: mine.side, theirSide: theirs.side }, replyRng)
        : renderReply(a, p, replyRng);
    plan.replies.push({ actorId: a.id, username: a.username, postId: p.id, replyToUserId: p.authorId, content });
  }

  const likeRng = rng.fork('likes');
  const liked = new Set(world.liked);
  const nLikes = likeRng.int(LIKES_PER_TICK.min, LIKES_PER_TICK.max);
  for (let tries = 0; plan.likes.length < nLikes && tries < nLikes * 4 && world.recentPosts.length; tries++) {
    const a = likeRng.pick(actors);
    const p = likeRng.pick(world.recentPosts);
    const key = `${a.id}:${p.id}`;
    if (p.authorId === a.id || liked.has(key)) continue;
    liked.add(key);
    plan.likes.push({ actorId: a.id, username: a.username, postId: p.id });
  }

  const shareRng = rng.fork('shares');
  const shared = new Set(world.shared);
  const nShares = shareRng.int(SHARES_PER_TICK.min, SHARES_PER_TICK.max);
  for (let tries = 0; plan.shares.length < nShares && tries < nShares * 4 && world.recentPosts.length; tries++) {
    const a = shareRng.pick(actors);
    const p = shareRng.pick(world.recentPosts);
    const key = `${a.id}:${p.id}`;
    if (p.authorId === a.id || shared.has(key)) continue;
    shared.add(key);
    plan.shares.push({ actorId: a.id, username: a.username, postId: p.id, quote: renderShareQuote(a, shareRng) });
  }

  const tradeRng = rng.fork('trades');
  const directions = newsDirections(events);
  const nTrades = world.markets.length ? drawFor(tradeRng, TRADES_PER_TICK, catchUp(minutes)) : 0;
  const remaining = new Map(actors.map((a) => [a.id, dec(a.balance)]));
  // Markets named in this tick's news draw traders first, so news moves prices.
  const newsMarkets = world.markets.filter((m) => directions.has(m.questionNumber));
  // Only actors that can trade at all: a balance for the smallest buy, or shares to sell.
  const traders = actors.filter((a) => dec(a.balance).gte(TRADE_AMOUNT.min) || world.holdings.some((h) => h.userId === a.id));
  const marketOf = (id: string) => world.markets.find((m) => m.id === id);
  // Each market's pool as this tick's planned trades move it, so a later trade sizes to the price
  // the earlier ones leave (five traders agreeing do not overshoot the value together).
  const live = new Map<string, TLivePool>(
    world.markets.map((m) => [m.id, { pool: m.yesShares !== undefined && m.noShares !== undefined ? toPool({ yesShares: m.yesShares, noShares: m.noShares }) : null, yesPrice: m.yesPrice }]),
  );
  // Shares each actor holds (less what this tick sells), and the sides it bought this tick.
  const posKey = (userId: string, marketId: string, side: 'YES' | 'NO') => `${userId}:${marketId}:${side}`;
  const holding = new Map(world.holdings.map((h) => [posKey(h.userId, h.marketId, h.side), dec(h.shares)]));
  const heldOf = (userId: string, marketId: string, side: 'YES' | 'NO') => holding.get(posKey(userId, marketId, side)) ?? dec(0);
  const bought = new Set<string>();
  const move = (lv: TLivePool, pool: TPool) => {
    lv.pool = pool;
    const p = prices(pool).yes;
    lv.yesPrice = p.isFinite() ? p.toNumber() : lv.yesPrice;
  };
  const sell = (a: TNpcActor, m: TNpcMarket, side: 'YES' | 'NO', shares: TDecimal) => {
    const lv = live.get(m.id)!;
    if (lv.pool) move(lv, quoteSell(lv.pool, side, shares).pool);
    holding.set(posKey(a.id, m.id, side), heldOf(a.id, m.id, side).minus(shares));
    const post = tradeRng.chance(TRADE_POST_CHANCE.prediction) && postsLeft(plan, postBudget) ? renderTradePost(a, { kind: 'sell', outcome: side, question: m.text }, tradeRng) : null;
    plan.trades.push({ kind: 'sell', actorId: a.id, marketId: m.id, outcome: side, shares: toDecimalString(shares), post });
  };
  for (let i = 0; i < nTrades && traders.length; i++) {
    const a = tradeRng.pick(traders);
    // Never sell the side this tick's news favours: that would move the question against it.
    const held = world.holdings.filter((h) => {
      const m = marketOf(h.marketId);
      return h.userId === a.id && heldOf(a.id, h.marketId, h.side).gt(0) && !!m && directions.get(m.questionNumber) !== h.side;
    });
    if (held.length && tradeRng.chance(SELL_CHANCE)) {
      const h = tradeRng.pick(held);
      const m = marketOf(h.marketId)!;
      const lv = live.get(m.id)!;
      const view = viewOf(a, m);
      const has = heldOf(a.id, m.id, h.side);
      // Without a value to go by it takes some off (a quarter to all of it); with one, it sells
      // only a side it now thinks too dear. Either way the sale moves the price a few points at most.
      const part = tradeRng.float(0.25, 1);
      const want = view === null ? null : sideForView(view, lv.yesPrice, directions.get(m.questionNumber));
      const wanted = view === null ? has.times(part).toDecimalPlaces(8, 1) : want !== null && want !== h.side ? has : dec(0);
      const keeps = stance.get(`${a.id}:${m.id}`) === h.side || bought.has(posKey(a.id, m.id, h.side));
      const shares = keeps ? dec(0) : depthSellShares(lv, h.side, view, wanted);
      if (shares.gt(0)) {
        sell(a, m, h.side, shares);
        continue;
      }
    }
    const mine = world.markets.filter((m) => questionMentions(m, a));
    // Where it trades: this tick's news first, then its own organisation's questions, then (half
    // the time) the question it thinks most mispriced, else any: a trader goes where the edge is,
    // so a few trades a minute keep every question near its value.
    const edgeOf = (q: TNpcMarket) => {
      const v = viewOf(a, q);
      return v === null ? 0 : Math.abs(v - live.get(q.id)!.yesPrice);
    };
    const widest = () => world.markets.reduce((best, q) => (edgeOf(q) > edgeOf(best) ? q : best));
    const m =
      newsMarkets.length && tradeRng.chance(0.6)
        ? tradeRng.pick(newsMarkets)
        : mine.length && tradeRng.chance(0.5)
          ? tradeRng.pick(mine)
          : tradeRng.chance(EDGE_SEEKING_CHANCE)
            ? widest()
            : tradeRng.pick(world.markets);
    const lv = live.get(m.id)!;
    // Sized within what the actor has left after this tick's earlier buys: never overdraw.
    const left = remaining.get(a.id)!;
    const budget = dec(Math.min(TRADE_AMOUNT.max, left.toNumber() * tradeRng.float(TRADE_FRACTION.min, TRADE_FRACTION.max))).toDecimalPlaces(2, 1);
    // A question with a rule is traded toward the actor's view of its value, or not at all; one
    // without (an administrator's) by the news or a lean against extremes.
    const view = viewOf(a, m);
    const outcome = view === null ? chooseOutcome({ ...m, yesPrice: lv.yesPrice }, directions, tradeRng) : sideForView(view, lv.yesPrice, directions.get(m.questionNumber));
    // Never against what its post this tick said.
    if (!outcome || (stance.has(`${a.id}:${m.id}`) && stance.get(`${a.id}:${m.id}`) !== outcome)) continue;
    // A manager never bets against their own fund.
    if (againstOwnFund(world.funds?.get(a.id), { kind: 'prediction', marketId: m.id, outcome })) continue;
    // One side per market: holding the other side, it sells that first (and never flips within a tick).
    const other = outcome === 'YES' ? 'NO' : 'YES';
    if (bought.has(posKey(a.id, m.id, other))) continue;
    const otherHeld = heldOf(a.id, m.id, other);
    if (otherHeld.gt(0)) {
      const shares = depthSellShares(lv, other, view, otherHeld);
      if (shares.gt(0)) sell(a, m, other, shares);
      continue;
    }
    const amount = depthBuyAmount(lv, outcome, view, budget).toDecimalPlaces(2, 1);
    if (amount.lt(TRADE_AMOUNT.min) || amount.gt(left)) continue;
    remaining.set(a.id, left.minus(amount));
    bought.add(posKey(a.id, m.id, outcome));
    if (lv.pool) move(lv, quoteBuy(lv.pool, outcome, amount).pool);
    const post = tradeRng.chance(TRADE_POST_CHANCE.prediction) && postsLeft(plan, postBudget) ? renderTradePost(a, { kind: 'buy', outcome, question: m.text }, tradeRng) : null;
    plan.trades.push({ kind: 'buy', actorId: a.id, marketId: m.id, outcome, amount: toDecimalString(amount), post });
  }
  planPerpTrades(world, events, rng.fork('perps'), remaining, plan, catchUp(minutes));
  return plan;
}

/** A ticker's open-interest imbalance in [−1, 1]: positive when longs outweigh shorts. */
export function imbalanceOf(t: Pick<TNpcTicker, 'oiLong' | 'oiShort'>) {
  return (t.oiLong - t.oiShort) / (t.oiLong + t.oiShort + IMBALANCE_FLOOR);
}

/** The chance that a new perp on this ticker is a long (see IMBALANCE_LEAN). */
export function longChance(t: TNpcTicker, newsImpact: number) {
  const premium = t.indexPrice > 0 ? (t.markPrice - t.indexPrice) / t.indexPrice : 0;
  const p = 0.5 - IMBALANCE_LEAN * imbalanceOf(t) - PREMIUM_LEAN * premium + NEWS_LEAN * Math.sign(newsImpact);
  return Math.min(0.95, Math.max(0.05, p));
}

/**
 * The tick's perp trades, as players make them: within the actor's balance (what its prediction
 * buys left), at its tier's leverage, one new position per actor per tick; now and then it closes
 * one it holds (the one on its ticker's heavier side first). Sides lean against each ticker's
 * imbalance and premium (longChance), and the running open interest is updated trade by trade.
 */
const planPerpTrades = (world: TNpcWorld, events: readonly TWorldEvent[], rng: TRng, remaining: Map<string, ReturnType<typeof dec>>, plan: TNpcPlan, times: number) => {
  if (!world.tickers.length || !world.acting.length) return;
  const tickers = new Map(world.tickers.map((t) => [t.ticker, { ...t }]));
  const held = world.perps.map((p) => ({ ...p }));
  const closed = new Set<string>();
  const opened = new Set<string>();
  const n = drawFor(rng, PERP_TRADES_PER_TICK, times);
  const newsImpact = (ticker: string) => events.filter((e) => e.ticker === ticker).reduce((s, e) => s + e.impact, 0);
  const post = (a: TNpcActor, t: { kind: 'open' | 'close'; ticker: string; side: 'long' | 'short'; leverage: number }) =>
    rng.chance(TRADE_POST_CHANCE.perp) && postsLeft(plan, npcPostBudget(events).npc) ? renderTradePost(a, t, rng) : null;
  const close = (a: TNpcActor, p: (typeof held)[number]) => {
    closed.add(p.id);
    const t = tickers.get(p.ticker);
    if (t) {
      if (p.side === 'long') t.oiLong = Math.max(0, t.oiLong - p.size);
      else t.oiShort = Math.max(0, t.oiShort - p.size);
    }
    plan.perpTrades.push({ kind: 'close', actorId: a.id, positionId: p.id, ticker: p.ticker, side: p.side, leverage: p.leverage, post: post(a, { kind: 'close', ...p }) });
  };
  for (let i = 0; i < n; i++) {
    const a = rng.pick(world.acting);
    const own = held.filter((p) => p.userId === a.id && !closed.has(p.id));
    if (own.length && (own.length >= NPC_MAX_PERPS || rng.chance(PERP_CLOSE_CHANCE))) {
      const heavy = own.filter((p) => {
        const t = tickers.get(p.ticker);
        return t && (p.side === 'long' ? imbalanceOf(t) > 0 : imbalanceOf(t) < 0);
      });
      close(a, rng.pick(heavy.length ? heavy : own));
      continue;
    }
    if (opened.has(a.id)) continue;
    // Which ticker: this tick's news, the actor's own company, the most lopsided book, or any.
    const all = [...tickers.values()];
    const news = all.filter((t) => events.some((e) => e.ticker === t.ticker));
    const lopsided = [...all].sort((x, y) => Math.abs(imbalanceOf(y)) - Math.abs(imbalanceOf(x)) || x.ticker.localeCompare(y.ticker))[0]!;
    const t =
      news.length && rng.chance(0.3)
        ? rng.pick(news)
        : a.orgTicker && tickers.has(a.orgTicker) && rng.chance(0.3)
          ? tickers.get(a.orgTicker)!
          : rng.chance(0.6)
            ? lopsided
            : rng.pick(all);
    const side: 'long' | 'short' = rng.chance(longChance(t, newsImpact(t.ticker))) ? 'long' : 'short';
    if (againstOwnFund(world.funds?.get(a.id), { kind: 'perp', ticker: t.ticker, side })) continue;
    // One view per ticker: an actor holding the other side closes it rather than hedging.
    const opposite = own.find((p) => p.ticker === t.ticker && p.side !== side);
    if (opposite) {
      close(a, opposite);
      continue;
    }
    const [lo, hi] = PERP_LEVERAGE[a.tier];
    const leverage = rng.int(lo, hi);
    const left = remaining.get(a.id) ?? dec(0);
    const margin = Math.min(left.toNumber() * rng.float(PERP_MARGIN_FRACTION.min, PERP_MARGIN_FRACTION.max), PERP_SIZE.max / leverage);
    const size = Math.floor(margin * leverage * 100) / 100;
    // Margin plus the 0.1% fee on the notional leaves the balance.
    const cost = dec(size).div(leverage).plus(dec(size).times('0.001'));
    if (size < PERP_SIZE.min || cost.gt(left)) continue;
    remaining.set(a.id, left.minus(cost));
    opened.add(a.id);
    if (side === 'long') t.oiLong += size;
    else t.oiShort += size;
    plan.perpTrades.push({ kind: 'open', actorId: a.id, ticker: t.ticker, side, size: size.toFixed(2), leverage, post: post(a, { kind: 'open', ticker: t.ticker, side, leverage }) });
  }
};

