import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buyShares, prices, quoteBuy, createPool, type TOutcome } from '@/lib/markets/cpmm';
import { dec } from '@/lib/money/decimal';
import { freshMarketMove, GAME_QUESTION_LIQUIDITY } from './depth';
import { TRADE_AMOUNT } from './npc/plan';

describe('the depth of a game question', () => {
  it('a $200 buy at 50% moves the price at most 2 points; the largest NPC bet at most 5; a new player’s $1,000 under 10', () => {
    expect(freshMarketMove(GAME_QUESTION_LIQUIDITY, 200)).toBeGreaterThan(0);
    expect(freshMarketMove(GAME_QUESTION_LIQUIDITY, 200)).toBeLessThanOrEqual(0.02);
    expect(freshMarketMove(GAME_QUESTION_LIQUIDITY, TRADE_AMOUNT.max)).toBeLessThanOrEqual(0.05);
    expect(freshMarketMove(GAME_QUESTION_LIQUIDITY, 1000)).toBeLessThan(0.1);
    // The old depth (1,000 a side) moved the same $200 almost 10 points.
    expect(freshMarketMove(1000, 200)).toBeGreaterThan(0.09);
  });

  it('property: wherever trading has taken a question (10% to 90%), a $200 buy moves it at most 3 points', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.1, max: 0.9, noNaN: true }), fc.constantFrom<TOutcome>('YES', 'NO'), (p, side) => {
        // Walk a fresh pool to price p (buying the side that gets it there), then buy $200 of `side`.
        let pool = createPool(GAME_QUESTION_LIQUIDITY);
        const k = pool.yesReserve.times(pool.noReserve);
        const no = k.times(p).div(1 - p).sqrt();
        pool = { yesReserve: k.div(no), noReserve: no };
        expect(prices(pool).yes.toNumber()).toBeCloseTo(p, 9);
        const q = quoteBuy(pool, side, 200);
        expect(q.priceAfter.minus(q.priceBefore).toNumber()).toBeLessThanOrEqual(0.03);
        expect(buyShares(pool, side, dec(200)).shares.gt(0)).toBe(true);
      }),
    );
  });
});
