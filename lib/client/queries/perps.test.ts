import { describe, expect, it } from 'vitest';
import { withLiveRange, type TPerpTicker } from './perps';

const ticker = { ticker: 'NEXA', markPrice: 100, high24h: 110, low24h: 95 } as TPerpTicker;

describe('withLiveRange', () => {
  it('keeps a range that already brackets the mark', () => {
    expect(withLiveRange(ticker)).toMatchObject({ high24h: 110, low24h: 95 });
  });

  it('widens the range to a live mark outside it, on either side', () => {
    expect(withLiveRange({ ...ticker, markPrice: 90 })).toMatchObject({ high24h: 110, low24h: 90 });
    expect(withLiveRange({ ...ticker, markPrice: 120 })).toMatchObject({ high24h: 120, low24h: 95 });
  });
});
