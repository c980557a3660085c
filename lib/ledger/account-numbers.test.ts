/** The pure account numbers: the identities over random inputs, and worked examples. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '@/lib/money/decimal';
import { accountNumbersOf, CONTRIBUTION_TYPES, LEDGER_CLASS, PRODUCTS, roiOf } from './account-numbers';
import { TRANSACTION_TYPES } from './ledger';

const money = fc.integer({ min: -1_000_000_00, max: 1_000_000_00 }).map((c) => (c / 100).toFixed(2));
const positive = fc.integer({ min: 0, max: 1_000_000_00 }).map((c) => (c / 100).toFixed(2));
const product = fc.record({ flows: money, value: positive, cost: positive });
const account = fc.record({ cash: positive, contributions: positive, products: fc.record({ predictions: product, perps: product, pools: product }) });

describe('account numbers', () => {
  it('classifies every ledger type once; contributions are what is not a trading result', () => {
    expect(Object.keys(LEDGER_CLASS).sort()).toEqual([...TRANSACTION_TYPES].sort());
    expect([...CONTRIBUTION_TYPES].sort()).toEqual(['bonus', 'deposit', 'referral_fee', 'transfer_in', 'transfer_out', 'withdrawal']);
  });

  it('equity is cash plus every open value; P&L is realized plus unrealized', () => {
    fc.assert(
      fc.property(account, (a) => {
        const n = accountNumbersOf(a);
        const values = PRODUCTS.reduce((s, k) => s.plus(a.products[k].value), dec(0));
        expect(dec(n.equity).eq(dec(a.cash).plus(values))).toBe(true);
        expect(dec(n.pnl).eq(dec(n.equity).minus(a.contributions))).toBe(true);
        expect(dec(n.pnl).eq(dec(n.realizedPnL).plus(n.unrealizedPnL))).toBe(true);
        for (const k of PRODUCTS) {
          const p = n.products[k];
          expect(dec(p.pnl).eq(dec(p.realized).plus(p.unrealized))).toBe(true);
          expect(dec(p.unrealized).eq(dec(p.value).minus(p.costBasis))).toBe(true);
        }
      }),
    );
  });

  it('Σ products P&L is the total exactly when the cash is the contributions plus the products flows (the ledger chain)', () => {
    fc.assert(
      fc.property(positive, fc.record({ predictions: product, perps: product, pools: product }), (contributions, products) => {
        const cash = PRODUCTS.reduce((s, k) => s.plus(products[k].flows), dec(contributions));
        fc.pre(cash.gte(0));
        const n = accountNumbersOf({ cash: cash.toFixed(), contributions, products });
        expect(dec(n.pnl).eq(PRODUCTS.reduce((s, k) => s.plus(n.products[k].pnl), dec(0)))).toBe(true);
      }),
    );
  });

  it('a fresh account has no P&L; a buy at the price loses only its fee', () => {
    const none = { flows: '0', value: '0', cost: '0' };
    const fresh = accountNumbersOf({ cash: '1000', contributions: '1000', products: { predictions: none, perps: none, pools: none } });
    expect(fresh).toMatchObject({ equity: '1000', pnl: '0', roi: '0' });
    // 100 paid, 1 of it the fee: the shares are worth 99 at the price, their cost basis is 100.
    const bought = accountNumbersOf({ cash: '900', contributions: '1000', products: { predictions: { flows: '-100', value: '99', cost: '100' }, perps: none, pools: none } });
    expect(bought).toMatchObject({ equity: '999', pnl: '-1', unrealizedPnL: '-1', realizedPnL: '0', roi: '-0.001' });
  });

  it('ROI is P&L over contributions, 0 without any', () => {
    expect(roiOf('50', '1000').toFixed()).toBe('0.05');
    expect(roiOf('50', '0').toFixed()).toBe('0');
  });
});
