/**
 * The API's post shape (TPost: lib/contracts/posts.ts documents it as ZPost and checks the two
 * agree), database rows to it, and the author columns posts and comments share. No I/O.
 */
import { marketPrices } from '@/lib/markets/dto';
import { dec, toNumber } from '@/lib/money/decimal';
import { toUserSummary, userSummaryOfRow, type TUserName, type TUserSummary } from '@/lib/users/dto';

/** The market a post is about (its relatedQuestion), priced as GET /api/markets/predictions/{id} prices it. */
export type TPostMarket = {
  id: string;
  question: string;
  yesPrice: number;
  noPrice: number;
  /** YES price now less 24 hours ago (probability points, -1..1). */
  change24h: number;
  status: 'active' | 'resolved';
  resolvedOutcome: 'YES' | 'NO' | null;
};

/** The author's open position in the post's market: on the side of the trade the post reports, else the larger side when they hold both. */
export type TPostAuthorPosition = { side: 'YES' | 'NO'; shares: number; avgPrice: number };

/** The trade a post reports: a prediction market trade or a perp trade, made by the post's author. */
export type TPostTrade = {
  kind: 'prediction' | 'perp';
  id: string;
  /** YES/NO for a prediction trade, long/short for a perp. */
  side: 'YES' | 'NO' | 'long' | 'short';
  /** buy/sell for a prediction trade, open/close/liquidation for a perp. */
  action: 'buy' | 'sell' | 'open' | 'close' | 'liquidation';
  ticker: string | null;
  marketId: string | null;
  /** What was paid or received (prediction), the notional (perp). */
  amount: number;
  /** Average price per share (prediction), the fill price (perp). */
  price: number;
  /** Shares bought or sold (prediction only). */
  shares: number | null;
  /** The position's leverage (perp only). */
  leverage: number | null;
  createdAt: string;
};

/** Who reposted a post, when, with what quote. */
export type TPostRepost = {
  id: string;
  userId: string;
  user: TUserName;
  quote: string | null;
  quoteComment: string | null;
  createdAt: string;
};

/** A post as every answer shows it (timestamps ISO 8601 UTC). */
export type TPost = {
  id: string;
  type: 'post' | 'article';
  content: string;
  authorId: string;
  /** An NPC author's public calibration (npc_calibration, at least 3 resolved calls); null otherwise. */
  author: TUserSummary & { calibration: { brier: number; resolved: number } | null };
  timestamp: string;
  createdAt: string;
  imageUrl: string | null;
  relatedQuestion: string | null;
  tags: string[];
  reactions: { like: number; total: number };
  likesCount: number;
  reactionCount: number;
  commentsCount: number;
  sharesCount: number;
  userReacted: boolean;
  userLiked: boolean;
  userShared: boolean;
  /** Set on a feed item that is a repost: who shared it, when, with what quote. */
  repost: TPostRepost | null;
  /** The relatedQuestion's market, live when read; null when the post names none. */
  market: TPostMarket | null;
  /** The author's open position in that market; null without a market or a holding. */
  authorPosition: TPostAuthorPosition | null;
  /** The trade the post reports; null for other posts. */
  trade: TPostTrade | null;
  /** Perp tickers written as $TICKER in the content (links to /perps/{ticker}), uppercase, in order of first appearance. */
  tickers: string[];
  /**
   * Set when a moderator removed the post (posts.removed_at): it keeps its place, and for anyone
   * but a moderator its content is '' and its image, tags, tickers, market and trade are left out.
   */
  removed: TPostRemoved | null;
};

/** Why and when a moderator removed a post (the reason may be unset). */
export type TPostRemoved = { reason: string | null; at: string };

const iso = (d: Date | string) => new Date(d).toISOString();

/** A post row as the hydrating query returns it (snake_case, raw SQL). */
export type TPostRowRaw = TAuthorRaw & {
  id: string;
  type: 'post' | 'article';
  content: string;
  image_url: string | null;
  related_question_id: string | null;
  likes_count: number | string;
  comments_count: number | string;
  shares_count: number | string;
  created_at: string | Date;
  tags: string[] | string | null;
  liked: boolean;
  shared: boolean;
  /** The author's calibration when it is an NPC with at least 3 resolved calls (left join on npc_calibration). */
  author_brier: string | null;
  author_resolved: number | string | null;
  /** Set when a moderator removed the post. */
  removed_at: string | Date | null;
  removed_reason: string | null;
} & TPostTradingRaw;

/** The related market, the author's position, the reported trade and the tickers (decimals as text). */
export type TPostTradingRaw = {
  market_id: string | null;
  market_text: string | null;
  market_status: 'active' | 'resolved' | null;
  market_yes_shares: string | null;
  market_no_shares: string | null;
  market_resolved_outcome: 'YES' | 'NO' | null;
  market_yes_24h_ago: string | null;
  position_side: 'YES' | 'NO' | null;
  position_shares: string | null;
  position_cost_basis: string | null;
  trade_kind: 'prediction' | 'perp' | null;
  trade_id: string | null;
  trade_side: TPostTrade['side'] | null;
  trade_action: TPostTrade['action'] | null;
  trade_market_id: string | null;
  trade_ticker: string | null;
  trade_amount: string | null;
  trade_price: string | null;
  trade_shares: string | null;
  trade_leverage: string | null;
  trade_created_at: string | Date | null;
  tickers: string[] | string | null;
};

export type TRepostRaw = {
  share_id: string;
  sharer_id: string;
  sharer_username: string;
  sharer_display_name: string;
  sharer_image: string | null;
  quote: string | null;
  at: string | Date;
};

/** The author columns every post and comment query selects. */
export type TAuthorRaw = {
  author_id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
  reputation_points: number | string;
  is_actor: boolean;
};

export function toAuthorDto(r: TAuthorRaw) {
  return userSummaryOfRow(r.author_id, r);
}

/** PGlite and postgres.js both return text[] as arrays; a literal '{a,b}' is parsed just in case. */
const tagsOf = (t: TPostRowRaw['tags'] | TPostRowRaw['tickers']): string[] => {
  if (!t) return [];
  if (Array.isArray(t)) return t;
  return t.replace(/^\{|\}$/g, '').split(',').filter(Boolean);
};

/** The specification's price rule, lib/markets/dto `marketPrices`: 1 or 0 once resolved, else the pool's price. */
const pricesOf = (yesShares: string, noShares: string, status: 'active' | 'resolved', outcome: 'YES' | 'NO' | null) =>
  marketPrices({ yesShares, noShares, status, resolvedOutcome: outcome });

/** The market as GET /api/markets/predictions/{id} prices it, or null. */
const marketOf = (r: TPostTradingRaw): TPostMarket | null => {
  if (!r.market_id || !r.market_status || r.market_yes_shares === null || r.market_no_shares === null) return null;
  const p = pricesOf(r.market_yes_shares, r.market_no_shares, r.market_status, r.market_resolved_outcome);
  const then = r.market_yes_24h_ago === null ? p.yes : dec(r.market_yes_24h_ago);
  return {
    id: r.market_id,
    question: r.market_text ?? '',
    yesPrice: toNumber(p.yes),
    noPrice: toNumber(p.no),
    change24h: toNumber(p.yes.minus(then)),
    status: r.market_status,
    resolvedOutcome: r.market_resolved_outcome,
  };
};

const authorPositionOf = (r: TPostTradingRaw): TPost['authorPosition'] => {
  if (!r.market_id || !r.position_side || r.position_shares === null) return null;
  const shares = dec(r.position_shares);
  if (!shares.gt(0)) return null;
  return { side: r.position_side, shares: toNumber(shares), avgPrice: toNumber(dec(r.position_cost_basis ?? 0).div(shares)) };
};

const tradeOf = (r: TPostTradingRaw): TPostTrade | null => {
  if (!r.trade_kind || !r.trade_id || !r.trade_side || !r.trade_action || r.trade_amount === null || r.trade_price === null || !r.trade_created_at) return null;
  const isPerp = r.trade_kind === 'perp';
  return {
    kind: r.trade_kind,
    id: r.trade_id,
    side: r.trade_side,
    action: r.trade_action,
    ticker: isPerp ? r.trade_ticker : null,
    marketId: isPerp ? null : r.trade_market_id,
    amount: toNumber(r.trade_amount),
    price: toNumber(r.trade_price),
    shares: !isPerp && r.trade_shares !== null ? toNumber(r.trade_shares) : null,
    leverage: isPerp && r.trade_leverage !== null ? toNumber(r.trade_leverage) : null,
    createdAt: iso(r.trade_created_at),
  };
};

/**
 * A post row as the API shows it. A removed post (removed_at set) carries `removed`; unless
 * `canSeeRemoved` (a moderator reads it), what the moderator removed is not served: content '',
 * no image, tags, tickers, market, author position or trade. Its frame (author, time, counters,
 * repost) stays, so it keeps its place in a feed.
 */
export function toPostDto(r: TPostRowRaw, repost?: TRepostRaw | null, opts: { canSeeRemoved?: boolean } = {}): TPost {
  const dto = toVisiblePostDto(r, repost);
  if (!r.removed_at) return dto;
  const removed = { reason: r.removed_reason, at: iso(r.removed_at) };
  if (opts.canSeeRemoved) return { ...dto, removed };
  return { ...dto, removed, content: '', imageUrl: null, relatedQuestion: null, tags: [], tickers: [], market: null, authorPosition: null, trade: null };
}

function toVisiblePostDto(r: TPostRowRaw, repost?: TRepostRaw | null): TPost {
  const likes = Number(r.likes_count);
  return {
    id: r.id,
    type: r.type,
    content: r.content,
    authorId: r.author_id,
    author: { ...toAuthorDto(r), calibration: r.author_brier == null ? null : { brier: Number(r.author_brier), resolved: Number(r.author_resolved) } },
    timestamp: iso(r.created_at),
    createdAt: iso(r.created_at),
    imageUrl: r.image_url,
    relatedQuestion: r.related_question_id,
    tags: tagsOf(r.tags),
    reactions: { like: likes, total: likes },
    likesCount: likes,
    reactionCount: likes,
    commentsCount: Number(r.comments_count),
    sharesCount: Number(r.shares_count),
    userReacted: r.liked,
    userLiked: r.liked,
    userShared: r.shared,
    repost: repost
      ? {
          id: repost.share_id,
          userId: repost.sharer_id,
          user: toUserSummary(
            { id: repost.sharer_id, username: repost.sharer_username, displayName: repost.sharer_display_name, profileImageUrl: repost.sharer_image },
            { nameOnly: true },
          ),
          quote: repost.quote,
          quoteComment: repost.quote,
          createdAt: iso(repost.at),
        }
      : null,
    market: marketOf(r),
    authorPosition: authorPositionOf(r),
    trade: tradeOf(r),
    tickers: tagsOf(r.tickers),
    removed: null,
  };
}
