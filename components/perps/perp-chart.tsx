'use client';

import { useState } from 'react';
import { cn } from '@/components/ui/cn';
import { ChartCard, GRID_LINES, LineChart, RANGE_WORDS } from '@/components/ui/line-chart';
import { usePerpChartSeries, type THistoryRange, type TPerpChartPoint, type TPerpTicker } from '@/lib/client/queries/perps';
import { formatPrice } from './format';

const RANGES = [
  { value: '1h', label: '1h' },
  { value: '24h', label: '24h' },
  { value: '7d', label: '7d' },
  { value: '30d', label: '30d' },
  { value: 'all', label: 'All' },
] as const satisfies readonly { value: THistoryRange; label: string }[];

/** Axis labels with enough decimals that neighbouring grid lines read differently. */
const axisFormatter = (step: number) => {
  const digits = Math.min(6, Math.max(2, Math.ceil(-Math.log10(step))));
  const f = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits });
  return (v: number) => f.format(v);
};

/** A price scale fitted to both the mark and the index line. */
const priceScale = (series: readonly TPerpChartPoint[]) => {
  const values = series.flatMap((p) => [p.mark, p.index]);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  // A flat line sits in the middle of a ±1% band rather than on the floor.
  const margin = hi === lo ? Math.max(Math.abs(hi) * 0.01, 0.01) : (hi - lo) * 0.08;
  const min = Math.max(0, lo - margin);
  const max = hi + margin;
  return { min, max, formatAxis: axisFormatter((max - min) / (GRID_LINES - 1)) };
};

const mark = (p: TPerpChartPoint) => p.mark;
const INDEX_LINES = [(p: TPerpChartPoint) => p.index];

const formatMark = (p: TPerpChartPoint) => formatPrice(p.mark);
const formatMarkAndIndex = (p: TPerpChartPoint) => `Mark ${formatPrice(p.mark)} · Index ${formatPrice(p.index)}`;

/** The ticker's mark and index prices over a chosen range, with range buttons and a legend. */
export const PerpChart = ({ ticker }: { ticker: Pick<TPerpTicker, 'ticker' | 'markPrice' | 'indexPrice'> }) => {
  const [range, setRange] = useState<THistoryRange>('24h');
  const history = usePerpChartSeries(ticker, range);
  const series = history.series;
  const isUp = series ? series.at(-1)!.mark >= series[0]!.mark : true;
  const label = series
    ? `${ticker.ticker} mark price over ${RANGE_WORDS[range]}: from ${formatPrice(series[0]!.mark)} to ${formatPrice(series.at(-1)!.mark)}; index now ${formatPrice(series.at(-1)!.index)}`
    : '';

  return (
    <ChartCard
      titleId="perp-chart-title"
      title="Price"
      legend={
        <p className="flex items-center gap-4 text-xs text-ink-muted" aria-hidden="true">
          <span className="inline-flex items-center gap-1.5">
            <span className={cn('inline-block h-0.5 w-4 rounded', isUp ? 'bg-up' : 'bg-down')} /> Mark
          </span>
          <span className="inline-flex items-center gap-1.5">
            <span className="inline-block w-4 border-t border-dashed border-ink-faint" /> Index
          </span>
        </p>
      }
      range={range}
      ranges={RANGES}
      onRangeChange={setRange}
      history={history}
    >
      {(series, size) => (
        // Mark (solid, with area) and index (dashed); a narrow chart's readout has room for the mark only.
        <LineChart
          series={series}
          {...size}
          label={label}
          value={mark}
          dashedValues={INDEX_LINES}
          {...priceScale(series)}
          axisWidth={76}
          formatHover={size.width < 480 ? formatMark : formatMarkAndIndex}
          hoverHalfWidth={size.width < 480 ? 75 : 140}
        />
      )}
    </ChartCard>
  );
};
