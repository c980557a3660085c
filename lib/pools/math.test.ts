import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, dec, type TDecimal } from '@/lib/money/decimal';
import {
  depositProblem,
  navOf,
  planWithdrawByAmount,
  quoteDeposit,
  quoteWithdraw,
  sharePriceOf,
  withdrawProblem,
  type TPoolState,
} from './math';

/** Money amounts with up to 8 decimals, 1 to 1,000,000. */
const arbAmount = fc.integer({ min: 1_00000000, max: 1_000_000_00000000 }).map((u) => dec(u).div(1e8));
/** A pool that already has a seed: NAV 100 to 10,000,000 over 100 to 10,000,000 shares. */
const arbPool = fc
  .tuple(fc.integer({ min: 100_00, max: 10_000_000_00 }), fc.integer({ min: 100, max: 10_000_000 }))
  .map(([nav, shares]): TPoolState => ({ nav: dec(nav).div(100), totalShares: dec(shares) }));
const arbFee = fc.integer({ min: 0, max: 5000 }).map((bp) => dec(bp).div(10000));
/** A market move of the pool's value: −90% to +300%. */
const arbMove = fc.integer({ min: -90, max: 300 }).map((p) => dec(100 + p).div(100));

describe('pool accounting examples', () => {
  it('a deposit buys shares at NAV per share', () => {
    const q = quoteDeposit({ nav: 12000, totalShares: 10000 }, 600);
    expect(q.sharePrice.toFixed()).toBe('1.2');
    expect(q.shares.toFixed()).toBe('500');
    expect(q.navAfter.toFixed()).toBe('12600');
  });

  it('the first deposit of an empty pool buys at 1', () => {
    expect(quoteDeposit({ nav: 0, totalShares: 0 }, 5000).shares.toFixed()).toBe('5000');
  });

  it('a partial withdrawal at a gain pays the fee on the gain only', () => {
    // 500 shares bought for 600 (1.2 each); the price is now 1.5.
    const q = quoteWithdraw({ nav: 15000, totalShares: 10000 }, { shares: 500, costBasis: 600 }, 250, { feeRate: '0.2' });
    expect(q.value.toFixed()).toBe('375');
    expect(q.cost.toFixed()).toBe('300');
    expect(q.pnl.toFixed()).toBe('75');
    expect(q.performanceFee.toFixed()).toBe('15');
    expect(q.net.toFixed()).toBe('360');
    expect(q.remainingShares.toFixed()).toBe('250');
    expect(q.remainingCost.toFixed()).toBe('300');
  });

  it('a lot that lost money pays no fee', () => {
    const q = quoteWithdraw({ nav: 9000, totalShares: 10000 }, { shares: 500, costBasis: 600 }, 500, { feeRate: '0.2' });
    expect(q.pnl.toFixed()).toBe('-150');
    expect(q.performanceFee.toFixed()).toBe('0');
  });

  it('the manager pays no fee to itself', () => {
    const q = quoteWithdraw({ nav: 20000, totalShares: 10000 }, { shares: 100, costBasis: 100 }, 100, { feeRate: '0.2', isManager: true });
    expect(q.performanceFee.toFixed()).toBe('0');
  });

  it('refuses more shares than the lot holds and an emptied lot', () => {
    expect(withdrawProblem({ shares: 10, costBasis: 10 }, 11)).toMatch(/Not enough/);
    expect(withdrawProblem({ shares: 0, costBasis: 0 }, 1)).toMatch(/in full/);
    expect(withdrawProblem({ shares: 10, costBasis: 10 }, '10.0000000001')).toBeNull();
  });

  it('refuses deposits below the minimum and into a wiped-out pool', () => {
    expect(depositProblem({ nav: 100, totalShares: 100 }, '0.5')).toMatch(/minimum/);
    expect(depositProblem({ nav: 0, totalShares: 100 }, 10)).toMatch(/lost its value/);
    expect(depositProblem({ nav: 100, totalShares: 100 }, 10)).toBeNull();
  });

  it('values perps at equity (never below zero) and predictions at price', () => {
    const nav = navOf({
      cash: 1000,
      perps: [
        { collateral: 100, pricePnL: 25 },
        { collateral: 100, pricePnL: -150 },
      ],
      predictions: [{ shares: 200, price: '0.25' }],
    });
    expect(nav.toFixed()).toBe('1175');
  });

  it('plans an amount withdrawal oldest lot first', () => {
    const plan = planWithdrawByAmount({ nav: 2000, totalShares: 1000 }, [
      { id: 'a', shares: 30, costBasis: 30 },
      { id: 'b', shares: 100, costBasis: 100 },
    ], 100);
    expect(plan!.map((p) => [p.id, p.shares.toFixed()])).toEqual([
      ['a', '30'],
      ['b', '20'],
    ]);
    expect(planWithdrawByAmount({ nav: 2000, totalShares: 1000 }, [{ id: 'a', shares: 30, costBasis: 30 }], 100)).toBeNull();
  });

  it('takes a deposit\'s shares and a withdrawal\'s value exactly, whatever the digits (44 of them in the product here)', () => {
    // A counterexample the SQL property test met (lib/pools/pools-sql.int.test.ts): 40 digits of
    // amount × totalShares rounded the product and moved the 18th place of the shares.
    const amount = '6121123378.47889784';
    const totalShares = '45218047.697782433503904151';
    const nav = '1.00000011';
    // In integers: shares × 10^18 = floor(amount × 10^8 × totalShares × 10^18 / (nav × 10^8)).
    const exact = (6121123378_47889784n * 45218047_697782433503904151n) / 1_00000011n;
    const q = quoteDeposit({ nav, totalShares }, amount);
    expect(q.shares.times('1e18').toFixed()).toBe(exact.toString());
    // value × 10^8 = floor(shares × 10^18 × nav × 10^8 / (totalShares × 10^18)); cost rounds half-even.
    const w = quoteWithdraw({ nav: q.navAfter, totalShares: q.totalSharesAfter }, { shares: q.shares, costBasis: amount }, q.shares.div(3).toDecimalPlaces(18, D.ROUND_DOWN), { feeRate: 0 });
    const sh = BigInt(w.shares.times('1e18').toFixed());
    const navAfter = BigInt(q.navAfter.times('1e8').toFixed());
    const totalAfter = BigInt(q.totalSharesAfter.times('1e18').toFixed());
    expect(w.value.times('1e8').toFixed()).toBe(((sh * navAfter) / totalAfter).toString());
  });
});

describe('pool accounting properties', () => {
  it('a deposit never lowers the share price, and moves it by less than one share unit', () => {
    fc.assert(
      fc.property(arbPool, arbAmount, (pool, amount) => {
        const before = sharePriceOf(pool);
        const q = quoteDeposit(pool, amount);
        const after = sharePriceOf({ nav: q.navAfter, totalShares: q.totalSharesAfter });
        expect(after.gte(before)).toBe(true);
        // The rounding left in the pool is below 1e-18 shares at the share price.
        expect(after.minus(before).times(q.totalSharesAfter).lte(before.times('1e-18'))).toBe(true);
      }),
    );
  });

  it("the holders' values sum to NAV (within one money unit per holder, never above)", () => {
    fc.assert(
      fc.property(arbPool, fc.array(arbAmount, { minLength: 1, maxLength: 8 }), arbMove, (seed, deposits, move) => {
        let state = { nav: dec(seed.nav), totalShares: dec(seed.totalShares) };
        const holdings: TDecimal[] = [dec(seed.totalShares)];
        for (const a of deposits) {
          const q = quoteDeposit(state, a);
          holdings.push(q.shares);
          state = { nav: q.navAfter, totalShares: q.totalSharesAfter };
        }
        const moved = { nav: state.nav.times(move).toDecimalPlaces(8, D.ROUND_DOWN), totalShares: state.totalShares };
        const values = holdings.map((s) => quoteWithdraw(moved, { shares: s, costBasis: 1 }, s, { feeRate: 0 }).value);
        const sum = values.reduce((a, b) => a.plus(b), dec(0));
        expect(sum.lte(moved.nav)).toBe(true);
        expect(moved.nav.minus(sum).lte(dec('0.00000001').times(holdings.length))).toBe(true);
      }),
    );
  });

  it('the fee is never charged on a loss, and is at most rate × gain', () => {
    fc.assert(
      fc.property(arbPool, arbAmount, arbMove, arbFee, fc.integer({ min: 1, max: 100 }), (pool, amount, move, rate, pct) => {
        const d = quoteDeposit(pool, amount);
        const moved = { nav: d.navAfter.times(move).toDecimalPlaces(8, D.ROUND_DOWN), totalShares: d.totalSharesAfter };
        const shares = d.shares.times(pct).div(100);
        const w = quoteWithdraw(moved, { shares: d.shares, costBasis: d.amount }, shares, { feeRate: rate });
        if (w.pnl.lte(0)) expect(w.performanceFee.isZero()).toBe(true);
        expect(w.performanceFee.lte(D.max(0, w.pnl).times(rate))).toBe(true);
        expect(w.performanceFee.gte(0)).toBe(true);
      }),
    );
  });

  it('a lot never pays twice for one gain: withdrawing in parts pays what withdrawing at once pays', () => {
    fc.assert(
      fc.property(arbPool, arbAmount, arbMove, arbFee, fc.array(fc.integer({ min: 1, max: 99 }), { minLength: 1, maxLength: 5 }), (pool, amount, move, rate, cuts) => {
        const d = quoteDeposit(pool, amount);
        const moved = { nav: d.navAfter.times(move).toDecimalPlaces(8, D.ROUND_DOWN), totalShares: d.totalSharesAfter };
        const once = quoteWithdraw(moved, { shares: d.shares, costBasis: d.amount }, d.shares, { feeRate: rate });
        let lot = { shares: d.shares, costBasis: d.amount };
        let state = moved;
        let fees = dec(0);
        for (const c of [...cuts, 100]) {
          const s = c === 100 ? lot.shares : lot.shares.times(c).div(100).toDecimalPlaces(18, D.ROUND_DOWN);
          if (s.lte(0)) continue;
          const w = quoteWithdraw(state, lot, s, { feeRate: rate });
          fees = fees.plus(w.performanceFee);
          lot = { shares: w.remainingShares, costBasis: w.remainingCost };
          state = { nav: w.navAfter, totalShares: w.totalSharesAfter };
          if (lot.shares.lte(0)) break;
        }
        // Parts round down each time: never more than at once, and never less by over a cent per part.
        expect(fees.lte(once.performanceFee.plus(dec('0.00000001').times(cuts.length + 1)))).toBe(true);
        expect(once.performanceFee.minus(fees).lte(dec('0.0000001').times(cuts.length + 2))).toBe(true);
      }),
    );
  });

  it('no sequence of deposits and withdrawals creates money', () => {
    const arbOp = fc.oneof(
      fc.record({ kind: fc.constant<'deposit'>('deposit'), amount: arbAmount }),
      fc.record({ kind: fc.constant<'withdraw'>('withdraw'), pct: fc.integer({ min: 1, max: 100 }) }),
    );
    fc.assert(
      fc.property(arbPool, fc.array(arbOp, { minLength: 1, maxLength: 20 }), arbFee, (seed, ops, rate) => {
        let state = { nav: dec(seed.nav), totalShares: dec(seed.totalShares) };
        const lots: { shares: TDecimal; costBasis: TDecimal }[] = [];
        let paidIn = dec(0);
        let paidOut = dec(0);
        for (const op of ops) {
          if (op.kind === 'deposit') {
            const q = quoteDeposit(state, op.amount);
            lots.push({ shares: q.shares, costBasis: q.amount });
            paidIn = paidIn.plus(q.amount);
            state = { nav: q.navAfter, totalShares: q.totalSharesAfter };
          } else {
            const lot = lots.find((l) => l.shares.gt(0));
            if (!lot) continue;
            const s = lot.shares.times(op.pct).div(100).toDecimalPlaces(18, D.ROUND_DOWN);
            if (s.lte(0)) continue;
            const w = quoteWithdraw(state, lot, s, { feeRate: rate });
            // The fee goes to the manager: it leaves the pool too.
            paidOut = paidOut.plus(w.value);
            lot.shares = w.remainingShares;
            lot.costBasis = w.remainingCost;
            state = { nav: w.navAfter, totalShares: w.totalSharesAfter };
          }
          expect(state.nav.gte(0)).toBe(true);
        }
        // Prices did not move: the depositors take out at most what they put in.
        expect(paidOut.lte(paidIn)).toBe(true);
        // And the seed holders' share price never fell.
        expect(sharePriceOf(state).gte(sharePriceOf(seed))).toBe(true);
      }),
    );
  });
});
