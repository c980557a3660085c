import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '@/lib/money/decimal';
import { liquidationPrice, quoteClose, quoteOpen, type TPerpSide } from './math';
import {
  closeSizeOf,
  firesWhenOf,
  isTriggered,
  ordersToFire,
  placementProblem,
  quoteLimit,
  quoteTriggerClose,
  type TFiresWhen,
  type TPerpOrderType,
} from './orders';

const arbSide = fc.constantFrom<TPerpSide>('long', 'short');
const arbType = fc.constantFrom<TPerpOrderType>('stop_loss', 'take_profit', 'limit');
const arbPrice = fc.integer({ min: 1_0000, max: 5000_0000 }).map((c) => dec(c).div(1e4));
const arbSize = fc.integer({ min: 1_00, max: 2_000_000_00 }).map((c) => dec(c).div(100));
const arbLeverage = fc.integer({ min: 1, max: 100 });

/** A freshly opened position (at `mark`, depth 5,000,000), optionally with some funding settled into it. */
const openPosition = (side: TPerpSide, size: ReturnType<typeof dec>, leverage: number, mark: ReturnType<typeof dec>, funding = dec(0)) => {
  const q = quoteOpen({ side, size, leverage, markPrice: mark, depth: 5_000_000 });
  return { side, size: q.size, units: q.units, entryPrice: q.entryPrice, margin: q.margin, collateral: q.margin.minus(funding), openFee: q.fee, fundingPaid: funding };
};

describe('which way an order fires', () => {
  it('protects a long below and takes its profit above; a short the mirror; a long limit buys below', () => {
    expect(firesWhenOf('stop_loss', 'long')).toBe('below');
    expect(firesWhenOf('take_profit', 'long')).toBe('above');
    expect(firesWhenOf('stop_loss', 'short')).toBe('above');
    expect(firesWhenOf('take_profit', 'short')).toBe('below');
    expect(firesWhenOf('limit', 'long')).toBe('below');
    expect(firesWhenOf('limit', 'short')).toBe('above');
  });

  it('fires at the price itself and beyond it, never short of it', () => {
    const below = { firesWhen: 'below' as const, triggerPrice: '95' };
    expect(isTriggered(below, '95')).toBe(true);
    expect(isTriggered(below, '94.99')).toBe(true);
    expect(isTriggered(below, '95.000000000000000001')).toBe(false);
    const above = { firesWhen: 'above' as const, triggerPrice: '105' };
    expect(isTriggered(above, '105')).toBe(true);
    expect(isTriggered(above, '104.999999')).toBe(false);
  });

  it('refuses a stop or take-profit that would fire at the current mark, never a limit order', () => {
    expect(placementProblem({ type: 'stop_loss', side: 'long', triggerPrice: '95' }, '100')).toBeNull();
    expect(placementProblem({ type: 'stop_loss', side: 'long', triggerPrice: '100' }, '100')).toMatch(/below the current mark \(100\)/);
    expect(placementProblem({ type: 'take_profit', side: 'long', triggerPrice: '99' }, '100')).toMatch(/above/);
    expect(placementProblem({ type: 'stop_loss', side: 'short', triggerPrice: '99' }, '100')).toMatch(/above/);
    expect(placementProblem({ type: 'take_profit', side: 'short', triggerPrice: '99' }, '100')).toBeNull();
    expect(placementProblem({ type: 'limit', side: 'long', triggerPrice: '120' }, '100')).toBeNull();
  });

  it('a stop that can be placed has not fired at the mark, and fires once the mark reaches its price (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom<TPerpOrderType>('stop_loss', 'take_profit'), arbSide, arbPrice, arbPrice, (type, side, trigger, mark) => {
        const firesWhen = firesWhenOf(type, side);
        const ok = placementProblem({ type, side, triggerPrice: trigger }, mark) === null;
        expect(ok).toBe(!isTriggered({ firesWhen, triggerPrice: trigger }, mark));
        expect(isTriggered({ firesWhen, triggerPrice: trigger }, trigger)).toBe(true);
      }),
    );
  });
});

describe('ordersToFire', () => {
  const order = (seq: number, type: TPerpOrderType, firesWhen: TFiresWhen, triggerPrice: string, markPrice = '100') => ({ seq, type, firesWhen, triggerPrice, markPrice });

  it('keeps what the mark fires, stops and take-profits first, then limit orders, oldest first', () => {
    const fired = ordersToFire([
      order(1, 'limit', 'below', '101'),
      order(2, 'stop_loss', 'below', '100'),
      order(3, 'take_profit', 'above', '99'),
      order(4, 'stop_loss', 'below', '99.5'),
      order(5, 'limit', 'above', '100.5'),
      order(0, 'stop_loss', 'above', '100'),
    ]);
    expect(fired.map((o) => o.seq)).toEqual([0, 2, 3, 1]);
  });

  it('fires exactly the triggered orders, every close before every open (property)', () => {
    const arbOrder = fc.record({
      seq: fc.integer({ min: 0, max: 1_000_000 }),
      type: arbType,
      firesWhen: fc.constantFrom<TFiresWhen>('below', 'above'),
      triggerPrice: arbPrice,
      markPrice: arbPrice,
    });
    fc.assert(
      fc.property(fc.array(arbOrder, { maxLength: 30 }), (orders) => {
        const fired = ordersToFire(orders);
        expect(fired.length).toBe(orders.filter((o) => isTriggered(o, o.markPrice)).length);
        const firstLimit = fired.findIndex((o) => o.type === 'limit');
        if (firstLimit >= 0) expect(fired.slice(firstLimit).every((o) => o.type === 'limit')).toBe(true);
      }),
    );
  });
});

describe('quoteTriggerClose', () => {
  it('closes the whole position without a size or with more than it holds, never more', () => {
    expect(closeSizeOf('1000', null)).toEqual({ whole: true, size: dec(1000) });
    expect(closeSizeOf('1000', '5000')).toEqual({ whole: true, size: dec(1000) });
    expect(closeSizeOf('1000', '1000')).toEqual({ whole: true, size: dec(1000) });
    expect(closeSizeOf('1000', '400')).toEqual({ whole: false, size: dec(400) });
  });

  it('a whole close at the mark is a close without impact (worked example)', () => {
    // A 10x long of 1,000 at 100.1 (README worked example), stopped out at 95.
    const p = { side: 'long' as const, size: '1000', units: '9.990009990009990009', entryPrice: '100.1', margin: '100', collateral: '100', openFee: '1', fundingPaid: '0' };
    const q = quoteTriggerClose(p, null, '95');
    expect(q.whole).toBe(true);
    expect(q.realizedPnL.toFixed()).toBe('-50.94905094'); // 9.99000999… × (95 − 100.1), truncated
    expect(q.fee.toFixed()).toBe('0.94905094'); // 0.1% of 9.99000999… × 95
    expect(q.closeCredit.toFixed()).toBe('48.10189812');
    expect(q.netPnL.toFixed()).toBe('-52.89810188');
    expect(q.remaining).toBeNull();
    // quoteClose with a depth so large the impact truncates to 0 fills at the mark: the same numbers.
    const ref = quoteClose(p, '95', '1e30');
    expect(ref.exitPrice.toFixed()).toBe('95');
    expect([q.realizedPnL, q.fee, q.closeCredit, q.fundingCredit, q.total, q.netPnL].map((d) => d.toFixed())).toEqual(
      [ref.realizedPnL, ref.fee, ref.closeCredit, ref.fundingCredit, ref.total, ref.netPnL].map((d) => d.toFixed()),
    );
  });

  it('a partial close takes its share of everything and leaves the rest open (worked example)', () => {
    const p = { side: 'short' as const, size: '1000', units: '10', entryPrice: '100', margin: '200', collateral: '199.5', openFee: '1', fundingPaid: '0.5' };
    const q = quoteTriggerClose(p, '250', '90');
    expect(q.whole).toBe(false);
    expect([q.units, q.margin, q.collateral, q.openFee, q.fundingPaid].map((d) => d.toFixed())).toEqual(['2.5', '50', '49.875', '0.25', '0.125']);
    expect(q.realizedPnL.toFixed()).toBe('25'); // a short, 2.5 units, 100 → 90
    expect(q.fee.toFixed()).toBe('0.225');
    expect(q.closeCredit.toFixed()).toBe('74.775');
    expect(q.total.toFixed()).toBe('74.65');
    expect(q.netPnL.toFixed()).toBe('24.4');
    expect(q.remaining).toMatchObject({ size: dec(750), units: dec('7.5'), margin: dec(150), collateral: dec('149.625'), openFee: dec('0.75'), fundingPaid: dec('0.375') });
    expect(q.remaining!.liquidationPrice.toFixed()).toBe(liquidationPrice({ side: 'short', entryPrice: '100', units: '7.5', collateral: '149.625' }).toFixed());
  });

  it('the part closed and the part left add up to the position, and the close pays max(0, collateral + PnL − fee) (property)', () => {
    fc.assert(
      fc.property(arbSide, arbSize, arbLeverage, arbPrice, arbPrice, fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: -500, max: 500 }), (side, size, leverage, mark, exit, share, fundingCents) => {
        const p = openPosition(side, size, leverage, mark, dec(fundingCents).div(100).times(dec(size).div(100_000)).toDecimalPlaces(8, 1));
        const orderSize = size.times(share).div(1_000_000).toDecimalPlaces(8, 1);
        const q = quoteTriggerClose(p, orderSize.lt(1) ? null : orderSize, exit);
        expect(q.closeSize.lte(p.size)).toBe(true);
        expect(q.units.lte(p.units)).toBe(true);
        expect(q.total.gte(0)).toBe(true);
        expect(q.closeCredit.gte(0)).toBe(true);
        expect(q.closeCredit.plus(q.fundingCredit).eq(q.total)).toBe(true);
        expect(q.netPnL.eq(q.total.minus(q.margin).minus(q.openFee))).toBe(true);
        if (q.remaining) {
          const r = q.remaining;
          expect(r.units.gt(0)).toBe(true);
          for (const [k, part] of [['size', q.closeSize], ['units', q.units], ['margin', q.margin], ['collateral', q.collateral], ['openFee', q.openFee], ['fundingPaid', q.fundingPaid]] as const) {
            expect(part.plus(r[k]).eq(dec(p[k])), k).toBe(true);
          }
        } else {
          expect([q.units, q.margin, q.collateral].map(String)).toEqual([p.units, p.margin, p.collateral].map(String));
        }
      }),
    );
  });

  it('closing in two steps pays what closing at once pays, to the truncation of a few units of 10⁻⁸, and leaves the liquidation price where it was (property)', () => {
    fc.assert(
      fc.property(arbSide, arbSize, arbLeverage, arbPrice, fc.integer({ min: -2, max: 4 }), fc.integer({ min: 10, max: 990 }), (side, size, leverage, mark, movePct, permille) => {
        const p = openPosition(side, size, leverage, mark);
        // An exit within a few percent of the entry, where neither close is floored at 0.
        const exit = p.entryPrice.times(dec(100).plus(side === 'long' ? movePct : -movePct)).div(100).toDecimalPlaces(18, 1);
        const once = quoteTriggerClose(p, null, exit);
        fc.pre(once.total.gt(0));
        const first = quoteTriggerClose(p, size.times(permille).div(1000).toDecimalPlaces(8, 1), exit);
        fc.pre(first.remaining !== null && first.remaining.size.gte(1));
        const rest = first.remaining!;
        const second = quoteTriggerClose({ side, ...rest, entryPrice: p.entryPrice }, null, exit);
        expect(first.total.plus(second.total).minus(once.total).abs().lte('0.00000005')).toBe(true);
        expect(first.netPnL.plus(second.netPnL).minus(once.netPnL).abs().lte('0.00000005')).toBe(true);
        const before = liquidationPrice({ side, entryPrice: p.entryPrice, units: p.units, collateral: p.collateral });
        expect(rest.liquidationPrice.minus(before).abs().lte(before.times('0.000001').plus('1e-9'))).toBe(true);
      }),
    );
  });
});

describe('quoteLimit', () => {
  it('reserves what the open charges, whatever the price, and opens at the price without impact', () => {
    const q = quoteLimit({ side: 'long', size: 1000, leverage: 10 }, '95');
    expect([q.margin, q.fee, q.reserve].map((d) => d.toFixed())).toEqual(['100', '1', '101']);
    expect(q.entryPrice.toFixed()).toBe('95');
    expect(q.units.toFixed()).toBe('10.52631578947368421');
    expect(q.liquidationPrice.toFixed()).toBe(liquidationPrice({ side: 'long', entryPrice: '95', units: q.units, collateral: '100' }).toFixed());
  });

  it("its reserve is the open's cost at any mark, and its position never holds more than its size (property)", () => {
    fc.assert(
      fc.property(arbSide, arbSize, arbLeverage, arbPrice, arbPrice, (side, size, leverage, price, mark) => {
        const q = quoteLimit({ side, size, leverage }, price);
        expect(q.reserve.eq(quoteOpen({ side, size, leverage, markPrice: mark, depth: 5_000_000 }).cost)).toBe(true);
        expect(q.units.times(q.entryPrice).lte(q.size)).toBe(true);
        if (side === 'long') expect(q.liquidationPrice.lt(q.entryPrice)).toBe(true);
        else expect(q.liquidationPrice.gt(q.entryPrice)).toBe(true);
      }),
    );
  });
});
