/**
 * Display formatting for money, counts and dates. Decimal strings go straight into
 * Intl.NumberFormat, which rounds the decimal text itself; nothing is summed as a float here.
 */

// Intl.NumberFormat accepts decimal strings (ES2023); TypeScript's ES2022 lib types only numbers.
type TStringFormat = (value: number | bigint | string) => string;

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signedMoney = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: 'exceptZero',
});
const count = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** "$1,234.50" from "1234.5". */
export const formatMoney = (value: string | number) => (money.format as TStringFormat)(value);

/** "+$12.00" / "-$3.40" / "$0.00". */
export const formatSignedMoney = (value: string | number) => (signedMoney.format as TStringFormat)(value);

export const formatCount = (value: number) => (Math.abs(value) >= 10000 ? compact.format(value) : count.format(value));

/** The sign of a decimal string, read from its text. */
export const signOf = (value: string): -1 | 0 | 1 => (/^-/.test(value) ? -1 : /[1-9]/.test(value) ? 1 : 0);

const dateTime = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });
const dateOnly = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
const monthYear = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });

export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
export const formatDate = (iso: string) => dateOnly.format(new Date(iso));
export const formatMonthYear = (iso: string) => monthYear.format(new Date(iso));
