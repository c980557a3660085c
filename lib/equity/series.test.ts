/** P&L over time, pure: worked examples and properties over random series. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '@/lib/money/decimal';
import { maxDrawdownOf, rangeStartDay, summarizePnlSeries, type TPnlPoint } from './series';

const point = (equity: string, pnl: string, split: [string, string, string] | null = null, at = '2026-11-01T00:05:00.000Z'): TPnlPoint => ({
  at,
  equity,
  pnl,
  pnlPredictions: split ? split[0] : null,
  pnlPerps: split ? split[1] : null,
  pnlPools: split ? split[2] : null,
});

describe('rangeStartDay', () => {
  const now = new Date('2026-11-29T02:30:00Z');
  it('day is yesterday’s close, week and month count back, all has no start', () => {
    expect(rangeStartDay('day', now)).toBe('2026-11-28');
    expect(rangeStartDay('week', now)).toBe('2026-11-22');
    expect(rangeStartDay('month', now)).toBe('2026-10-30');
    expect(rangeStartDay('all', now)).toBeNull();
  });
});

describe('maxDrawdownOf', () => {
  it('is the largest fall from a running peak, as a fraction and an amount', () => {
    const dd = maxDrawdownOf(['1000', '1200', '900', '1100', '1300', '1170']);
    expect(dd.fraction.toFixed()).toBe('0.25'); // 1200 → 900
    expect(dd.amount.toFixed()).toBe('300');
  });
  it('is zero for a series that never falls, and for one point or none', () => {
    expect(maxDrawdownOf(['1', '2', '2', '5']).fraction.toFixed()).toBe('0');
    expect(maxDrawdownOf(['7']).amount.toFixed()).toBe('0');
    expect(maxDrawdownOf([]).fraction.toFixed()).toBe('0');
  });
  it('is the whole peak (1) when equity falls to nothing', () => {
    expect(maxDrawdownOf(['500', '0']).fraction.toFixed()).toBe('1');
  });
});

describe('summarizePnlSeries', () => {
  it('a range: the P&L since its first point, ROI on the equity then plus what came in since', () => {
    const s = summarizePnlSeries(
      [point('1000', '0', ['0', '0', '0']), point('1100', '50', ['30', '25', '-5']), point('1150', '100', ['60', '30', '10'])],
      { fromOrigin: false },
    );
    // Contributions: 1000 → 1050 (50 came in); base = 1000 + 50; pnl = 100.
    expect(s).toMatchObject({ pnl: '100', startEquity: '1000', endEquity: '1150', products: { predictions: '60', perps: '30', pools: '10' } });
    expect(s.roi).toBe(dec(100).div(1050).toDecimalPlaces(8).toFixed());
    expect(s.maxDrawdown).toEqual({ fraction: '0', amount: '0' });
  });

  it('all: the P&L and ROI since the account began, whatever the first point', () => {
    const s = summarizePnlSeries([point('1200', '200', ['100', '50', '50']), point('1100', '100', ['100', '0', '0'])], { fromOrigin: true });
    expect(s.pnl).toBe('100');
    expect(s.roi).toBe('0.1'); // 100 on contributions of 1000
    expect(s.products).toEqual({ predictions: '100', perps: '0', pools: '0' });
    expect(s.maxDrawdown.amount).toBe('100');
  });

  it('has no product split when an end has none (a close before the split was recorded)', () => {
    expect(summarizePnlSeries([point('1000', '0'), point('1000', '5', ['5', '0', '0'])], { fromOrigin: false }).products).toBeNull();
  });

  it('an empty series is all zero', () => {
    expect(summarizePnlSeries([], { fromOrigin: true })).toMatchObject({ pnl: '0', roi: '0', startEquity: '0', endEquity: '0' });
  });
});

// Cents, so the sums are exact decimals; equity is never below zero.
const cents = (min: number, max: number) => fc.integer({ min, max }).map((c) => dec(c).div(100).toFixed());
const splitPoint = fc.tuple(cents(0, 10_000_000), cents(-1_000_000, 1_000_000), cents(-1_000_000, 1_000_000), cents(-1_000_000, 1_000_000)).map(
  ([equity, a, b, c]) => point(equity, dec(a).plus(b).plus(c).toFixed(), [a, b, c]),
);
const series = fc.array(splitPoint, { minLength: 1, maxLength: 40 });

describe('properties', () => {
  it('drawdown is a fraction in [0, 1] and an amount never negative, never above the highest equity', () => {
    fc.assert(
      fc.property(series, (points) => {
        const dd = maxDrawdownOf(points.map((p) => p.equity));
        expect(dd.fraction.gte(0) && dd.fraction.lte(1)).toBe(true);
        expect(dd.amount.gte(0)).toBe(true);
        const peak = points.reduce((m, p) => (dec(p.equity).gt(m) ? dec(p.equity) : m), dec(0));
        expect(dd.amount.lte(peak)).toBe(true);
      }),
    );
  });

  it('the products sum to the P&L, per point and over the range, in either mode', () => {
    fc.assert(
      fc.property(series, fc.boolean(), (points, fromOrigin) => {
        for (const p of points) expect(dec(p.pnlPredictions!).plus(p.pnlPerps!).plus(p.pnlPools!).eq(p.pnl)).toBe(true);
        const s = summarizePnlSeries(points, { fromOrigin });
        expect(dec(s.products!.predictions).plus(s.products!.perps).plus(s.products!.pools).eq(s.pnl)).toBe(true);
        const first = points[0]!;
        const last = points[points.length - 1]!;
        expect(dec(s.pnl).eq(fromOrigin ? dec(last.pnl) : dec(last.pnl).minus(first.pnl))).toBe(true);
        expect(s.startEquity).toBe(dec(first.equity).toFixed());
        expect(s.endEquity).toBe(dec(last.equity).toFixed());
      }),
    );
  });

  it('a series that only rises has no drawdown', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 30 }), (steps) => {
        let e = 0;
        const equities = steps.map((s) => String((e += s)));
        expect(maxDrawdownOf(equities).fraction.isZero()).toBe(true);
      }),
    );
  });
});
