import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRealtimeEvent, realtimeUrl } from './events';

const frame = (type: string, data: unknown) => JSON.stringify({ type, data });

describe('parseRealtimeEvent', () => {
  it('reads each event type the UI handles', () => {
    const market = { marketId: 'm1', yesPrice: 0.6, noPrice: 0.4, yesShares: 400, noShares: 600, timestamp: '2026-01-01T00:00:00.000Z' };
    expect(parseRealtimeEvent(frame('market_update', market))).toEqual({ type: 'market_update', data: market });
    const post = { id: 'p1', content: 'hi', authorId: 'u1', timestamp: '2026-01-01T00:00:00.000Z' };
    expect(parseRealtimeEvent(frame('feed_update', { post }))).toEqual({ type: 'feed_update', data: { post } });
    const news = { id: 'n1', title: 'T', content: 'C', relatedQuestions: [3], timestamp: '2026-01-01T00:00:00.000Z' };
    expect(parseRealtimeEvent(frame('breaking_news', news))?.data).toEqual(news);
    expect(parseRealtimeEvent(frame('perp_update', { ticker: 'ABC', timestamp: 'x' }))?.data).toEqual({ ticker: 'ABC', timestamp: 'x' });
    const pool = { poolId: 'seed-pool-1', totalValue: 50100, sharePrice: 1.002, totalShares: 50000, timestamp: '2026-01-01T00:00:00.000Z' };
    expect(parseRealtimeEvent(frame('pool_update', pool))).toEqual({ type: 'pool_update', data: pool });
  });

  it('keeps a repost, which has no content but a repostId', () => {
    const post = { id: 'p1', repostId: 's1', authorId: 'u2', timestamp: '2026-01-01T00:00:00.000Z' };
    expect(parseRealtimeEvent(frame('feed_update', { post }))?.data).toEqual({ post });
  });

  it('drops frames that are not JSON, of unknown types, or missing fields', () => {
    expect(parseRealtimeEvent('not json')).toBeNull();
    expect(parseRealtimeEvent('null')).toBeNull();
    expect(parseRealtimeEvent(frame('toString', {}))).toBeNull();
    expect(parseRealtimeEvent(frame('something_else', {}))).toBeNull();
    expect(parseRealtimeEvent(frame('market_update', { marketId: 'm1', yesPrice: '0.5' }))).toBeNull();
    expect(parseRealtimeEvent(frame('pool_update', { poolId: 'p1', totalValue: '100', sharePrice: 1, totalShares: 100, timestamp: 'x' }))).toBeNull();
    expect(parseRealtimeEvent(frame('breaking_news', { id: 'n', title: 't', content: 'c', relatedQuestions: [1.5], timestamp: 'x' }))).toBeNull();
  });

  it('never throws, whatever arrives', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.record({ type: fc.constantFrom('feed_update', 'market_update', 'perp_update'), data: fc.anything() }).map((v) => JSON.stringify(v))), (text) => {
        const e = parseRealtimeEvent(text);
        expect(e === null || typeof e.type === 'string').toBe(true);
      }),
    );
  });
});

describe('realtimeUrl', () => {
  it('lists the channels and resumes from a last id when given', () => {
    expect(realtimeUrl(['feed', 'markets'])).toBe('/api/sse/events?channels=feed%2Cmarkets');
    expect(realtimeUrl(['feed'], '42:7')).toBe('/api/sse/events?channels=feed&lastEventId=42%3A7');
  });
});
