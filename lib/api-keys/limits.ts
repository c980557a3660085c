/**
 * An API key's caps, pure (no I/O): whether one call fits a key's per-order amount and leverage
 * cap, and the UTC day its daily limit counts on. The daily limit itself is held in the database
 * (./caps.ts) so concurrent calls cannot both pass it.
 */
import { dec, toDecimalString, toMoney, type TDecimal } from '@/lib/money/decimal';
import type { TKeyCapsClaim } from '@/lib/contracts/endpoint';

export type TKeyCaps = { maxOrderAmount: string | null; dailyLimit: string | null; maxLeverage: string | null };

/** The refusal a call earns: which cap, its limit and what the call asked for. */
export type TCapBreach = { cap: 'maxOrderAmount' | 'maxLeverage'; limit: string; requested: string };

/** The currency a claim commits (0 when it names none), exact: a perp's margin is notional / leverage, to the cent's 8 places. */
export function claimAmount(claim: TKeyCapsClaim): TDecimal {
  if (claim.amount !== undefined) return dec(claim.amount);
  if (claim.notional !== undefined && claim.leverage !== undefined) return toMoney(dec(claim.notional).div(claim.leverage));
  return dec(0);
}

/** The per-call caps a claim breaks, if any (the daily limit is ./caps.ts's). */
export function perCallBreach(caps: TKeyCaps, claim: TKeyCapsClaim): TCapBreach | null {
  const amount = claimAmount(claim);
  if (caps.maxOrderAmount !== null && amount.gt(caps.maxOrderAmount)) {
    return { cap: 'maxOrderAmount', limit: toDecimalString(caps.maxOrderAmount), requested: toDecimalString(amount) };
  }
  if (caps.maxLeverage !== null && claim.leverage !== undefined && dec(claim.leverage).gt(caps.maxLeverage)) {
    return { cap: 'maxLeverage', limit: dec(caps.maxLeverage).toFixed(), requested: dec(claim.leverage).toFixed() };
  }
  return null;
}

/** The UTC day (YYYY-MM-DD) a call at `at` counts on. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** The start of the next UTC day after `at`: when a daily limit frees up. */
export function nextUtcDay(at: Date): Date {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
  return d;
}
