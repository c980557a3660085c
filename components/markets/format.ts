/**
 * Display formatting for markets: probabilities as percentages, share counts, price changes and
 * relative times. Display only: values are rounded for reading, never summed here.
 */

// Intl.NumberFormat accepts decimal strings (ES2023); TypeScript's ES2022 lib types only numbers.
type TStringFormat = (value: number | string) => string;

const percent0 = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 0 });
const percent1 = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const points = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const shares = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
const cents = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const compactMoney = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 });
const plainMoney = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** "28%" (cards) or "28.1%" (the market page) from 0.2814. */
export const formatProbability = (p: number | string, { isPrecise = false } = {}) =>
  ((isPrecise ? percent1 : percent0).format as TStringFormat)(p);

/** A price per share in cents: "28.1¢" from 0.2814. */
export const formatCents = (p: number | string) => `${cents.format(Number(p) * 100)}¢`;

/** "1,234.57" shares. */
export const formatShares = (value: number | string) => (shares.format as TStringFormat)(value);

/** A 24 h change of the YES probability in percentage points: "4.2 pts" (sign shown by the arrow). */
export const formatPoints = (change: number) => `${points.format(Math.abs(change) * 100)} pts`;

/** Volume: "$12.3K", or "$950" below a thousand. */
export const formatVolume = (value: number) => (Math.abs(value) >= 1000 ? compactMoney.format(value) : plainMoney.format(value));

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 31_536_000],
  ['month', 2_592_000],
  ['week', 604_800],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 minutes ago", "in 2 days"; "just now" within a minute. */
export const formatRelativeTime = (iso: string, nowMs = Date.now()) => {
  const seconds = (Date.parse(iso) - nowMs) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return 'just now';
};

const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** "Feb 19, 2027". */
export const formatShortDate = (iso: string) => shortDate.format(new Date(iso));
