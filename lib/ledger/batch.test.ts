/**
 * The ledger batch (batch.ts), pure: chains are exact and never go below zero, and a batch shared by
 * two writers that push out of time order still only admits debits its time-ordered chain can pay.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAppError } from '@/lib/errors/app-error';
import { dec, type TDecimal } from '@/lib/money/decimal';
import { chainBalanceChanges, LedgerBatch, type TBatchChange } from './batch';

const T0 = Date.UTC(2030, 0, 1);
const change = (userId: string, amount: string, minute: number): TBatchChange => ({ userId, amount, type: amount.startsWith('-') ? 'pred_buy' : 'pred_sell', description: 'test', at: new Date(T0 + minute * 60_000) });

describe('chainBalanceChanges', () => {
  it('chains each user’s rows from the start balance: after = before + amount, each before the previous after', () => {
    const { rows, totals } = chainBalanceChanges(new Map([['a', dec(100)], ['b', dec(5)]]), [change('a', '-30', 1), change('b', '2.5', 2), change('a', '10.123456789', 3)]);
    expect(rows.map((r) => [r.userId, r.balanceBefore, r.amount, r.balanceAfter])).toEqual([
      ['a', '100', '-30', '70'],
      ['b', '5', '2.5', '7.5'],
      ['a', '70', '10.12345679', '80.12345679'],
    ]);
    expect(totals.get('a')!.balance.toFixed()).toBe('80.12345679');
  });

  it('refuses the whole batch when one step would overdraw, naming what was required and available', () => {
    try {
      chainBalanceChanges(new Map([['a', dec(10)]]), [change('a', '5', 1), change('a', '-16', 2)]);
      expect.unreachable();
    } catch (e) {
      expect(isAppError(e) && e.code).toBe('INSUFFICIENT_BALANCE');
      expect(isAppError(e) && e.details).toEqual({ required: '16', available: '15' });
    }
  });

  it('property: final balance = start + the sum of the changes, and no row goes below zero', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5_000, max: 5_000 }).filter((x) => x !== 0), { maxLength: 60 }), (cents) => {
        const start = dec(100);
        let running = start;
        const admitted: TBatchChange[] = [];
        for (const [i, c] of cents.entries()) {
          const amount = dec(c).div(100);
          if (running.plus(amount).isNegative()) continue;
          running = running.plus(amount);
          admitted.push(change('a', amount.toFixed(), i));
        }
        const { rows, totals } = chainBalanceChanges(new Map([['a', start]]), admitted);
        expect(totals.get('a')?.balance.eq(running) ?? admitted.length === 0).toBe(true);
        for (const r of rows) expect(dec(r.balanceAfter).isNegative()).toBe(false);
      }),
    );
  });
});

describe('LedgerBatch', () => {
  it('answers the least balance from `at` on: a debit pushed later for an earlier time cannot starve a later one', () => {
    const batch = LedgerBatch.from(new Map([['a', dec(100)]]));
    // Writer 1 (predictions, its own time order): buys 80 at minute 10, sells for 50 at minute 20.
    batch.push(change('a', '-80', 10));
    batch.push(change('a', '50', 20));
    // Writer 2 (perps) asks at minute 5: 100 now, but minute 10's buy leaves only 20 of it.
    expect(batch.balanceOf('a', new Date(T0 + 5 * 60_000))!.toFixed()).toBe('20');
    // After the sale at minute 20 the chain has 70 and nothing later.
    expect(batch.balanceOf('a', new Date(T0 + 25 * 60_000))!.toFixed()).toBe('70');
    expect(batch.balanceOf('nobody', new Date(T0))).toBeUndefined();
    // Pushed in time order (one stepping loop), the answer is the running balance.
    batch.push(change('a', '-60', 30));
    expect(batch.balanceOf('a', new Date(T0 + 30 * 60_000))!.toFixed()).toBe('10');
    expect(() => batch.push(change('stranger', '1', 1))).toThrow(/not locked/);
  });

  it('property: debits admitted by balanceOf, pushed in any time order, chain without an overdraft', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: -3_000, max: 3_000 }).filter((x) => x !== 0)), { maxLength: 50 }), (items) => {
        const batch = LedgerBatch.from(new Map<string, TDecimal>([['a', dec(50)]]));
        for (const [minute, cents] of items) {
          const amount = dec(cents).div(100);
          const at = new Date(T0 + minute * 60_000);
          if (amount.isNegative() && batch.balanceOf('a', at)!.plus(amount).isNegative()) continue;
          batch.push(change('a', amount.toFixed(), minute));
        }
        const { rows } = chainBalanceChanges(new Map([['a', dec(50)]]), batch.ordered());
        for (const r of rows) expect(dec(r.balanceAfter).isNegative()).toBe(false);
      }),
    );
  });
});
