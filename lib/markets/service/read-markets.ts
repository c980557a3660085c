/** Read operations of prediction markets for the API (each opens the database and runs one query module call). */
import 'server-only';
import { getDb } from '@/db/client';
import { findUserById } from '@/lib/users/queries';
import { AppError } from '@/lib/errors/app-error';
import { dec, toNumber } from '@/lib/money/decimal';
import { findPerpTrades, findUserPerpPositions } from '@/lib/perps/service/read';
import type { TCaller } from '@/lib/auth/caller';
import { describeMarket } from '../describe';
import { findDescribableRule, findMarketPosts, findRelatedNews, findTopHolders } from '../page-queries';
import {
  findActiveBiases,
  findMarketWithRow,
  findMarkets,
  getMarketRowOrThrow,
  findPriceHistory,
  findTopMarkets,
  findTrades,
  findUserPredictionPositions,
  type TMarketListOptions,
  type THistoryRange,
} from '../queries';

/** A page of questions, filtered (status, search, topic, ticker) and sorted, with the filters' choices. */
export async function listPredictions(opts: TMarketListOptions) {
  const { questions, total, facets } = await findMarkets(await getDb(), opts);
  return {
    facets,
    questions,
    markets: questions,
    count: total,
    total,
    pagination: { page: opts.page, limit: opts.limit, total, pages: Math.ceil(total / opts.limit) },
  };
}

/** One question with its description and resolution criteria, written from its rule (lib/markets/describe). */
export async function getPrediction(id: string) {
  const db = await getDb();
  const { row, dto } = await findMarketWithRow(db, id);
  const rule = await findDescribableRule(db, id);
  const text = describeMarket(
    { text: row.text, createdAt: row.createdAt, resolutionDate: row.resolutionDate, status: row.status, resolvedOutcome: row.resolvedOutcome, resolvedAt: row.resolvedAt },
    rule,
  );
  const org = rule?.organization ?? null;
  return {
    market: {
      ...dto,
      ...text,
      organization: org ? { id: org.id, name: org.name, ticker: org.ticker } : null,
      topic: org?.sector || null,
      ticker: org?.ticker ?? null,
    },
  };
}

/** The largest holders on each side; the caller's blocks leave people out. */
export async function getTopHolders(input: { caller: TCaller | null; marketId: string; limit: number }) {
  const db = await getDb();
  const market = await getMarketRowOrThrow(db, input.marketId);
  return { marketId: market.id, ...(await findTopHolders(db, market, input.caller?.userId ?? null, input.limit)) };
}

/** World news that bears on the question (the tick records the question numbers an event concerns). */
export async function getRelatedNews(input: { marketId: string; limit: number }) {
  const db = await getDb();
  const market = await getMarketRowOrThrow(db, input.marketId);
  const news = await findRelatedNews(db, market.questionNumber, input.limit);
  return { marketId: market.id, news, count: news.length };
}

/** Posts about the question that the caller may see; each post's comments are the comments API's. */
export async function getMarketPosts(input: { caller: TCaller | null; marketId: string; limit: number }) {
  const db = await getDb();
  const market = await getMarketRowOrThrow(db, input.marketId);
  const posts = await findMarketPosts(db, market.id, input.caller?.userId ?? null, input.limit);
  return { marketId: market.id, posts, count: posts.length, commentsCount: posts.reduce((n, p) => n + p.commentsCount, 0) };
}

export async function getPriceHistory(marketId: string, range: THistoryRange) {
  const points = await findPriceHistory(await getDb(), marketId, range);
  return { marketId, range, points, history: points };
}

export async function listActiveBiases() {
  const biases = await findActiveBiases(await getDb());
  return { biases, count: biases.length };
}

export async function listTopMarkets(limit = 5) {
  return { markets: await findTopMarkets(await getDb(), limit) };
}

/** The predictions half of a user's positions (perpetuals arrive with their issue). */
export async function getUserPositions(userId: string) {
  const db = await getDb();
  if (!(await findUserById(db, userId))) throw new AppError('USER_NOT_FOUND', 'User not found', { userId });
  const { predictions, totalValue, totalUnrealizedPnL } = await findUserPredictionPositions(db, userId);
  const perps = await findUserPerpPositions(userId, { status: 'open', limit: 100 });
  // Totals over both kinds: unrealized PnL, and value = what closing everything at the mark is worth
  // before fees (prediction value; perp collateral, with the funding accrued so far as the DTO
  // gives it, plus unrealized PnL).
  let unrealized = dec(totalUnrealizedPnL);
  let value = dec(totalValue);
  for (const p of perps) {
    unrealized = unrealized.plus(p.unrealizedPnL);
    value = value.plus(dec(p.collateral).plus(p.unrealizedPnL));
  }
  const totalPnL = toNumber(unrealized.toDecimalPlaces(8));
  return { predictions, perps, perpetuals: perps, totalPnL, totalUnrealizedPnL: totalPnL, totalValue: toNumber(value.toDecimalPlaces(8)) };
}

/**
 * Recent trades of both kinds, newest first: prediction trades (marketId a question) and perp
 * trades (marketId a ticker). Each kind is read newest first up to offset + limit and merged.
 */
export async function listTrades(opts: { limit: number; offset: number; userId?: string; marketId?: string; type: 'all' | 'prediction' | 'perp' }) {
  const take = opts.offset + opts.limit;
  const [pred, perp] = await Promise.all([
    opts.type === 'perp' ? { trades: [], total: 0 } : findTrades(await getDb(), { limit: take, offset: 0, userId: opts.userId, marketId: opts.marketId }),
    opts.type === 'prediction' ? { trades: [], total: 0 } : findPerpTrades({ take, userId: opts.userId, ticker: opts.marketId }),
  ]);
  const merged = [...pred.trades, ...perp.trades]
    .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1))
    .slice(opts.offset, take);
  const total = pred.total + perp.total;
  return { trades: merged, count: merged.length, total, pagination: { limit: opts.limit, offset: opts.offset, total } };
}
