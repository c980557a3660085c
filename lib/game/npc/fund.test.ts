import { describe, expect, it } from 'vitest';
import { againstOwnFund, type TFundBook } from './fund';

const fund: TFundBook = { predictions: [{ marketId: 'm1', side: 'NO' }], perps: [{ ticker: 'HELX', side: 'short' }] };

describe('againstOwnFund', () => {
  it('refuses a personal trade on the other side of the fund', () => {
    expect(againstOwnFund(fund, { kind: 'prediction', marketId: 'm1', outcome: 'YES' })).toBe(true);
    expect(againstOwnFund(fund, { kind: 'perp', ticker: 'HELX', side: 'long' })).toBe(true);
  });

  it('allows the same side, other markets and tickers, and actors without a fund', () => {
    expect(againstOwnFund(fund, { kind: 'prediction', marketId: 'm1', outcome: 'NO' })).toBe(false);
    expect(againstOwnFund(fund, { kind: 'prediction', marketId: 'm2', outcome: 'YES' })).toBe(false);
    expect(againstOwnFund(fund, { kind: 'perp', ticker: 'HELX', side: 'short' })).toBe(false);
    expect(againstOwnFund(fund, { kind: 'perp', ticker: 'NEXA', side: 'long' })).toBe(false);
    expect(againstOwnFund(null, { kind: 'perp', ticker: 'HELX', side: 'long' })).toBe(false);
    expect(againstOwnFund({ predictions: [], perps: [] }, { kind: 'prediction', marketId: 'm1', outcome: 'YES' })).toBe(false);
  });
});
