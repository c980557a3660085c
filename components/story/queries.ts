/**
 * The storylines' reads in the browser: a market's story, a ticker's developing and resolved
 * stories, an NPC's calibration and the board of voices. queryOptions factories own the keys.
 * I/O: the typed client only.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import { actorCalibration, calibrationLeaderboard, predictionStory, tickerStories } from '@/lib/contracts/storylines';

export const storyKeys = {
  all: ['storylines'] as const,
  market: (marketId: string) => [...storyKeys.all, 'market', marketId] as const,
  ticker: (ticker: string) => [...storyKeys.all, 'ticker', ticker.toUpperCase()] as const,
  calibration: (actorId: string) => [...storyKeys.all, 'calibration', actorId] as const,
  voices: (limit: number) => [...storyKeys.all, 'voices', limit] as const,
};

export const marketStoryQueryOptions = (marketId: string) =>
  queryOptions({
    queryKey: storyKeys.market(marketId),
    queryFn: () => api(predictionStory, { params: { id: marketId } }),
    staleTime: 30_000,
  });

export const useMarketStory = (marketId: string) => useQuery(marketStoryQueryOptions(marketId));

export const tickerStoriesQueryOptions = (ticker: string) =>
  queryOptions({
    queryKey: storyKeys.ticker(ticker),
    queryFn: () => api(tickerStories, { params: { ticker } }),
    staleTime: 30_000,
  });

export const useTickerStories = (ticker: string) => useQuery(tickerStoriesQueryOptions(ticker));

export const actorCalibrationQueryOptions = (actorId: string) =>
  queryOptions({
    queryKey: storyKeys.calibration(actorId),
    queryFn: () => api(actorCalibration, { params: { actorId } }),
    staleTime: 60_000,
  });

export const useActorCalibration = (actorId: string) => useQuery(actorCalibrationQueryOptions(actorId));

export const voicesQueryOptions = (limit: number) =>
  queryOptions({
    queryKey: storyKeys.voices(limit),
    queryFn: () => api(calibrationLeaderboard, { query: { limit } }),
    staleTime: 60_000,
  });

export const useVoices = (limit = 20) => useQuery(voicesQueryOptions(limit));
