import { describe, expect, it } from 'vitest';
import { previewDeposit, previewWithdraw, sharesForFraction, toPoolChartSeries, type TPoolNavPoint } from './pools';

/** NAV 55,000 over 50,000 shares: a share is worth 1.1. */
const pool = { totalValue: 55_000, totalShares: 50_000, isActive: true, performanceFeeRate: 0.2 };
const lot = { remainingShares: 100, costBasis: 100, isSeed: false };

describe('previewDeposit', () => {
  it('prices the shares at the share price, as the server does', () => {
    expect(previewDeposit({ pool, amountText: '110', balance: '1000' })).toEqual({ state: 'ready', amount: '110', shares: '100', sharePrice: '1.1' });
  });

  it('says why a deposit cannot be made', () => {
    expect(previewDeposit({ pool, amountText: '' })).toEqual({ state: 'empty' });
    expect(previewDeposit({ pool, amountText: 'abc' })).toMatchObject({ state: 'invalid', reason: 'Enter a number, like 100 or 250.5.' });
    expect(previewDeposit({ pool, amountText: '0.5' })).toMatchObject({ state: 'invalid', reason: 'The minimum deposit is 1.' });
    expect(previewDeposit({ pool, amountText: '2000', balance: '1000' })).toMatchObject({ state: 'invalid', reason: "You don't have enough balance for this deposit." });
    expect(previewDeposit({ pool: { ...pool, isActive: false }, amountText: '10' })).toMatchObject({ state: 'invalid' });
  });
});

describe('previewWithdraw', () => {
  it('charges the fee on the withdrawn shares’ profit only: value − fee reaches the balance', () => {
    expect(previewWithdraw({ pool, lot, sharesText: '50' })).toEqual({
      state: 'ready',
      shares: '50',
      sharePrice: '1.1',
      value: '55',
      cost: '50',
      profit: '5',
      performanceFee: '1',
      net: '54',
      remainingShares: '50',
    });
  });

  it('charges nothing on a loss, nor on a manager’s seed lot', () => {
    const down = { ...pool, totalValue: 45_000 };
    expect(previewWithdraw({ pool: down, lot, sharesText: '100' })).toMatchObject({ state: 'ready', profit: '-10', performanceFee: '0', net: '90' });
    expect(previewWithdraw({ pool, lot: { ...lot, isSeed: true }, sharesText: '100' })).toMatchObject({ performanceFee: '0', net: '110' });
  });

  it('refuses more shares than the lot holds, and asks for a lot first', () => {
    expect(previewWithdraw({ pool, lot, sharesText: '100.01' })).toMatchObject({ state: 'invalid', reason: 'Not enough shares in this deposit.' });
    expect(previewWithdraw({ pool, lot, sharesText: '0' })).toMatchObject({ state: 'invalid', reason: 'Shares must be positive.' });
    expect(previewWithdraw({ pool, lot: undefined, sharesText: '1' })).toMatchObject({ state: 'invalid' });
  });
});

describe('sharesForFraction', () => {
  it('gives the whole lot exactly, and a part rounded down so it never exceeds the lot', () => {
    expect(sharesForFraction(99.123456789, 1)).toBe('99.123456789');
    expect(sharesForFraction(99.123456789, 0.5)).toBe('49.56172839');
    expect(sharesForFraction(3, 0.25)).toBe('0.75');
  });
});

describe('toPoolChartSeries', () => {
  const current = { totalValue: 51_000, sharePrice: 1.02, createdAt: '2026-01-01T00:00:00.000Z' };
  const now = Date.parse('2026-01-10T00:00:00.000Z') / 1000;

  it('reads times from the timestamps (unix seconds) and extends the line to now', () => {
    const points: TPoolNavPoint[] = [
      { timestamp: '2026-01-09T12:00:00.000Z', time: Date.parse('2026-01-09T12:00:00.000Z'), sharePrice: 1.01, totalValue: 50_500 },
      { timestamp: '2026-01-09T00:00:00.000Z', time: Date.parse('2026-01-09T00:00:00.000Z'), sharePrice: 1, totalValue: 50_000 },
    ];
    const series = toPoolChartSeries(points, current, '7d', now);
    expect(series.map((p) => p.time)).toEqual([now - 86_400, now - 43_200, now]);
    expect(series.at(-1)).toEqual({ time: now, totalValue: 51_000, sharePrice: 1.02 });
  });

  it('draws a range without points flat at the current figures', () => {
    expect(toPoolChartSeries([], current, '24h', now)).toEqual([
      { time: now - 86_400, totalValue: 51_000, sharePrice: 1.02 },
      { time: now, totalValue: 51_000, sharePrice: 1.02 },
    ]);
  });
});
