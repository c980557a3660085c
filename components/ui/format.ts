/**
 * Display formatting shared by every domain: money (exact, signed, compact), percent changes,
 * counts, signs and dates. Decimal strings go straight into Intl.NumberFormat, which rounds the
 * decimal text itself; nothing is summed as a float here. Domain-only formats (probabilities and
 * cents, perp prices and funding, share prices and fee rates of pools) live beside their
 * components in markets/format.ts, perps/format.ts and pools/format.ts.
 */

/** Intl.NumberFormat accepts decimal strings (ES2023); TypeScript's ES2022 lib types only numbers. */
export type TStringFormat = (value: number | bigint | string) => string;

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signedMoney = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: 'exceptZero',
});
const compactMoney = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 });
const wholeMoney = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const percent2 = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });
const count = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** "$1,234.50" from "1234.5". */
export const formatMoney = (value: string | number) => (money.format as TStringFormat)(value);

/** "+$12.00" / "-$3.40" / "$0.00". */
export const formatSignedMoney = (value: string | number) => (signedMoney.format as TStringFormat)(value);

/** Volume, liquidity, open interest: "$12.3K", or "$950" below a thousand. */
export const formatCompactMoney = (value: number) => (Math.abs(value) >= 1000 ? compactMoney.format(value) : wholeMoney.format(value));

/** A change in percent points: "+1.23%" from 1.2345 (a ticker's or a pool's 24 h change). */
export const formatChangePercent = (percent: number) => percent2.format(percent / 100);

/**
 * What screen readers hear for a signed move: the direction word and the figure without its sign
 * ("Down 18.30%", never "Down +18.30%" or "Down -18.30%"), or "Unchanged".
 */
export const changeWords = (direction: -1 | 0 | 1, figure: string, suffix = '') =>
  direction === 0 ? `Unchanged${suffix}` : `${direction > 0 ? 'Up' : 'Down'} ${figure.trim().replace(/^[+\-\u2212]\s*/, '')}${suffix}`;

export const formatCount = (value: number) => (Math.abs(value) >= 10000 ? compact.format(value) : count.format(value));

/** The sign of a decimal string, read from its text. */
export const signOf = (value: string): -1 | 0 | 1 => (/^-/.test(value) ? -1 : /[1-9]/.test(value) ? 1 : 0);

const dateTime = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });
const dateOnly = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const monthYear = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });

export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
export const formatDate = (iso: string) => dateOnly.format(new Date(iso));
/** "Feb 19, 2027". */
export const formatShortDate = (iso: string) => shortDate.format(new Date(iso));
export const formatMonthYear = (iso: string) => monthYear.format(new Date(iso));

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
