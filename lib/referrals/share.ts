/**
 * The referral rule, once for every product: the referrer earns half of a fee the referred player
 * pays (rounded down to the money scale, the rest stays with whoever collects the fee), and nobody
 * earns a share of their own fee. Pure (decimal.js, no I/O), shared with the browser's trade
 * preview through lib/markets/cpmm.ts; lib/referrals/sql.ts is its SQL twin for the perps close.
 */
import { D, dec, MONEY_SCALE, type TDecimal, type TDecimalInput } from '@/lib/money/decimal';

/** Who pays the fee, and the payer's referrer (users.referred_by_id) if any. */
export type TReferralParties = { payerId: string; referrerId?: string | null };

/** The referrer who earns a share of the payer's fees: none without one, none for oneself. */
export function referralEarner(parties: TReferralParties): string | null {
  const { payerId, referrerId } = parties;
  return referrerId && referrerId !== payerId ? referrerId : null;
}

/** The referrer's half of `fee` (rounded down to money) and the rest; share + rest = fee exactly. */
export function referralShare(fee: TDecimalInput, parties: TReferralParties): { share: TDecimal; rest: TDecimal } {
  const total = dec(fee);
  const share = referralEarner(parties) ? total.div(2).toDecimalPlaces(MONEY_SCALE, D.ROUND_DOWN) : dec(0);
  return { share, rest: total.minus(share) };
}
