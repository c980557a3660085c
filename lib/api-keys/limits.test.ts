import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nextUtcDay, perCallBreach, utcDay } from './limits';

const caps = { maxOrderAmount: '50', dailyLimit: null, maxLeverage: '5' };

describe('API key caps (pure)', () => {
  it('lets a call at the cap through and refuses one above it, with the limit', () => {
    expect(perCallBreach(caps, { amount: 50 })).toBeNull();
    expect(perCallBreach(caps, { amount: '50.00000001' })).toEqual({ cap: 'maxOrderAmount', limit: '50', requested: '50.00000001' });
  });
  it('holds leverage to its cap, and a call without leverage is not held to it', () => {
    expect(perCallBreach(caps, { amount: 10, leverage: 5 })).toBeNull();
    expect(perCallBreach(caps, { amount: 10, leverage: '5.5' })).toMatchObject({ cap: 'maxLeverage', limit: '5', requested: '5.5' });
    expect(perCallBreach(caps, { amount: 10 })).toBeNull();
  });
  it('a key without caps refuses nothing', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e9, noNaN: true }), fc.double({ min: 1, max: 100, noNaN: true }), (amount, leverage) =>
        perCallBreach({ maxOrderAmount: null, dailyLimit: null, maxLeverage: null }, { amount, leverage }) === null,
      ),
    );
  });
  it('refuses exactly the amounts above the cap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (cents) => {
        const amount = (cents / 100).toFixed(2);
        return (perCallBreach(caps, { amount }) !== null) === cents > 5000;
      }),
    );
  });
  it('counts a day in UTC and frees it at the next midnight UTC', () => {
    const at = new Date('2026-11-28T23:59:59.999Z');
    expect(utcDay(at)).toBe('2026-11-28');
    expect(nextUtcDay(at).toISOString()).toBe('2026-11-29T00:00:00.000Z');
  });
});

describe('a perp claim', () => {
  it('commits its margin, notional / leverage', () => {
    expect(perCallBreach(caps, { notional: 250, leverage: 5 })).toBeNull();
    expect(perCallBreach(caps, { notional: 300, leverage: 5 })).toEqual({ cap: 'maxOrderAmount', limit: '50', requested: '60' });
  });
});
