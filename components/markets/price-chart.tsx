'use client';

import { useState } from 'react';
import { ChartCard, LineChart, RANGE_WORDS } from '@/components/ui/line-chart';
import { usePriceChartSeries, type TChartPoint, type THistoryRange, type TMarket } from '@/lib/client/queries/markets';
import { formatProbability } from './format';

const RANGES = [
  { value: '24h', label: '24h' },
  { value: '7d', label: '7d' },
  { value: '30d', label: '30d' },
  { value: 'all', label: 'All' },
] as const satisfies readonly { value: THistoryRange; label: string }[];

/** The YES line on a fixed 0–100% scale. */
const PROBABILITY_LINE = {
  value: (p: TChartPoint) => p.yesPrice,
  min: 0,
  max: 1,
  axisWidth: 44,
  formatAxis: (v: number) => `${Math.round(v * 100)}%`,
  formatHover: (p: TChartPoint) => formatProbability(p.yesPrice, { isPrecise: true }),
  hoverHalfWidth: 70,
};

/** The market's YES probability over a chosen range, with range buttons. */
export const PriceChart = ({ market }: { market: Pick<TMarket, 'id' | 'yesPrice' | 'createdDate'> }) => {
  const [range, setRange] = useState<THistoryRange>('7d');
  const history = usePriceChartSeries(market, range);
  const series = history.series;
  const label = series
    ? `YES probability over ${RANGE_WORDS[range]}: from ${formatProbability(series[0]!.yesPrice)} to ${formatProbability(series.at(-1)!.yesPrice)}`
    : '';

  return (
    <ChartCard titleId="chart-title" title="YES probability" range={range} ranges={RANGES} onRangeChange={setRange} history={history}>
      {(series, size) => <LineChart series={series} {...size} label={label} {...PROBABILITY_LINE} />}
    </ChartCard>
  );
};
