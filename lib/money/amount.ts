/**
 * Reading an amount from a request, once for every product: a finite positive decimal, within
 * [min, max] when given, cut (rounded down) to `scale` places. Anything else is the AppError
 * `code` (a 4xx, never a 500), with the provided value in its details. Pure, no I/O.
 */
import { AppError, type TErrorCode } from '@/lib/errors/app-error';
import { D, dec, MONEY_SCALE, type TDecimal, type TDecimalInput } from './decimal';

export type TAmountRule = {
  /** The error code of every refusal (INVALID_TRADE_SIZE for trades and deposits). */
  code: TErrorCode;
  /** How the messages name the amount: "Trade size", "Shares", "The amount". */
  label: string;
  /** Places kept, rounded down; money's 8 by default. */
  scale?: number;
  /** The smallest amount accepted, and the message refusing a smaller one. */
  min?: { value: TDecimalInput; message: string };
  /** The largest amount accepted, and the message refusing a larger one. */
  max?: { value: TDecimalInput; message: string };
};

/** The request's `x` as a decimal, or the rule's AppError. */
export function parseAmount(x: number | string, rule: TAmountRule): TDecimal {
  let a: TDecimal;
  try {
    a = dec(x);
  } catch {
    throw new AppError(rule.code, `${rule.label} must be a positive number`, { provided: x });
  }
  if (!a.isFinite() || a.lte(0)) throw new AppError(rule.code, `${rule.label} must be positive`, { provided: x });
  if (rule.min && a.lt(rule.min.value)) throw new AppError(rule.code, rule.min.message, { provided: x, minimum: dec(rule.min.value).toNumber() });
  if (rule.max && a.gt(rule.max.value)) throw new AppError(rule.code, rule.max.message, { provided: x, maximum: dec(rule.max.value).toNumber() });
  return a.toDecimalPlaces(rule.scale ?? MONEY_SCALE, D.ROUND_DOWN);
}
