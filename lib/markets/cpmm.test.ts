import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '@/lib/money/decimal';
import {
  buyShares,
  createPool,
  createPoolAt,
  OPENING_PROBABILITY_BOUND,
  payoutFor,
  prices,
  product,
  quoteBuy,
  quoteSell,
  sellShares,
  splitFee,
  toPool,
  toPublic,
  type TOutcome,
  type TPool,
} from './cpmm';

const arbPool = fc
  .tuple(fc.integer({ min: 10, max: 1_000_000 }), fc.integer({ min: 10, max: 1_000_000 }))
  .map(([y, n]): TPool => ({ yesReserve: dec(y), noReserve: dec(n) }));
const arbOutcome = fc.constantFrom<TOutcome>('YES', 'NO');
const arbAmount = fc.integer({ min: 1_00000000, max: 50_000_00000000 }).map((u) => dec(u).div(1e8));

describe('cpmm examples', () => {
  it('maps the public weights to reserves (yesShares is the NO reserve)', () => {
    const pool = toPool({ yesShares: 600, noShares: 400 });
    expect(pool.noReserve.toFixed()).toBe('600');
    expect(prices(pool).yes.toFixed()).toBe('0.6');
    expect(toPublic(pool).yesShares.toFixed()).toBe('600');
  });

  it('worked example: 100 into YES of a 1000/1000 pool', () => {
    const { shares, pool } = buyShares(createPool(1000), 'YES', 100);
    // shares = 1000 + 100 − 1000·1000/1100 = 190.909090…
    expect(shares.toFixed(6, 1)).toBe('190.909090'); // rounded down
    expect(pool.yesReserve.toFixed(6)).toBe('909.090909');
    expect(pool.noReserve.toFixed()).toBe('1100');
    expect(prices(pool).yes.toFixed(4)).toBe('0.5475');
  });

  it('refuses empty pools and non-positive trades', () => {
    expect(() => createPool(0)).toThrow();
    expect(() => buyShares(createPool(10), 'YES', 0)).toThrow();
    expect(() => sellShares(createPool(10), 'NO', -1)).toThrow();
  });

  it('fees are 0.1%, half to a referrer when there is one', () => {
    expect(splitFee(100)).toMatchObject({ total: dec('0.1'), referrer: dec(0), platform: dec('0.1') });
    const withRef = splitFee(100, { payerId: 'trader', referrerId: 'referrer' });
    expect(withRef.referrer.toFixed()).toBe('0.05');
    expect(withRef.platform.plus(withRef.referrer).eq(withRef.total)).toBe(true);
  });

  it('resolution pays exactly the winning shares', () => {
    expect(payoutFor('YES', 'YES', '12.345678901234').toFixed()).toBe('12.3456789');
    expect(payoutFor('NO', 'YES', 50).toFixed()).toBe('0');
  });
});

describe('cpmm properties', () => {
  it('prices stay in (0,1) and sum to 1 after any trades', () => {
    fc.assert(
      fc.property(arbPool, fc.array(fc.tuple(arbOutcome, arbAmount), { maxLength: 10 }), (start, trades) => {
        let pool = start;
        for (const [o, a] of trades) pool = buyShares(pool, o, a).pool;
        const p = prices(pool);
        expect(p.yes.gt(0) && p.yes.lt(1)).toBe(true);
        expect(p.no.gt(0) && p.no.lt(1)).toBe(true);
        expect(p.yes.plus(p.no).eq(1)).toBe(true);
      }),
    );
  });

  it('the product is kept: never falls, and rises only by rounding dust', () => {
    fc.assert(
      fc.property(arbPool, arbOutcome, arbAmount, (pool, o, a) => {
        const k = product(pool);
        const after = buyShares(pool, o, a).pool;
        const k2 = product(after);
        expect(k2.gte(k)).toBe(true);
        expect(k2.minus(k).div(k).lt('1e-12')).toBe(true);
        const sold = sellShares(after, o, buyShares(pool, o, a).shares).pool;
        expect(product(sold).gte(k2.times(1 - 1e-15))).toBe(true);
      }),
    );
  });

  it('a buy raises the price of what was bought', () => {
    fc.assert(
      fc.property(arbPool, arbOutcome, arbAmount, (pool, o, a) => {
        const q = quoteBuy(pool, o, a);
        expect(q.priceAfter.gt(q.priceBefore)).toBe(true);
        // Before fees every share costs less than 1 (the fee can push a near-certain buy past 1).
        const netAvg = q.netAmount.div(q.shares);
        expect(netAvg.gt(0) && netAvg.lt(1)).toBe(true);
      }),
    );
  });

  it('buy then sell-all never returns more than was paid; fee-free it returns the amount to the cent', () => {
    fc.assert(
      fc.property(arbPool, arbOutcome, arbAmount, (pool, o, a) => {
        const bought = buyShares(pool, o, a);
        const back = sellShares(bought.pool, o, bought.shares);
        expect(back.amount.lte(a)).toBe(true);
        expect(a.minus(back.amount).lte('0.00000002')).toBe(true);
        const withFees = quoteBuy(pool, o, a);
        const sold = quoteSell(withFees.pool, o, withFees.shares);
        expect(sold.proceeds.lte(a)).toBe(true);
      }),
    );
  });

  it('splitting a buy in two gives the same shares as one buy', () => {
    fc.assert(
      fc.property(arbPool, arbOutcome, arbAmount, fc.double({ min: 0.01, max: 0.99, noNaN: true }), (pool, o, a, f) => {
        const first = a.times(f).toDecimalPlaces(8);
        const one = buyShares(pool, o, a);
        const p1 = buyShares(pool, o, first);
        const p2 = buyShares(p1.pool, o, a.minus(first));
        expect(p1.shares.plus(p2.shares).minus(one.shares).abs().lt('1e-9')).toBe(true);
      }),
    );
  });

  it('no round trip of trades makes money: selling everything back returns at most what was paid', () => {
    fc.assert(
      fc.property(arbPool, fc.array(fc.tuple(arbOutcome, arbAmount), { minLength: 1, maxLength: 6 }), (start, trades) => {
        let pool = start;
        let paid = dec(0);
        const held = { YES: dec(0), NO: dec(0) };
        for (const [o, a] of trades) {
          const q = quoteBuy(pool, o, a);
          pool = q.pool;
          paid = paid.plus(a);
          held[o] = held[o].plus(q.shares);
        }
        let got = dec(0);
        for (const o of ['YES', 'NO'] as const) {
          if (held[o].gt(0)) {
            const q = quoteSell(pool, o, held[o]);
            pool = q.pool;
            got = got.plus(q.proceeds);
          }
        }
        expect(got.lte(paid)).toBe(true);
      }),
    );
  });
});

describe('createPoolAt', () => {
  it('opens at the probability, as deep as a pool at 50 % (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.02, max: 0.98, noNaN: true }), fc.integer({ min: 100, max: 1_000_000 }), (p, l) => {
        const pool = createPoolAt(l, p);
        expect(Math.abs(prices(pool).yes.toNumber() - p)).toBeLessThan(1e-12);
        expect(product(pool).div(product(createPool(l))).minus(1).abs().toNumber()).toBeLessThan(1e-15);
      }),
    );
  });

  it('holds the opening within the bound', () => {
    expect(prices(createPoolAt(1000, 0)).yes.toNumber()).toBeCloseTo(OPENING_PROBABILITY_BOUND, 12);
    expect(prices(createPoolAt(1000, 1)).yes.toNumber()).toBeCloseTo(1 - OPENING_PROBABILITY_BOUND, 12);
    expect(prices(createPoolAt(1000, 0.5))).toEqual(prices(createPool(1000)));
  });
});
