'use client';

import { useState } from 'react';
import { cn } from '@/components/ui/cn';
import { ChartCard, GRID_LINES, LineChart, RANGE_WORDS } from '@/components/ui/line-chart';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { usePerpCandles, usePerpChartSeries, type THistoryRange, type TPerpCandle, type TPerpChartPoint, type TPerpTicker } from '@/lib/client/queries/perps';
import { CandleChart, describeCandles } from './candle-chart';
import { formatPrice } from './format';

type TChartKind = 'line' | 'candles';
const KINDS = [
  { value: 'line', label: 'Line' },
  { value: 'candles', label: 'Candles' },
] as const satisfies readonly { value: TChartKind; label: string }[];

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
const priceScale = (series: readonly TPerpChartPoint[]) => scaleOf(series.flatMap((p) => [p.mark, p.index]));

const scaleOf = (values: readonly number[]) => {
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

/** The ticker's price over a chosen range: mark and index lines, or mark candles (a Line/Candles toggle). */
export const PerpChart = ({ ticker }: { ticker: Pick<TPerpTicker, 'ticker' | 'markPrice' | 'indexPrice'> }) => {
  const [range, setRange] = useState<THistoryRange>('24h');
  const [kind, setKind] = useState<TChartKind>('line');
  const history = usePerpChartSeries(ticker, range);
  const candles = usePerpCandles(ticker.ticker, range, { enabled: kind === 'candles' });
  const series = history.series;
  const isUp = series ? series.at(-1)!.mark >= series[0]!.mark : true;
  const label = series
    ? `${ticker.ticker} mark price over ${RANGE_WORDS[range]}: from ${formatPrice(series[0]!.mark)} to ${formatPrice(series.at(-1)!.mark)}; index now ${formatPrice(series.at(-1)!.index)}`
    : '';
  const intervalSeconds = candles.data?.intervalSeconds ?? 3600;
  // One card for both kinds, so the toggle keeps its focus when the chart changes under it.
  const shown: { series: readonly (TPerpChartPoint | TPerpCandle)[] | null; isError: boolean; isFetching: boolean; refetch: () => unknown } =
    kind === 'line' ? history : { series: candles.data?.candles ?? null, isError: candles.isError, isFetching: candles.isFetching, refetch: candles.refetch };

  return (
    <ChartCard
      titleId="perp-chart-title"
      title="Price"
      legend={
        <div className="flex flex-wrap items-center gap-3">
          <SegmentedControl label="Chart type" value={kind} options={KINDS} onChange={setKind} size="sm" className="w-fit" />
          {kind === 'line' && (
            <p className="flex items-center gap-4 text-xs text-ink-muted" aria-hidden="true">
              <span className="inline-flex items-center gap-1.5">
                <span className={cn('inline-block h-0.5 w-4 rounded', isUp ? 'bg-up' : 'bg-down')} /> Mark
              </span>
              <span className="inline-flex items-center gap-1.5">
                <span className="inline-block w-4 border-t border-dashed border-ink-faint" /> Index
              </span>
            </p>
          )}
        </div>
      }
      range={range}
      ranges={RANGES}
      onRangeChange={setRange}
      history={shown}
    >
      {(points, size) => {
        if (kind === 'candles') {
          const list = points as readonly TPerpCandle[];
          return list.length === 0 ? (
            <p className="flex h-full items-center justify-center rounded-xl border border-dashed border-line-strong px-4 text-center text-sm text-ink-muted">
              No trades or price changes over {RANGE_WORDS[range]} yet.
            </p>
          ) : (
            <CandleChart
              candles={list}
              intervalSeconds={intervalSeconds}
              {...size}
              label={describeCandles(ticker.ticker, list, intervalSeconds, RANGE_WORDS[range])}
              formatAxis={scaleOf(list.flatMap((c) => [c.low, c.high])).formatAxis}
              axisWidth={76}
            />
          );
        }
        const line = points as readonly TPerpChartPoint[];
        // Mark (solid, with area) and index (dashed); a narrow chart's readout has room for the mark only.
        return (
          <LineChart
            series={line}
            {...size}
            label={label}
            value={mark}
            dashedValues={INDEX_LINES}
            {...priceScale(line)}
            axisWidth={76}
            formatHover={size.width < 480 ? formatMark : formatMarkAndIndex}
            hoverHalfWidth={size.width < 480 ? 75 : 140}
          />
        );
      }}
    </ChartCard>
  );
};
