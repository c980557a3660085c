/**
 * An API key's caps, pure (no I/O): whether one call fits a key's per-order amount and leverage
 * cap, and the UTC day its daily limit counts on. The daily limit itself is held in the database
 * (./caps.ts) so concurrent calls cannot both pass it.
 */
import { dec, toDecimalString, toMoney, type TDecimal } from '@/lib/money/decimal';

export const API_KEY_SCOPES = ['read', 'trade', 'social'] as const;
export type TApiKeyScope = (typeof API_KEY_SCOPES)[number];
/** The most live (not revoked, not expired) keys a player may hold. */
export const MAX_LIVE_KEYS = 25;
/** A heartbeat's timeout, in seconds. */
export const HEARTBEAT_MIN_S = 5;
export const HEARTBEAT_MAX_S = 600;

/**
 * What one call commits, for an API key's caps: currency (a decimal string or number), or a perp's
 * notional whose margin (notional / leverage) is what it commits, and the leverage it uses.
 */
export type TKeyCapsClaim = { amount?: number | string; notional?: number | string; leverage?: number | string; dryRun?: boolean };

/** The claim of a money-moving body that names its currency as `amount` (a buy, an order, a deposit). */
export function amountClaim(b: { amount: number | string; dryRun?: boolean }): TKeyCapsClaim {
  return { amount: b.amount, dryRun: b.dryRun };
}

/** The claim of a perp that opens `size` of notional at `leverage` (its margin is what it commits). */
export function marginClaim(b: { size: number | string; leverage: number | string; dryRun?: boolean }): TKeyCapsClaim {
  return { notional: b.size, leverage: b.leverage, dryRun: b.dryRun };
}

/** A perp order's claim: a limit order commits its margin; a stop or take-profit commits nothing. */
export function perpOrderClaim(b: { type: string; size?: number | string; leverage?: number | string; dryRun?: boolean }): TKeyCapsClaim | null {
  return b.type === 'limit' && b.size !== undefined && b.leverage !== undefined ? marginClaim({ size: b.size, leverage: b.leverage, dryRun: b.dryRun }) : null;
}

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
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The start of the next UTC day after `at`: when a daily limit frees up. */
export function nextUtcDay(at: Date): Date {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
  return d;
}
