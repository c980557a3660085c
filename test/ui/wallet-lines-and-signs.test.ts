/**
 * Issue 35 rough edges, pure: every wallet trade line names its market, ticker or pool (buys
 * read "Bought YES in a prediction market" while sells named the question), and screen readers
 * hear a signed move once ("Down 18.30%", not "Down +18.30%").
 */
import { describe, expect, it } from 'vitest';
import { changeWords, formatChangePercent } from '@/components/ui/format';
import { describeLine, describeReference, type TTransactionReference } from '@/lib/ledger/queries';
import { LEDGER_CLASS } from '@/lib/ledger/account-numbers';

const none: TTransactionReference = { question: null, ticker: null, side: null, leverage: null, poolName: null };
const question = 'Will the line name this question?';
const market = { ...none, question };
const perp = { ...none, ticker: 'NEXA', side: 'long', leverage: '10' };
const pool = { ...none, poolName: 'Alpha Fund' };

/** What the services write today for each trade type, with the reference they write. */
const LINES: { type: string; description: string; referenceType: string; ref: TTransactionReference; names: string }[] = [
  { type: 'pred_buy', description: 'Bought YES in a prediction market', referenceType: 'market', ref: market, names: question },
  { type: 'pred_sell', description: `Sold YES in "${question}"`, referenceType: 'market', ref: market, names: question },
  { type: 'pred_payout', description: 'Payout: YES won', referenceType: 'market', ref: market, names: question },
  { type: 'perp_open', description: 'Opened a 10x long on NEXA', referenceType: 'perp_position', ref: perp, names: 'NEXA' },
  { type: 'perp_close', description: 'Closed a perpetual position', referenceType: 'perp_position', ref: perp, names: 'NEXA' },
  { type: 'funding_paid', description: 'Funding settled on close', referenceType: 'perp_position', ref: perp, names: 'NEXA' },
  { type: 'pool_deposit', description: 'Deposited into Alpha Fund', referenceType: 'pool', ref: pool, names: 'Alpha Fund' },
  { type: 'pool_withdraw', description: 'Withdrawal paid out', referenceType: 'pool', ref: pool, names: 'Alpha Fund' },
  {
    type: 'order_reserve',
    description: 'Reserved for a limit order',
    referenceType: 'prediction_order',
    ref: { ...none, orderMarketId: 'm1', orderQuestion: question },
    names: question,
  },
];

describe('wallet lines name their subject', () => {
  it('every trade line names its market question, ticker or pool', () => {
    for (const l of LINES) {
      expect(LEDGER_CLASS[l.type as keyof typeof LEDGER_CLASS], l.type).not.toBe('contribution');
      const { subject } = describeReference({ referenceType: l.referenceType, referenceId: 'x1' }, l.ref);
      expect(describeLine(l.description, subject, l.ref), l.type).toContain(l.names);
    }
  });

  it('a buy reads like a sell: the question in place of "a prediction market"', () => {
    expect(describeLine('Bought YES in a prediction market', question, market)).toBe(`Bought YES in "${question}"`);
  });

  it('keeps a line that already names its subject, and one without a subject, as written', () => {
    expect(describeLine(`Sold NO in "${question}"`, question, market)).toBe(`Sold NO in "${question}"`);
    expect(describeLine('Opened a 10x long on NEXA', 'NEXA long 10x', perp)).toBe('Opened a 10x long on NEXA');
    expect(describeLine('Test balance', null)).toBe('Test balance');
  });
});

describe('signed accessible text', () => {
  it('names the direction once and the figure without its sign', () => {
    expect(changeWords(-1, formatChangePercent(-18.3))).toBe('Down 18.30%');
    expect(changeWords(1, formatChangePercent(18.3))).toBe('Up 18.30%');
    // The figure as the old code passed it (the absolute value, still signed by the format).
    expect(changeWords(-1, formatChangePercent(Math.abs(-18.3)))).toBe('Down 18.30%');
    expect(changeWords(-1, '−$4.20', ' today')).toBe('Down $4.20 today');
    expect(changeWords(0, '0.00%', ' in 24 hours')).toBe('Unchanged in 24 hours');
  });
});

describe('the P&L chart’s accessible summary', () => {
  it('states the start, the end and the change, with the sign said once', async () => {
    const { pnlChartLabel } = await import('@/components/analytics/pnl-summary');
    expect(pnlChartLabel({ range: 'week', productLabel: 'Total', start: '10', end: '-8.3', change: '-18.3', roi: '-0.0183', maxDrawdown: '0.025' })).toBe(
      'Total P&L over the last 7 days: from +$10.00 to -$8.30, down $18.30. ROI -1.83%, max drawdown 2.50%.',
    );
    expect(pnlChartLabel({ range: 'all', productLabel: 'Perpetuals', start: '0', end: '5', change: '5', roi: '0.005', maxDrawdown: '0' })).toContain(
      'since the start: from $0.00 to +$5.00, up $5.00.',
    );
  });
});
