/** Database rows to the API's post shape, and the author columns posts and comments share. No I/O. */
import type { TPost, TPostMarket, TPostTrade } from '@/lib/contracts/posts';
import { dec, toNumber } from '@/lib/money/decimal';
import { toUserSummary } from '@/lib/users/dto';

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

export const toAuthorDto = (r: TAuthorRaw) =>
  toUserSummary({
    id: r.author_id,
    username: r.username,
    displayName: r.display_name,
    profileImageUrl: r.profile_image_url,
    reputationPoints: Number(r.reputation_points),
    isActor: r.is_actor,
  });

/** PGlite and postgres.js both return text[] as arrays; a literal '{a,b}' is parsed just in case. */
const tagsOf = (t: TPostRowRaw['tags'] | TPostRowRaw['tickers']): string[] => {
  if (!t) return [];
  if (Array.isArray(t)) return t;
  return t.replace(/^\{|\}$/g, '').split(',').filter(Boolean);
};

/**
 * The specification's price rule, as lib/markets/dto `marketPrices` applies it: a resolved market
 * is worth 1 or 0; otherwise yesPrice = yesShares / (yesShares + noShares) (public weights). Kept
 * here rather than imported so lib/posts does not depend on lib/markets (lib/markets reaches
 * lib/contracts, which imports lib/posts/text: a folder cycle). test/api/post-trading.int.test.ts
 * holds the two equal.
 */
const pricesOf = (yesShares: string, noShares: string, status: 'active' | 'resolved', outcome: 'YES' | 'NO' | null) => {
  const yes = status === 'resolved' && outcome ? dec(outcome === 'YES' ? 1 : 0) : dec(yesShares).div(dec(yesShares).plus(noShares));
  return { yes, no: dec(1).minus(yes) };
};

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

export const toPostDto = (r: TPostRowRaw, repost?: TRepostRaw | null): TPost => {
  const likes = Number(r.likes_count);
  return {
    id: r.id,
    type: r.type,
    content: r.content,
    authorId: r.author_id,
    author: toAuthorDto(r),
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
  };
};
