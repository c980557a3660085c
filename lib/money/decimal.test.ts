import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec, toDecimalString, toMoney, toNumber } from './decimal';

describe('decimal', () => {
  it('adds without binary floating-point error', () => {
    expect(dec('0.1').plus('0.2').toFixed()).toBe('0.3');
    expect(toDecimalString('1000.00000000')).toBe('1000');
    expect(toDecimalString('-0')).toBe('0');
  });

  it('rounds money to 8 places half-even', () => {
    expect(toMoney('0.000000005').toFixed()).toBe('0');
    expect(toMoney('0.000000015').toFixed()).toBe('0.00000002');
  });

  it('property: summing cents as decimals equals the integer sum', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { maxLength: 50 }), (cents) => {
        const total = cents.reduce((acc, c) => acc.plus(dec(c).div(100)), dec(0));
        expect(total.times(100).toNumber()).toBe(cents.reduce((a, b) => a + b, 0));
      }),
    );
  });

  it('property: toNumber of a plain decimal string or a number is what Decimal gives', () => {
    const plain = fc
      .tuple(fc.boolean(), fc.stringMatching(/^\d{1,22}$/), fc.option(fc.stringMatching(/^\d{1,18}$/), { nil: undefined }))
      .map(([neg, int, frac]) => `${neg ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}`);
    fc.assert(
      fc.property(plain, (s) => {
        expect(Object.is(toNumber(s), dec(s).toNumber())).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.double(), (n) => {
        expect(Object.is(toNumber(n), dec(n).toNumber())).toBe(true);
      }),
    );
    expect(toNumber('1e3')).toBe(1000);
    expect(toNumber(dec('0.1').plus('0.2'))).toBe(0.3);
  });
});
