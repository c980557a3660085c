/**
 * Display formatting for markets: probabilities as percentages, prices in cents, share counts
 * and price changes in points. Display only: values are rounded for reading, never summed here.
 * Money, counts and dates: components/ui/format.ts.
 */
import type { TStringFormat } from '@/components/ui/format';

const percent0 = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 0 });
const percent1 = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const points = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const shares = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
const cents = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });

/** "28%" (cards) or "28.1%" (the market page) from 0.2814. */
export const formatProbability = (p: number | string, { isPrecise = false } = {}) =>
  ((isPrecise ? percent1 : percent0).format as TStringFormat)(p);

/** A price per share in cents: "28.1¢" from 0.2814. */
export const formatCents = (p: number | string) => `${cents.format(Number(p) * 100)}¢`;

/** "1,234.57" shares. */
export const formatShares = (value: number | string) => (shares.format as TStringFormat)(value);

/** A 24 h change of the YES probability in percentage points: "4.2 pts" (sign shown by the arrow). */
export const formatPoints = (change: number) => `${points.format(Math.abs(change) * 100)} pts`;
