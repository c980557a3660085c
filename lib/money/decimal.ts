/**
 * Exact decimal helpers. Money, shares and prices are decimal.js values in code and `numeric` in
 * the database; JavaScript numbers appear only at the API edge where the specification asks for
 * a JSON number. No I/O.
 */
import Decimal from 'decimal.js';

// 40 significant digits: far beyond numeric(30,8) balances, so intermediate results never round.
export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -30, toExpPos: 40 });
export type TDecimal = InstanceType<typeof D>;
export type TDecimalInput = TDecimal | string | number;

/** Money is stored with 8 decimal places. */
export const MONEY_SCALE = 8;

export const dec = (v: TDecimalInput): TDecimal => new D(v);

/** Rounds to the stored money scale (half-even, so rounding has no bias). */
export const toMoney = (v: TDecimalInput): TDecimal => dec(v).toDecimalPlaces(MONEY_SCALE, D.ROUND_HALF_EVEN);

/** Canonical decimal string for the API: no exponent, no trailing zeros ("1000", "12.5"). */
export const toDecimalString = (v: TDecimalInput): string => {
  const s = dec(v).toFixed();
  return s === '-0' ? '0' : s;
};

/** A JSON number for fields the specification types as number. */
export const toNumber = (v: TDecimalInput): number => dec(v).toNumber();

export const isDecimalString = (s: string): boolean => /^-?\d+(\.\d+)?$/.test(s);
