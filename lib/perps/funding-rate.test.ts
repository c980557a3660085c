/**
 * Funding from crowding (issue 31): the rate of lib/perps/math fundingRate, examples and
 * properties, and what a period pays over a whole book through the funding index
 * (fundingIndexStep, accruedFunding: what payDueFunding moves and close and liquidation settle).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec, type TDecimal } from '@/lib/money/decimal';
import {
  accruedFunding,
  annualizedFundingRate,
  FUNDING_IMBALANCE_RATE,
  FUNDING_PREMIUM_CLAMP,
  FUNDING_RATE_CAP,
  fundingIndexStep,
  fundingRate,
  openInterestImbalance,
  type TPerpSide,
} from './math';

const arbPrice = fc.integer({ min: 1_0000, max: 5000_0000 }).map((c) => dec(c).div(1e4));
/** Open interest of one side: 0 to 100 million, 8 places (the listing's trunc(units × mark, 8)). */
const arbOi = fc.oneof(fc.constant(dec(0)), fc.bigInt({ min: 1n, max: 10n ** 16n }).map((c) => dec(c.toString()).div(1e8)));
/** A premium (mark/index − 1) in basis points of a basis point: −2% to +2%. */
const arbPremium = fc.integer({ min: -20_000, max: 20_000 }).map((c) => dec(c).div(1e6));
/** A premium inside the clamp, where it pays nothing. */
const arbQuietPremium = fc.integer({ min: -500, max: 500 }).map((c) => dec(c).div(1e6));
/** Units of one position: 6 places, up to 100,000. */
const arbUnits = fc.integer({ min: 1, max: 100_000_000_000 }).map((c) => dec(c).div(1e6));

const rateOf = (mark: TDecimal, index: TDecimal, long: TDecimal | number | string, short: TDecimal | number | string) =>
  fundingRate({ markPrice: mark, indexPrice: index, openInterestLong: long, openInterestShort: short });
const markAt = (index: TDecimal, premium: TDecimal) => index.times(premium.plus(1));

describe('funding rate examples', () => {
  it('a balanced book with the mark at the index pays nothing; an empty book neither', () => {
    expect(rateOf(dec(100), dec(100), 5000, 5000).toFixed()).toBe('0');
    expect(rateOf(dec(100), dec(100), 0, 0).toFixed()).toBe('0');
    // A crowding part below the 18th place truncates to zero, never to −0.
    const tiny = rateOf(dec(100), dec(100), '100000000', '100000000.00000001');
    expect(tiny.isZero()).toBe(true);
    expect(Object.is(tiny.toNumber(), -0)).toBe(false);
  });

  it('the crowded side pays: $8.0K long against $1.5K short makes longs pay shorts, 0.05% × 6.5/9.5', () => {
    const r = rateOf(dec(100), dec(100), 8000, 1500);
    expect(r.toFixed()).toBe('0.000342105263157894');
    expect(rateOf(dec(100), dec(100), 1500, 8000).toFixed()).toBe('-0.000342105263157894');
    // About 37.5% a year, quoted simple: × 3 × 365.
    expect(annualizedFundingRate(r).toFixed()).toBe('0.37460526315789393');
    // A one-sided book pays the whole crowding part.
    expect(rateOf(dec(100), dec(100), 1000, 0).toFixed()).toBe(FUNDING_IMBALANCE_RATE.toFixed());
    expect(rateOf(dec(100), dec(100), 0, 1000).toFixed()).toBe(FUNDING_IMBALANCE_RATE.negated().toFixed());
  });

  it('a premium counts only beyond ±0.05%, adds to the crowding, and the sum stays within ±0.1%', () => {
    expect(rateOf(dec('100.04'), dec(100), 5000, 5000).toFixed()).toBe('0');
    expect(rateOf(dec('99.95'), dec(100), 5000, 5000).toFixed()).toBe('0');
    expect(rateOf(dec('100.08'), dec(100), 5000, 5000).toFixed()).toBe('0.0003');
    expect(rateOf(dec('100.08'), dec(100), 8000, 1500).toFixed()).toBe('0.000642105263157894');
    // A discount against a long crowd: the longs still pay, less.
    expect(rateOf(dec('99.92'), dec(100), 8000, 1500).toFixed()).toBe('0.000042105263157894');
    expect(rateOf(dec(101), dec(100), 1000, 0).toFixed()).toBe(FUNDING_RATE_CAP.toFixed());
    expect(rateOf(dec(50), dec(100), 0, 1000).toFixed()).toBe(FUNDING_RATE_CAP.negated().toFixed());
    expect(annualizedFundingRate(FUNDING_RATE_CAP).toFixed()).toBe('1.095');
  });

  it('the imbalance is (L − S) / (L + S), 0 for an empty book', () => {
    expect(openInterestImbalance(3, 1).toFixed()).toBe('0.5');
    expect(openInterestImbalance(0, 0).toFixed()).toBe('0');
    expect(openInterestImbalance(0, 7).toFixed()).toBe('-1');
  });
});

describe('funding rate properties', () => {
  it('is bounded by the cap and, a premium set aside, by the crowding part', () => {
    fc.assert(
      fc.property(arbPrice, arbPremium, arbOi, arbOi, (index, premium, long, short) => {
        const r = rateOf(markAt(index, premium), index, long, short);
        expect(r.abs().lte(FUNDING_RATE_CAP)).toBe(true);
        if (premium.abs().lte(FUNDING_PREMIUM_CLAMP)) expect(r.abs().lte(FUNDING_IMBALANCE_RATE)).toBe(true);
      }),
    );
  });

  it('a balanced book with the premium inside the clamp pays exactly zero', () => {
    fc.assert(
      fc.property(arbPrice, arbQuietPremium, arbOi, (index, premium, oi) => {
        expect(rateOf(markAt(index, premium), index, oi, oi).isZero()).toBe(true);
      }),
    );
  });

  it('the crowded side pays: with a quiet premium the sign is the imbalance’s, and swapping the sides negates the rate', () => {
    fc.assert(
      fc.property(arbPrice, arbQuietPremium, arbOi, arbOi, (index, premium, long, short) => {
        const mark = markAt(index, premium);
        const r = rateOf(mark, index, long, short);
        const crowding = FUNDING_IMBALANCE_RATE.times(openInterestImbalance(long, short));
        if (long.gt(short)) expect(r.gte(0)).toBe(true);
        if (long.lt(short)) expect(r.lte(0)).toBe(true);
        // Zero only when the crowding part is below the rate's 18th place.
        if (!long.equals(short) && crowding.abs().gte('1e-18')) expect(r.isZero()).toBe(false);
        // Neither side is favoured: at the index, the mirrored book pays the mirrored rate.
        expect(rateOf(index, index, short, long).toFixed()).toBe(rateOf(index, index, long, short).negated().toFixed());
      }),
    );
  });

  it('is monotonic in the imbalance: more long interest never lowers the rate, more short never raises it', () => {
    fc.assert(
      fc.property(arbPrice, arbPremium, arbOi, arbOi, arbOi, (index, premium, long, short, more) => {
        const mark = markAt(index, premium);
        const r = rateOf(mark, index, long, short);
        expect(rateOf(mark, index, long.plus(more), short).gte(r)).toBe(true);
        expect(rateOf(mark, index, long, short.plus(more)).lte(r)).toBe(true);
      }),
    );
  });

  it('is monotonic in the premium too', () => {
    fc.assert(
      fc.property(arbPrice, arbPremium, arbPremium, arbOi, arbOi, (index, p1, p2, long, short) => {
        const [lo, hi] = p1.lte(p2) ? [p1, p2] : [p2, p1];
        expect(rateOf(markAt(index, lo), index, long, short).lte(rateOf(markAt(index, hi), index, long, short))).toBe(true);
      }),
    );
  });
});

/**
 * One period over a book, as the funding index settles it: the step trunc(mark × rate, 18) per
 * unit, each position's accrual ±trunc(units × step, 8). The house, counterparty of the book's
 * net position, receives what the traders pay in total (Σ accruals): with the house counted the
 * period is zero-sum exactly.
 */
const settle = (book: { side: TPerpSide; units: TDecimal }[], mark: TDecimal, index: TDecimal) => {
  const units = (side: TPerpSide) => book.filter((p) => p.side === side).reduce((a, p) => a.plus(p.units), dec(0));
  const longUnits = units('long');
  const shortUnits = units('short');
  const rate = rateOf(mark, index, longUnits.times(mark), shortUnits.times(mark));
  const step = fundingIndexStep(mark, rate);
  const entry = dec('12.345678901234567890');
  const payments = book.map((p) => accruedFunding(p.side, p.units, entry.plus(step), entry));
  const traders = payments.reduce((a, x) => a.plus(x), dec(0));
  return { rate, step, payments, traders, house: traders, net: longUnits.minus(shortUnits) };
};

/** Splits `total` into `parts` positive pieces of 6 places that sum to it exactly. */
const split = (total: TDecimal, weights: number[]) => {
  const sum = weights.reduce((a, w) => a + w, 0);
  const pieces = weights.slice(0, -1).map((w) => total.times(w).div(sum).toDecimalPlaces(6, 1));
  return [...pieces, total.minus(pieces.reduce((a, x) => a.plus(x), dec(0)))].filter((u) => u.gt(0));
};

const arbBook = fc.array(fc.tuple(fc.constantFrom<TPerpSide>('long', 'short'), arbUnits), { minLength: 1, maxLength: 30 });
const dust = (n: number) => dec(n).times('1e-8');

describe('a funding period over a book', () => {
  it('matched open interest: longs pay what shorts receive, to the truncation of each position (< 10⁻⁸)', () => {
    fc.assert(
      fc.property(
        arbPrice,
        arbPremium,
        fc.array(arbUnits, { minLength: 1, maxLength: 15 }),
        fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 15 }),
        (index, premium, longs, weights) => {
          const total = longs.reduce((a, u) => a.plus(u), dec(0));
          const book = [...longs.map((units) => ({ side: 'long' as const, units })), ...split(total, weights).map((units) => ({ side: 'short' as const, units }))];
          const mark = markAt(index, premium);
          const s = settle(book, mark, index);
          expect(s.net.isZero()).toBe(true);
          // The premium alone sets the rate: a balanced book pays only a premium beyond the clamp.
          if (premium.abs().lte(FUNDING_PREMIUM_CLAMP)) expect(s.rate.isZero()).toBe(true);
          expect(s.traders.abs().lte(dust(book.length))).toBe(true);
          // A long and a short of equal units pay and receive exactly the same.
          expect(accruedFunding('long', total, s.step, 0).plus(accruedFunding('short', total, s.step, 0)).isZero()).toBe(true);
        },
      ),
    );
  });

  it('unbalanced: each side pays or receives units × mark × rate and the house takes the net position’s share', () => {
    fc.assert(
      fc.property(arbPrice, arbPremium, arbBook, (index, premium, raw) => {
        const book = raw.map(([side, units]) => ({ side, units }));
        const mark = markAt(index, premium);
        const s = settle(book, mark, index);
        // The house's share is what a trader holding the net position on the other side would receive.
        expect(s.house.minus(s.net.times(s.step)).abs().lte(dust(book.length))).toBe(true);
        // Longs all pay when the rate is positive and shorts all receive, and the other way round.
        book.forEach((p, i) => {
          const paid = s.payments[i]!;
          if (s.rate.isZero()) expect(paid.isZero()).toBe(true);
          else expect(paid.isZero() || paid.isPositive() === ((p.side === 'long') === s.rate.isPositive())).toBe(true);
        });
      }),
    );
  });

  it('with a quiet premium the crowded side pays and the house, on the uncrowded side, never pays (beyond truncation)', () => {
    fc.assert(
      fc.property(arbPrice, arbQuietPremium, arbBook, (index, premium, raw) => {
        const book = raw.map(([side, units]) => ({ side, units }));
        const s = settle(book, markAt(index, premium), index);
        expect(s.net.times(s.step).gte(0)).toBe(true);
        expect(s.house.gte(dust(book.length).negated())).toBe(true);
        const crowded: TPerpSide | null = s.net.isPositive() ? 'long' : s.net.isNegative() ? 'short' : null;
        book.forEach((p, i) => {
          const paid = s.payments[i]!;
          if (crowded === null || p.side === crowded) expect(paid.gte(0)).toBe(true);
          else expect(paid.lte(0)).toBe(true);
        });
      }),
    );
  });
});
