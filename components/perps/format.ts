/**
 * Display formatting for perpetual futures: prices, funding rates, leverage and the next funding
 * time. Display only: values are rounded for reading, never summed here.
 * Money (open interest and volume too), counts and dates: components/ui/format.ts.
 */
import { formatMoney, type TStringFormat } from '@/components/ui/format';

const priceSmall = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumSignificantDigits: 2, maximumSignificantDigits: 4 });
const funding = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 4, maximumFractionDigits: 4, signDisplay: 'exceptZero' });
const leverage = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** "$142.50"; prices under a dollar keep four significant digits ("$0.4213"). */
export const formatPrice = (value: number | string) => {
  const n = Number(value);
  return n !== 0 && Math.abs(n) < 1 ? (priceSmall.format as TStringFormat)(value) : formatMoney(value);
};

/** A funding rate per 8-hour period as a percentage: "+0.0100%" from 0.0001. */
export const formatFundingRate = (rate: number) => funding.format(rate);

const fundingYear = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });

/** The same rate a year long (the API's fundingRateAnnualized, rate × 3 × 365): "+10.95% APR" from 0.1095. */
export const formatFundingRateAnnualized = (annualized: number) => `${fundingYear.format(annualized)} APR`;

/** "5x", "12.5x". */
export const formatLeverage = (value: number | string) => `${(leverage.format as TStringFormat)(value)}x`;

const timeOfDay = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/** "4:00 PM (in 2 h 13 min)" for the next funding time. */
export const formatNextFunding = (iso: string, nowMs = Date.now()) => {
  const at = Date.parse(iso);
  const minutes = Math.max(0, Math.round((at - nowMs) / 60_000));
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const inWords = minutes === 0 ? 'now' : hours > 0 ? `in ${hours} h ${rest} min` : `in ${rest} min`;
  return `${timeOfDay.format(new Date(at))} (${inWords})`;
};
