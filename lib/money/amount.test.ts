import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors/app-error';
import { dec } from './decimal';
import { parseAmount, type TAmountRule } from './amount';

const rule: TAmountRule = { code: 'INVALID_TRADE_SIZE', label: 'Trade size', min: { value: 1, message: 'The minimum buy is 1' } };

const refusal = (x: number | string, r: TAmountRule = rule) => {
  try {
    parseAmount(x, r);
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, message: e.message, details: e.details };
    throw e;
  }
  throw new Error(`accepted ${String(x)}`);
};

describe('parseAmount: one reading of an amount from a request', () => {
  it('examples: accepts positive decimals, cut down to the scale', () => {
    expect(parseAmount('10.123456789', rule).toFixed()).toBe('10.12345678');
    expect(parseAmount(2, rule).toFixed()).toBe('2');
    expect(parseAmount('0.1234567890123456789', { code: 'INVALID_TRADE_SIZE', label: 'Shares', scale: 18 }).toFixed()).toBe('0.123456789012345678');
  });

  it('examples: refuses with the rule code, the same messages and details as the services did', () => {
    expect(refusal('abc')).toEqual({ code: 'INVALID_TRADE_SIZE', message: 'Trade size must be a positive number', details: { provided: 'abc' } });
    expect(refusal('NaN')).toEqual({ code: 'INVALID_TRADE_SIZE', message: 'Trade size must be positive', details: { provided: 'NaN' } });
    expect(refusal('Infinity')).toMatchObject({ message: 'Trade size must be positive' });
    expect(refusal(0)).toMatchObject({ message: 'Trade size must be positive' });
    expect(refusal(-5)).toMatchObject({ message: 'Trade size must be positive' });
    expect(refusal('0.5')).toEqual({ code: 'INVALID_TRADE_SIZE', message: 'The minimum buy is 1', details: { provided: '0.5', minimum: 1 } });
    const capped: TAmountRule = { code: 'VALIDATION_ERROR', label: 'The amount', max: { value: '100', message: 'At most 100' } };
    expect(refusal('100.5', capped)).toEqual({ code: 'VALIDATION_ERROR', message: 'At most 100', details: { provided: '100.5', maximum: 100 } });
    expect(parseAmount('100', capped).toFixed()).toBe('100');
  });

  it('property: an accepted amount lies in [min, max], is positive, and is the input cut down to the scale', () => {
    const r: TAmountRule = { code: 'INVALID_TRADE_SIZE', label: 'The amount', min: { value: '0.5', message: 'low' }, max: { value: '1000', message: 'high' } };
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }), fc.integer({ min: 0, max: 12 }), (units, places) => {
        const x = dec(units.toString()).div(dec(10).pow(places)).toFixed();
        const v = dec(x);
        if (v.lte(0) || v.lt('0.5') || v.gt(1000)) {
          expect(refusal(x, r).code).toBe('INVALID_TRADE_SIZE');
        } else {
          const a = parseAmount(x, r);
          expect(a.gt(0) && a.lte(v) && v.minus(a).lt('0.00000001')).toBe(true);
          expect(a.decimalPlaces()).toBeLessThanOrEqual(8);
        }
      }),
    );
  });
});
