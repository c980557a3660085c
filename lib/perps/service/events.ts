/** Perps events on the in-process bus (the realtime issue carries them to SSE). */
import { publish } from '@/lib/events/bus';
import { now } from '@/lib/clock/clock';

export const publishPerpUpdate = (ticker: string, markPrice?: string) =>
  publish('markets', { type: 'perp_update', data: { ticker, ...(markPrice ? { markPrice: Number(markPrice) } : {}), timestamp: now().toISOString() } });

export const publishLiquidations = (positions: { id: string; userId: string; ticker: string }[]) => {
  for (const p of positions) publish('markets', { type: 'perp_liquidation', data: { positionId: p.id, userId: p.userId, ticker: p.ticker } });
};
