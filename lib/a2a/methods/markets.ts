/**
 * Market data for agents: a question's prices, volume and liquidity as REST shows them (the YES
 * price is the REST yesPrice), and how to follow it live (the SSE stream's markets channel).
 * getMarketData's `prices` is Babylon's `[yesPrice, noPrice]` (its agents read `prices[0]`); the
 * prices by outcome are `pricesByOutcome`.
 */
import { z } from 'zod';
import { A2A_RESULTS } from '@/lib/contracts/a2a';
import { ZIdParam } from '@/lib/contracts/common';
import { now } from '@/lib/clock/clock';
import { getPrediction } from '@/lib/markets/service/read-markets';
import { aliasField, defineMethod } from './types';

const ZMarketParams = z.strictObject({ marketId: ZIdParam.describe('the question id') });
const market = (raw: Record<string, unknown>) => aliasField(raw, 'marketId', ['id', 'questionId', 'market']);

export const marketMethods = [
  defineMethod({
    name: 'a2a.getMarketData',
    summary: "A question's prices, volume, liquidity, resolution date and state",
    group: 'markets',
    kind: 'read',
    reads: 'replica',
    requires: ['read'],
    params: ZMarketParams,
    normalize: market,
    result: A2A_RESULTS['a2a.getMarketData'],
    run: async (_ctx, p) => {
      const { market: m } = await getPrediction(p.marketId);
      return {
        marketId: m.id,
        question: m.text,
        outcomes: ['YES' as const, 'NO' as const],
        // Babylon's shape takes the name (its agents read prices[0]); ours by outcome beside it.
        prices: [m.yesPrice, m.noPrice] as [number, number],
        pricesByOutcome: { YES: m.yesPrice, NO: m.noPrice },
        volume: m.volume,
        volume24h: m.volume24h,
        liquidity: m.liquidity,
        resolveAt: m.resolutionDate,
        resolved: m.status === 'resolved',
        resolvedOutcome: m.resolvedOutcome,
      };
    },
  }),
  defineMethod({
    name: 'a2a.getMarketPrices',
    summary: "A question's current price of each outcome",
    group: 'markets',
    kind: 'read',
    reads: 'replica',
    requires: ['read'],
    params: ZMarketParams,
    normalize: market,
    result: A2A_RESULTS['a2a.getMarketPrices'],
    run: async (_ctx, p) => {
      const { market: m } = await getPrediction(p.marketId);
      return {
        marketId: m.id,
        prices: [
          { outcome: 'YES' as const, price: m.yesPrice },
          { outcome: 'NO' as const, price: m.noPrice },
        ],
        timestamp: now().toISOString(),
      };
    },
  }),
  defineMethod({
    name: 'a2a.subscribeMarket',
    summary: "How to follow a question live: the SSE stream's markets channel carries its market_update events",
    group: 'markets',
    kind: 'read',
    requires: ['read'],
    params: ZMarketParams,
    normalize: market,
    result: A2A_RESULTS['a2a.subscribeMarket'],
    run: async ({ origin }, p) => {
      const { market: m } = await getPrediction(p.marketId); // an unknown question is NOT_FOUND
      return {
        subscribed: true,
        marketId: m.id,
        stream: { url: `${origin}/api/sse/events?channels=markets`, channel: 'markets' as const, event: 'market_update' as const, filter: { marketId: m.id } },
      };
    },
  }),
];
