/**
 * League figures as shown: scores, season returns and volatility (fractions from the API:
 * 0.05 is 5 %), and tier names. Display only; nothing is summed here.
 */
const score = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });
const signedPercent = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 2 });

/** "+12.34", "−3.10", "0.00". */
export const formatScore = (value: number) => score.format(value);

/** A season return: "+5.12%" from 0.0512. */
export const formatSeasonReturn = (fraction: number) => signedPercent.format(fraction);

/** A share or a volatility: "20%" from 0.2. */
export const formatShare = (fraction: number) => percent.format(fraction);

const dayRange = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * A season's days, "Nov 23 – Nov 29" (UTC, as the season calendar runs): the end is exclusive,
 * so the last day shown is the one before it.
 */
export const formatSeasonDays = (startsAt: string, endsAt: string) =>
  `${dayRange.format(new Date(startsAt))} – ${dayRange.format(new Date(Date.parse(endsAt) - 1))}`;
