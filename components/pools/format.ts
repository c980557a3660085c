/**
 * Display formatting for trading pools: share prices, share counts, performance-fee rates, and
 * the prices of what a manager holds (perp marks, prediction prices in cents, leverage).
 * Display only: values are rounded for reading, never summed here. Money, percent changes,
 * counts and dates: components/ui/format.ts.
 */
import type { TStringFormat } from '@/components/ui/format';

const sharePrice = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 4, maximumFractionDigits: 4 });
const shares = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
const rate = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const holdingPrice = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });
const cents = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const leverage = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const dayAndTime = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** A share price to four places, "$1.0234": a pool's share moves by hundredths of a cent. */
export const formatSharePrice = (value: number | string) => (sharePrice.format as TStringFormat)(value);

/** "97.561" shares (two to four places). */
export const formatPoolShares = (value: number | string) => (shares.format as TStringFormat)(value);

/** A performance-fee rate: "20%" from 0.2. */
export const formatFeeRate = (value: number) => rate.format(value);

/** A perp's entry or mark price: "$142.50", "$0.4213". */
export const formatHoldingPrice = (value: number) => holdingPrice.format(value);

/** A prediction price in cents: "28.1¢" from 0.2814. */
export const formatCents = (value: number) => `${cents.format(value * 100)}¢`;

/** "5x", "12.5x". */
export const formatLeverage = (value: number) => `${leverage.format(value)}x`;

/** When a lot was bought, short enough for a picker: "Nov 23, 8:51 PM". */
export const formatLotTime = (iso: string) => dayAndTime.format(new Date(iso));
