/** Read operations of prediction markets for the API (each opens the database and runs one query module call). */
import 'server-only';
import { getDb } from '@/db/client';
import { findUserById } from '@/lib/users/queries';
import { AppError } from '@/lib/errors/app-error';
import { dec, toNumber } from '@/lib/money/decimal';
import { findPerpTrades, findUserPerpPositions } from '@/lib/perps/service/read';
import {
  findActiveBiases,
  findMarket,
  findMarkets,
  findPriceHistory,
  findTopMarkets,
  findTrades,
  findUserPredictionPositions,
  type THistoryRange,
} from '../queries';

export const listPredictions = async (opts: { status: 'active' | 'resolved' | 'all'; page: number; limit: number; userId?: string }) => {
  const { questions, total } = await findMarkets(await getDb(), opts);
  return {
    questions,
    markets: questions,
    count: total,
    total,
    pagination: { page: opts.page, limit: opts.limit, total, pages: Math.ceil(total / opts.limit) },
  };
};

export const getPrediction = async (id: string) => ({ market: await findMarket(await getDb(), id) });

export const getPriceHistory = async (marketId: string, range: THistoryRange) => {
  const points = await findPriceHistory(await getDb(), marketId, range);
  return { marketId, range, points, history: points };
};

export const listActiveBiases = async () => {
  const biases = await findActiveBiases(await getDb());
  return { biases, count: biases.length };
};

export const listTopMarkets = async (limit = 5) => ({ markets: await findTopMarkets(await getDb(), limit) });

/** The predictions half of a user's positions (perpetuals arrive with their issue). */
export const getUserPositions = async (userId: string) => {
  const db = await getDb();
  if (!(await findUserById(db, userId))) throw new AppError('USER_NOT_FOUND', 'User not found', { userId });
  const { predictions, totalValue, totalUnrealizedPnL } = await findUserPredictionPositions(db, userId);
  const perps = await findUserPerpPositions(userId, { status: 'open', limit: 100 });
  // Totals over both kinds: unrealized PnL, and value = what closing everything at the mark is worth
  // before fees (prediction value; perp collateral plus unrealized PnL).
  let unrealized = dec(totalUnrealizedPnL);
  let value = dec(totalValue);
  for (const p of perps) {
    unrealized = unrealized.plus(p.unrealizedPnL);
    value = value.plus(dec(p.collateral).plus(p.unrealizedPnL));
  }
  const totalPnL = toNumber(unrealized.toDecimalPlaces(8));
  return { predictions, perps, perpetuals: perps, totalPnL, totalUnrealizedPnL: totalPnL, totalValue: toNumber(value.toDecimalPlaces(8)) };
};

/**
 * Recent trades of both kinds, newest first: prediction trades (marketId a question) and perp
 * trades (marketId a ticker). Each kind is read newest first up to offset + limit and merged.
 */
export const listTrades = async (opts: { limit: number; offset: number; userId?: string; marketId?: string; type: 'all' | 'prediction' | 'perp' }) => {
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
};
