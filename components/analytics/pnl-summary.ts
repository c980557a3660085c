/**
 * The words of the P&L chart, pure: its accessible summary (start, end, change, ROI, drawdown)
 * and the ranges' and products' names. Figures are the server's exact decimal strings, formatted
 * here; nothing is summed as a float.
 */
import { changeWords, formatChangePercent, formatSignedMoney, signOf } from '@/components/ui/format';

export const PNL_RANGE_TABS = [
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
  { value: 'all', label: 'All' },
] as const;
export type TPnlRangeTab = (typeof PNL_RANGE_TABS)[number]['value'];

export const PNL_RANGE_WORDS: Record<TPnlRangeTab, string> = { day: 'since yesterday’s close', week: 'over the last 7 days', month: 'over the last 30 days', all: 'since the start' };

export const PNL_PRODUCTS = [
  { value: 'total', label: 'Total' },
  { value: 'predictions', label: 'Predictions' },
  { value: 'perps', label: 'Perpetuals' },
  { value: 'pools', label: 'Pools' },
] as const;
export type TPnlProduct = (typeof PNL_PRODUCTS)[number]['value'];

type TPoint = { pnl: string; pnlPredictions: string | null; pnlPerps: string | null; pnlPools: string | null };

/** The value of a point for the chosen product (null where the close has no split). */
export const productValue = (p: TPoint, product: TPnlProduct): string | null =>
  product === 'total' ? p.pnl : product === 'predictions' ? p.pnlPredictions : product === 'perps' ? p.pnlPerps : p.pnlPools;

/** A fraction ("0.0425") as a signed percent ("+4.25%"). */
export const formatFraction = (fraction: string) => formatChangePercent(Number(fraction) * 100);

/**
 * What the chart says to a screen reader: "Total P&L over the last 7 days: from +$10.00 to
 * +$35.50, up $25.50. ROI +2.55%, max drawdown 1.20%."
 */
export function pnlChartLabel(input: {
  range: TPnlRangeTab;
  productLabel: string;
  start: string;
  end: string;
  change: string;
  roi: string;
  maxDrawdown: string;
}): string {
  const change = changeWords(signOf(input.change), formatSignedMoney(input.change));
  const drawdown = formatChangePercent(Number(input.maxDrawdown) * 100).replace(/^[+-]/, '');
  return `${input.productLabel} P&L ${PNL_RANGE_WORDS[input.range]}: from ${formatSignedMoney(input.start)} to ${formatSignedMoney(input.end)}, ${change.charAt(0).toLowerCase()}${change.slice(1)}. ROI ${formatFraction(input.roi)}, max drawdown ${drawdown}.`;
}
