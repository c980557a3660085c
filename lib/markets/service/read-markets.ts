/** Read operations of prediction markets for the API (each opens the database and runs one query module call). */
import { getDb } from '@/db/client';
import { findUserById } from '@/lib/users/queries';
import { AppError } from '@/lib/http/errors';
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
  return { predictions, perps: [], perpetuals: [], totalPnL: totalUnrealizedPnL, totalUnrealizedPnL, totalValue };
};

export const listTrades = async (opts: { limit: number; offset: number; userId?: string; marketId?: string }) => {
  const { trades, total } = await findTrades(await getDb(), opts);
  return { trades, count: trades.length, total, pagination: { limit: opts.limit, offset: opts.offset, total } };
};
