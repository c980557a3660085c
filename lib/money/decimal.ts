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

export function dec(v: TDecimalInput): TDecimal {
  return new D(v);
}

/** Rounds to the stored money scale (half-even, so rounding has no bias). */
export function toMoney(v: TDecimalInput): TDecimal {
  return dec(v).toDecimalPlaces(MONEY_SCALE, D.ROUND_HALF_EVEN);
}

/** Canonical decimal string for the API: no exponent, no trailing zeros ("1000", "12.5"). */
export function toDecimalString(v: TDecimalInput): string {
  const s = dec(v).toFixed();
  return s === '-0' ? '0' : s;
}

/**
 * A JSON number for fields the specification types as number. A plain decimal string (what
 * PostgreSQL returns for numeric) goes straight to Number: both parse the same exact value to
 * the nearest double, as Decimal's toNumber does through its own string, without building one.
 */
export function toNumber(v: TDecimalInput): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && isDecimalString(v)) return Number(v);
  return dec(v).toNumber();
}

export function isDecimalString(s: string): boolean {
  return /^-?\d+(\.\d+)?$/.test(s);
}
