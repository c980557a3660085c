/**
 * What pool managers do in a tick: pure, no I/O; every choice comes from the rng it is given, over
 * a world snapshot in a fixed order, so the same GAME_SEED and game time give the same trades.
 *
 * Each manager trades by its tier (TIER_STYLE: how much of NAV a position takes, leverage, the cash
 * it keeps for withdrawals, how often it acts and how fast it reacts to news):
 *   1. closes: takes profit or cuts a loss past its thresholds (and now and then just trims);
 *   2. news: a fresh world event about a ticker it can trade is followed in its direction (unless
 *      that adds to the ticker's heavier side past POOL_IMBALANCE_LIMIT), and the
 *      questions it names are bought on the side the news makes more likely (newsDirections);
 *   3. views: otherwise, now and then, it trades a ticker toward the game's fair value (long when
 *      the mark sits below it, short above), unless that adds to a ticker's heavier side past
 *      POOL_IMBALANCE_LIMIT (open interest stays in rough balance), and now and then buys the cheap
 *      side of a question whose price strays from its value (lib/game/npc/value.ts) by more than
 *      POOL_VALUE_EDGE;
 *   question buys (news or view) go only toward the question's value when it has one, are sized so
 *      that one moves the price at most MAX_PRICE_MOVE (the pool's depth), and never take the side
 *      opposite to one the pool holds;
 *   4. it never spends below its cash reserve, and never holds more than MAX_OPEN_PERPS perps.
 * Notable moves come with a post in the manager's voice ("Added to my $NEXA long after …").
 */
import type { TRng } from '@/lib/game/rng';
import type { TWorldEvent } from '@/lib/game/types';
import { depthBuyAmount, npcPostBudget, VALUE_EDGE, type TLivePool } from '@/lib/game/npc/plan';
import { againstOwnFund, type TFundBook } from '@/lib/game/npc/fund';
import { renderPoolTradePost } from '@/lib/game/npc/voice';
import { newsDirections } from '@/lib/game/world-rules';
import { prices, quoteBuy, toPool } from '@/lib/markets/cpmm';
import { dec } from '@/lib/money/decimal';

export const TIER_STYLE = {
  S: { positionFraction: 0.08, leverage: [2, 5], reserve: 0.3, actChance: 0.6, newsChance: 0.9, takeProfit: 0.25, stopLoss: -0.2 },
  A: { positionFraction: 0.07, leverage: [3, 10], reserve: 0.25, actChance: 0.5, newsChance: 0.7, takeProfit: 0.4, stopLoss: -0.35 },
  B: { positionFraction: 0.05, leverage: [1, 3], reserve: 0.35, actChance: 0.4, newsChance: 0.5, takeProfit: 0.2, stopLoss: -0.15 },
  C: { positionFraction: 0.04, leverage: [1, 2], reserve: 0.4, actChance: 0.3, newsChance: 0.3, takeProfit: 0.15, stopLoss: -0.12 },
} as const;
export type TTier = keyof typeof TIER_STYLE;

export const MAX_OPEN_PERPS = 8;
/**
 * The chance a pool's manager reviews the book in a quiet tick (one game minute): a fund rebalances
 * every twenty minutes or so, not every minute, so its trades and posts stay a small share of the
 * feed and the tape (lib/game/README "Density"; steps/pools.ts draws it, backfill/generate.ts
 * too); news makes a manager look sooner.
 */
export const POOL_ACT_CHANCE = { quiet: 0.05, news: 0.5 } as const;
/** Trims: the chance per tick that a manager closes a position that hit no threshold. */
export const TRIM_CHANCE = 0.04;
/** The chance that a trade is announced in a post (news-driven trades are always announced). */
export const POST_CHANCE = 0.35;
/** The smallest perp a manager opens, and the smallest question buy. */
export const MIN_PERP_SIZE = 10;
/** A new perp (news or view) never adds to a ticker's heavier side once (long − short) / (long + short + 1,000) passes this. */
export const POOL_IMBALANCE_LIMIT = 0.3;
export const MIN_PREDICTION_BUY = 5;
/** A view on a question: bought only when its price strays from its value by more than this. */
export const POOL_VALUE_EDGE = 0.05;

export type TPlanPool = {
  id: string;
  name: string;
  tier: TTier;
  manager: { id: string; username: string; role: string };
  cash: number;
  nav: number;
  perps: { id: string; ticker: string; side: 'long' | 'short'; margin: number; unrealizedPnL: number; openedAt: number }[];
  predictions: { marketId: string; side: 'YES' | 'NO'; shares: number }[];
  /** The manager's personal book (sides only): the fund never takes the other side of it (npc/fund.ts). */
  managerBook?: TFundBook;
};
/** oiLong / oiShort: the ticker's open interest by side (everyone's open positions), when known. */
export type TPlanTicker = { ticker: string; markPrice: number; fairValue: number; oiLong?: number; oiShort?: number };
/** yesShares / noShares: the pool's public weights (decimal strings), for sizing to depth; fair: its value (value.ts), null without a rule. */
export type TPlanQuestion = { id: string; questionNumber: number; text: string; yesPrice: number; yesShares?: string; noShares?: string; fair?: number | null };

export type TPoolTrade =
  | { kind: 'open'; poolId: string; ticker: string; side: 'long' | 'short'; size: number; leverage: number; reason: string | null }
  | { kind: 'close'; poolId: string; positionId: string; ticker: string; side: 'long' | 'short'; pnl: number }
  | { kind: 'buy'; poolId: string; marketId: string; questionNumber: number; outcome: 'YES' | 'NO'; amount: number; price: number };

/** A post announcing the trade at `tradeIndex` of the plan (written only if that trade went through). */
export type TPoolPost = { poolId: string; managerId: string; managerUsername: string; content: string; tradeIndex: number };


const postFor = (pool: TPlanPool, t: TPoolTrade, rng: TRng): string =>
  renderPoolTradePost(pool.manager, pool.name, t.kind === 'buy' ? { kind: 'buy', outcome: t.outcome, questionNumber: t.questionNumber, price: t.price } : t, rng);

export function planPoolTrades(
  world: { pools: readonly TPlanPool[]; tickers: readonly TPlanTicker[]; questions: readonly TPlanQuestion[] },
  events: readonly TWorldEvent[],
  rng: TRng,): { trades: TPoolTrade[]; posts: TPoolPost[] } {
  const trades: TPoolTrade[] = [];
  const posts: TPoolPost[] = [];
  const tickers = [...world.tickers].sort((a, b) => a.ticker.localeCompare(b.ticker));
  const byTicker = new Map(tickers.map((t) => [t.ticker, t]));
  // Running open interest by ticker, updated by the plan's own opens.
  const oi = new Map(tickers.map((t) => [t.ticker, { long: t.oiLong ?? 0, short: t.oiShort ?? 0 }]));
  const imbalance = (ticker: string) => {
    const o = oi.get(ticker) ?? { long: 0, short: 0 };
    return (o.long - o.short) / (o.long + o.short + 1000);
  };
  /** Whether a new position on this side would add to the ticker's heavier side past the limit. */
  const heavier = (ticker: string, side: 'long' | 'short') =>
    side === 'long' ? imbalance(ticker) > POOL_IMBALANCE_LIMIT : imbalance(ticker) < -POOL_IMBALANCE_LIMIT;
  const newsByTicker = events.filter((e) => e.ticker && e.impact !== 0 && byTicker.has(e.ticker));
  const questions = [...world.questions].sort((a, b) => a.questionNumber - b.questionNumber);
  const byNumber = new Map(questions.map((q) => [q.questionNumber, q]));
  const directions = newsDirections(events);
  // Each question's pool as the plan's own buys move it (several pools on one question do not overshoot).
  const live = new Map<string, TLivePool>(
    questions.map((q) => [q.id, { pool: q.yesShares !== undefined && q.noShares !== undefined ? toPool({ yesShares: q.yesShares, noShares: q.noShares }) : null, yesPrice: q.yesPrice }]),
  );

  for (const pool of [...world.pools].sort((a, b) => a.id.localeCompare(b.id))) {
    const r = rng.fork(pool.id);
    const style = TIER_STYLE[pool.tier];
    let cash = pool.cash;
    const floor = pool.nav * style.reserve;
    let open = pool.perps.length;
    const mine: TPoolTrade[] = [];
    let announced: TPoolTrade | null = null;

    // 1. Closes: thresholds on return on margin, or a trim.
    // Game-time order (ids are random: an order by id would make the draws differ between two worlds of one seed).
    const byAge = [...pool.perps].sort((a, b) => a.openedAt - b.openedAt || a.ticker.localeCompare(b.ticker) || a.side.localeCompare(b.side) || a.id.localeCompare(b.id));
    for (const p of byAge) {
      const ret = p.margin > 0 ? p.unrealizedPnL / p.margin : 0;
      if (ret >= style.takeProfit || ret <= style.stopLoss || r.chance(TRIM_CHANCE)) {
        const t: TPoolTrade = { kind: 'close', poolId: pool.id, positionId: p.id, ticker: p.ticker, side: p.side, pnl: p.unrealizedPnL };
        mine.push(t);
        open--;
        cash += Math.max(0, p.margin + p.unrealizedPnL);
        if (!announced && Math.abs(ret) >= Math.min(style.takeProfit, -style.stopLoss)) announced = t;
      }
    }

    const room = () => cash - floor;
    const held = new Map(pool.perps.map((p) => [p.ticker, p.side]));
    const openPerp = (ticker: string, side: 'long' | 'short', reason: string | null) => {
      if (open >= MAX_OPEN_PERPS) return null;
      // One view per ticker: never long and short the same name at once.
      // (The other side only once every position on the ticker is being closed in this plan: a pool
      // may hold two longs on one name, and closing one leaves the other.)
      const already = held.get(ticker);
      const onTicker = pool.perps.filter((p) => p.ticker === ticker);
      const allClosing =
        onTicker.length > 0 &&
        onTicker.every((p) => mine.some((t) => t.kind === 'close' && t.positionId === p.id)) &&
        !mine.some((t) => t.kind === 'open' && t.ticker === ticker);
      if (already && already !== side && !allClosing) return null;
      // Manager and fund on one side: the fund never opens against the manager's own perp.
      if (againstOwnFund(pool.managerBook, { kind: 'perp', ticker, side })) return null;
      const leverage = r.int(style.leverage[0], style.leverage[1]);
      // The 0.1% fee on the notional leaves the cash too: margin × (1 + 0.001 × leverage) ≤ room.
      const margin = Math.min(pool.nav * style.positionFraction * r.float(0.5, 1), room() / (1 + 0.001 * leverage));
      const size = Math.floor(margin * leverage * 100) / 100;
      if (margin <= 0 || size < MIN_PERP_SIZE) return null;
      const t: TPoolTrade = { kind: 'open', poolId: pool.id, ticker, side, size, leverage, reason };
      mine.push(t);
      open++;
      held.set(ticker, side);
      const o = oi.get(ticker);
      if (o) o[side] += size;
      // Margin plus the 0.1% fee leaves the cash.
      cash -= size / leverage + size * 0.001;
      return t;
    };

    /**
     * A question buy on `outcome`: only while that side is cheap (below its value by more than
     * `edge`, or below 0.8 for a question without one), never against a side the pool holds, within
     * the cash above the reserve, sized to move the price MAX_PRICE_MOVE at most.
     */
    const buyQuestion = (q: TPlanQuestion, outcome: 'YES' | 'NO', edge: number): TPoolTrade | null => {
      const lv = live.get(q.id)!;
      const price = outcome === 'YES' ? lv.yesPrice : 1 - lv.yesPrice;
      const value = q.fair === null || q.fair === undefined ? null : outcome === 'YES' ? q.fair : 1 - q.fair;
      if (value === null ? price >= 0.8 : price >= value - edge) return null;
      if (pool.predictions.some((p) => p.marketId === q.id && p.side !== outcome && p.shares > 0) || mine.some((t) => t.kind === 'buy' && t.marketId === q.id && t.outcome !== outcome)) return null;
      if (againstOwnFund(pool.managerBook, { kind: 'prediction', marketId: q.id, outcome })) return null;
      const budget = Math.floor(Math.min(pool.nav * style.positionFraction * 0.5, room()) * 100) / 100;
      if (budget < MIN_PREDICTION_BUY) return null;
      const amount = depthBuyAmount(lv, outcome, q.fair ?? null, dec(budget)).toDecimalPlaces(2, 1).toNumber();
      if (amount < MIN_PREDICTION_BUY) return null;
      if (lv.pool) {
        lv.pool = quoteBuy(lv.pool, outcome, amount).pool;
        lv.yesPrice = prices(lv.pool).yes.toNumber();
      }
      cash -= amount;
      return { kind: 'buy', poolId: pool.id, marketId: q.id, questionNumber: q.questionNumber, outcome, amount, price };
    };

    // 2. News about a ticker: follow it, the faster the higher the tier.
    for (const e of newsByTicker) {
      if (!r.chance(style.newsChance)) continue;
      const side = e.impact > 0 ? 'long' : 'short';
      const t = heavier(e.ticker!, side) ? null : openPerp(e.ticker!, side, e.title);
      if (t) announced = t;
      // The question the news names: buy the side the news makes more likely (for an event
      // question the news fulfils that is YES, even when the news is bad for the company), when
      // that side is still cheap (below its value by the edge, when the question has one).
      for (const n of e.relatedQuestions) {
        const q = byNumber.get(n);
        const outcome = directions.get(n);
        if (!q || !outcome) continue;
        const t = buyQuestion(q, outcome, VALUE_EDGE);
        if (t) mine.push(t);
      }
    }

    // 3. A view: a ticker toward fair value, now and then.
    if (r.chance(style.actChance) && tickers.length > 0) {
      const t = r.pick(tickers);
      const gap = (t.fairValue - t.markPrice) / t.markPrice;
      const side = gap > 0 ? 'long' : 'short';
      if (Math.abs(gap) > 0.002 && !heavier(t.ticker, side)) {
        const trade = openPerp(t.ticker, side, null);
        if (trade && !announced && r.chance(POST_CHANCE)) announced = trade;
      }
    }

    // 3b. A view on a question: now and then, the cheap side of one whose price strays from its value.
    const mispriced = questions.filter((q) => q.fair !== null && q.fair !== undefined && Math.abs(q.fair - live.get(q.id)!.yesPrice) > POOL_VALUE_EDGE);
    if (mispriced.length && r.chance(style.actChance)) {
      const q = r.pick(mispriced);
      const t = buyQuestion(q, q.fair! > live.get(q.id)!.yesPrice ? 'YES' : 'NO', POOL_VALUE_EDGE);
      if (t) {
        mine.push(t);
        if (!announced && r.chance(POST_CHANCE)) announced = t;
      }
    }

    // The feed's budget (npc/plan.ts NPC_POSTS_PER_TICK): the pool managers' share of it per tick.
    if (announced && posts.length < npcPostBudget(events).pool) {
      const tradeIndex = trades.length + mine.indexOf(announced);
      posts.push({ poolId: pool.id, managerId: pool.manager.id, managerUsername: pool.manager.username, content: postFor(pool, announced, r), tradeIndex });
    }
    trades.push(...mine);
  }
  return { trades, posts };
}
