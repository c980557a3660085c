'use client';

import { useState } from 'react';
import { formatMoney } from '@/components/ui/format';
import { ChartCard, GRID_LINES, LineChart, RANGE_WORDS } from '@/components/ui/line-chart';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { usePoolChartSeries, type TPool, type TPoolChartPoint, type TPoolRange } from '@/lib/client/queries/pools';
import { formatSharePrice } from './format';

const RANGES = [
  { value: '24h', label: '24h' },
  { value: '7d', label: '7d' },
  { value: '30d', label: '30d' },
  { value: 'all', label: 'All' },
] as const satisfies readonly { value: TPoolRange; label: string }[];

type TMetric = 'totalValue' | 'sharePrice';

const METRICS = [
  { value: 'totalValue', label: 'NAV' },
  { value: 'sharePrice', label: 'Share price' },
] as const satisfies readonly { value: TMetric; label: string }[];

const METRIC_WORDS: Record<TMetric, string> = { totalValue: 'net asset value', sharePrice: 'share price' };

/** Axis labels with enough decimals that neighbouring grid lines read differently. */
const axisFormatter = (step: number) => {
  const digits = Math.min(6, Math.max(step >= 10 ? 0 : 2, Math.ceil(-Math.log10(step))));
  const f = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: step >= 1000 ? 'compact' : 'standard', minimumFractionDigits: digits, maximumFractionDigits: digits });
  return (v: number) => f.format(v);
};

/** A scale fitted to the line; a flat line sits in the middle of a ±1% band. */
const scaleOf = (values: readonly number[]) => {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const margin = hi === lo ? Math.max(Math.abs(hi) * 0.01, 0.01) : (hi - lo) * 0.08;
  const min = Math.max(0, lo - margin);
  const max = hi + margin;
  return { min, max, formatAxis: axisFormatter((max - min) / (GRID_LINES - 1)) };
};

const formatMetric = (metric: TMetric, v: number) => (metric === 'sharePrice' ? formatSharePrice(v) : formatMoney(v));

/** The pool's NAV (or its share price) over a chosen range, with range buttons. */
export const NavChart = ({ pool }: { pool: Pick<TPool, 'id' | 'name' | 'totalValue' | 'sharePrice' | 'createdAt'> }) => {
  const [range, setRange] = useState<TPoolRange>('7d');
  const [metric, setMetric] = useState<TMetric>('totalValue');
  const history = usePoolChartSeries(pool, range);
  const series = history.series;
  const value = (p: TPoolChartPoint) => p[metric];
  const label = series
    ? `${pool.name} ${METRIC_WORDS[metric]} over ${RANGE_WORDS[range]}: from ${formatMetric(metric, value(series[0]!))} to ${formatMetric(metric, value(series.at(-1)!))}`
    : '';

  return (
    <ChartCard
      titleId="pool-chart-title"
      title="Net asset value"
      legend={<SegmentedControl label="Chart value" value={metric} options={METRICS} onChange={setMetric} size="sm" className="w-56 whitespace-nowrap" />}
      range={range}
      ranges={RANGES}
      onRangeChange={setRange}
      history={history}
    >
      {(series, size) => (
        <LineChart
          series={series}
          {...size}
          label={label}
          value={value}
          {...scaleOf(series.map(value))}
          axisWidth={metric === 'sharePrice' ? 76 : 84}
          formatHover={(p) => (size.width < 480 ? formatMetric(metric, value(p)) : `NAV ${formatMoney(p.totalValue)} · Share ${formatSharePrice(p.sharePrice)}`)}
          hoverHalfWidth={size.width < 480 ? 75 : 150}
        />
      )}
    </ChartCard>
  );
};
