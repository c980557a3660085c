import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec, type TDecimal } from '@/lib/money/decimal';
import { createPoolAt, priceOf, product, quoteBuy, quoteSell, type TOutcome } from '../cpmm';
import { canStillFill, isValidLimitPrice, matchBuy, matchSell, type TRestingOrder } from './match';

const order = (id: string, outcome: TOutcome, price: string, remaining: string, userId = `u-${id}`): TRestingOrder => ({
  id,
  userId,
  outcome,
  limitPrice: dec(price),
  remaining: dec(remaining),
});

describe('matchBuy, by example', () => {
  it('with an empty book and no limit is exactly the market buy', () => {
    const pool = createPoolAt(1000, 0.4);
    const m = matchBuy({ pool, outcome: 'YES', amount: dec(100), limit: null, takerId: 't', book: [] });
    const q = quoteBuy(pool, 'YES', 100);
    expect(m.fills).toHaveLength(1);
    expect(m.got.toFixed()).toBe(q.shares.toFixed());
    expect(m.used.toFixed()).toBe('100');
  });

  it('takes a resting NO order at 0.7 as YES at 0.3 before the maker at 0.5, minting exact pairs', () => {
    const pool = createPoolAt(1000, 0.5);
    const m = matchBuy({ pool, outcome: 'YES', amount: dec(30), limit: dec('0.35'), takerId: 't', book: [order('a', 'NO', '0.7', '14')] });
    const f = m.fills[0]!;
    expect(f.counterparty).toBe('order');
    if (f.counterparty !== 'order') return;
    expect(f.price.toFixed()).toBe('0.3');
    expect(f.shares.toFixed()).toBe('20');
    expect(f.amount.toFixed()).toBe('6');
    expect(f.orderAmount.toFixed()).toBe('14');
    // The rest: the maker stays at 0.5, above the limit: nothing more fills.
    expect(m.fills).toHaveLength(1);
    expect(m.used.toFixed()).toBe('6');
    expect(m.orderRemaining.get('a')!.toFixed()).toBe('0');
  });

  it('buys from the maker up to the price where the next order is better, then takes the order', () => {
    const pool = createPoolAt(1000, 0.5);
    const m = matchBuy({ pool, outcome: 'YES', amount: dec(200), limit: null, takerId: 't', book: [order('a', 'NO', '0.45', '10')] });
    expect(m.fills.map((f) => f.counterparty)).toEqual(['maker', 'order', 'maker']);
    expect(m.used.toFixed()).toBe('200');
  });

  it('never meets its own orders', () => {
    const pool = createPoolAt(1000, 0.5);
    const m = matchBuy({ pool, outcome: 'YES', amount: dec(10), limit: dec('0.4'), takerId: 'me', book: [order('a', 'NO', '0.7', '14', 'me')] });
    expect(m.fills).toEqual([]);
  });

  it('refuses limit prices outside 0.01 to 0.99 or finer than 4 places', () => {
    expect(isValidLimitPrice(dec('0.01'))).toBe(true);
    expect(isValidLimitPrice(dec('0.9999'))).toBe(false);
    expect(isValidLimitPrice(dec('0.12345'))).toBe(false);
    expect(isValidLimitPrice(dec('0.5555'))).toBe(true);
  });
});

describe('matchSell, by example', () => {
  it('sells to a resting YES order paying more than the maker, then to the maker', () => {
    const pool = createPoolAt(1000, 0.5);
    const m = matchSell({ pool, outcome: 'YES', shares: dec(50), takerId: 't', book: [order('a', 'YES', '0.6', '12')] });
    const f = m.fills[0]!;
    expect(f.counterparty).toBe('order');
    expect(f.shares.toFixed()).toBe('20');
    expect(f.amount.toFixed()).toBe('12');
    expect(m.fills[1]!.counterparty).toBe('maker');
    expect(m.used.toFixed()).toBe('50');
  });

  it('with an empty book is exactly the market sale', () => {
    const pool = createPoolAt(1000, 0.5);
    const m = matchSell({ pool, outcome: 'NO', shares: dec(40), takerId: 't', book: [] });
    expect(m.got.toFixed()).toBe(quoteSell(pool, 'NO', 40).proceeds.toFixed());
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over random books and takers.
// ---------------------------------------------------------------------------------------------

const arbPrice = fc.integer({ min: 100, max: 9900 }).map((n) => dec(n).div(10000));
const arbMoney = fc.integer({ min: 1, max: 50_000_00 }).map((n) => dec(n).div(100));
const arbOutcome = fc.constantFrom<TOutcome>('YES', 'NO');
const arbBook = fc.array(
  fc.record({ outcome: arbOutcome, price: arbPrice, remaining: arbMoney, self: fc.boolean() }),
  { maxLength: 12 },
);
const arbPool = fc.record({ liquidity: fc.integer({ min: 100, max: 100_000 }), p: fc.double({ min: 0.03, max: 0.97, noNaN: true }) });

const toBook = (raw: { outcome: TOutcome; price: TDecimal; remaining: TDecimal; self: boolean }[]) =>
  raw.map((r, i) => order(`o${i}`, r.outcome, r.price.toFixed(), r.remaining.toFixed(), r.self ? 'taker' : `u${i}`));

describe('matchBuy, properties', () => {
  it('never spends more than the amount, never fills worse than the limit, mints exact pairs, keeps the product', () => {
    fc.assert(
      fc.property(arbPool, arbOutcome, arbMoney, fc.option(arbPrice, { nil: null }), arbBook, (p, outcome, amount, limit, raw) => {
        const pool = createPoolAt(p.liquidity, p.p);
        const book = toBook(raw);
        const m = matchBuy({ pool, outcome, amount, limit, takerId: 'taker', book });
        expect(m.used.lte(amount)).toBe(true);
        let spent = dec(0);
        let shares = dec(0);
        for (const f of m.fills) {
          spent = spent.plus(f.amount);
          shares = shares.plus(f.shares);
          expect(f.shares.gt(0)).toBe(true);
          if (limit) expect(f.price.lte(limit), `fill at ${f.price} over limit ${limit}`).toBe(true);
          if (f.counterparty === 'order') {
            const o = book.find((b) => b.id === f.orderId)!;
            expect(o.userId).not.toBe('taker');
            expect(o.outcome).not.toBe(outcome);
            // The order pays exactly its limit; the two payments are exactly the pairs minted.
            expect(f.orderAmount.eq(f.shares.times(o.limitPrice))).toBe(true);
            expect(f.amount.plus(f.orderAmount).eq(f.shares)).toBe(true);
            expect(f.amount.decimalPlaces()).toBeLessThanOrEqual(8);
          } else {
            expect(f.amount.div(f.shares).eq(f.price)).toBe(true);
          }
        }
        expect(spent.eq(m.used)).toBe(true);
        expect(shares.eq(m.got)).toBe(true);
        for (const [id, left] of m.orderRemaining) {
          const o = book.find((b) => b.id === id)!;
          expect(left.gte(0) && left.lte(o.remaining)).toBe(true);
        }
        expect(product(m.pool).gte(product(pool))).toBe(true);
        const after = priceOf(m.pool, outcome);
        expect(after.gt(0) && after.lt(1)).toBe(true);
        // A limited buy leaves the maker at or under the limit.
        if (limit && !m.pool.yesReserve.eq(pool.yesReserve)) expect(after.lte(limit)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves no resting order of the other outcome that it could still have taken within its limit', () => {
    fc.assert(
      fc.property(arbPool, arbOutcome, arbMoney, arbPrice, arbBook, (p, outcome, amount, limit, raw) => {
        const book = toBook(raw);
        const m = matchBuy({ pool: createPoolAt(p.liquidity, p.p), outcome, amount, limit, takerId: 'taker', book });
        const rest = amount.minus(m.used);
        if (rest.lt(1)) return; // spent (nearly) all: nothing to check
        for (const o of book) {
          if (o.userId === 'taker' || o.outcome === outcome || dec(1).minus(o.limitPrice).gt(limit)) continue;
          const left = m.orderRemaining.get(o.id) ?? o.remaining;
          expect(canStillFill({ limitPrice: o.limitPrice, remaining: left }), `order ${o.id} left untaken`).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('matchSell, properties', () => {
  it('never sells more than it has, pays orders their limit exactly, keeps the product', () => {
    fc.assert(
      fc.property(arbPool, arbOutcome, fc.integer({ min: 1, max: 2000_0000 }).map((n) => dec(n).div(10000)), arbBook, (p, outcome, shares, raw) => {
        const pool = createPoolAt(p.liquidity, p.p);
        const book = toBook(raw);
        const m = matchSell({ pool, outcome, shares, takerId: 'taker', book });
        expect(m.used.lte(shares)).toBe(true);
        let sold = dec(0);
        for (const f of m.fills) {
          sold = sold.plus(f.shares);
          if (f.counterparty === 'order') {
            const o = book.find((b) => b.id === f.orderId)!;
            expect(o.outcome).toBe(outcome);
            expect(o.userId).not.toBe('taker');
            expect(f.price.eq(o.limitPrice)).toBe(true);
            expect(f.orderAmount.eq(f.shares.times(o.limitPrice))).toBe(true);
          }
        }
        expect(sold.eq(m.used)).toBe(true);
        expect(product(m.pool).gte(product(pool))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
