import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '@/lib/money/decimal';
import { buyAmountToPrice, createPool, priceOf, quoteBuy, quoteSell, sellSharesToPrice, type TOutcome, type TPool } from './cpmm';

const arbPool = fc
  .tuple(fc.integer({ min: 100, max: 1_000_000 }), fc.integer({ min: 100, max: 1_000_000 }))
  .map(([y, n]): TPool => ({ yesReserve: dec(y), noReserve: dec(n) }));
const arbOutcome = fc.constantFrom<TOutcome>('YES', 'NO');
const arbStep = fc.double({ min: 0.001, max: 0.3, noNaN: true });

describe('sizing a trade to a target price', () => {
  it('example: 0.5 → 0.55 on a 1000/1000 pool takes about 105.6 net (other reserve 1000 → 1000·√(0.55/0.45))', () => {
    const amount = buyAmountToPrice(createPool(1000), 'YES', '0.55');
    expect(amount.toNumber()).toBeCloseTo(105.57 / 0.999, 1);
    const after = quoteBuy(createPool(1000), 'YES', amount).priceAfter.toNumber();
    expect(after).toBeLessThanOrEqual(0.55);
    expect(after).toBeGreaterThan(0.5499);
  });

  it('property: a buy of buyAmountToPrice lands at the target, never past it', () => {
    fc.assert(
      fc.property(arbPool, arbOutcome, arbStep, (pool, outcome, step) => {
        const before = priceOf(pool, outcome).toNumber();
        const target = Math.min(0.99, before + step);
        fc.pre(target > before + 1e-6);
        const amount = buyAmountToPrice(pool, outcome, target);
        fc.pre(amount.gte(1));
        const after = quoteBuy(pool, outcome, amount).priceAfter.toNumber();
        expect(after).toBeLessThanOrEqual(target + 1e-12);
        // Within the cent the amount is rounded to (and the fee's rounding).
        expect(quoteBuy(pool, outcome, amount.plus('0.02')).priceAfter.toNumber()).toBeGreaterThan(target - 1e-12);
      }),
    );
  });

  it('property: a sale of sellSharesToPrice lands at the target, never past it', () => {
    fc.assert(
      fc.property(arbPool, arbOutcome, arbStep, (pool, outcome, step) => {
        const before = priceOf(pool, outcome).toNumber();
        const target = Math.max(0.01, before - step);
        fc.pre(target < before - 1e-6);
        const shares = sellSharesToPrice(pool, outcome, target);
        fc.pre(shares.gt('0.001'));
        const after = quoteSell(pool, outcome, shares).priceAfter.toNumber();
        expect(after).toBeGreaterThanOrEqual(target - 1e-12);
        expect(after).toBeLessThan(target + 1e-6);
      }),
    );
  });

  it("example (CI's counterexample): the sale's payout rounded down to money does not leave the price past the target", () => {
    const pool: TPool = { yesReserve: dec(347), noReserve: dec(106) };
    const target = priceOf(pool, 'NO').toNumber() - 0.001;
    const after = quoteSell(pool, 'NO', sellSharesToPrice(pool, 'NO', target)).priceAfter.toNumber();
    expect(after).toBeGreaterThanOrEqual(target);
    expect(after).toBeLessThan(target + 1e-6);
  });

  it('nothing to trade when the price is already at or past the target; refuses targets outside (0, 1)', () => {
    const pool = createPool(1000);
    expect(buyAmountToPrice(pool, 'YES', '0.4').toNumber()).toBe(0);
    expect(sellSharesToPrice(pool, 'NO', '0.6').toNumber()).toBe(0);
    expect(() => buyAmountToPrice(pool, 'YES', 1)).toThrow();
    expect(() => sellSharesToPrice(pool, 'YES', 0)).toThrow();
  });
});
