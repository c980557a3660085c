'use client';

import { useId, useState, type PointerEvent } from 'react';
import { useWidth } from '@/components/markets/price-chart';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { Skeleton } from '@/components/ui/skeleton';
import { usePerpChartSeries, type THistoryRange, type TPerpChartPoint, type TPerpTicker } from '@/lib/client/queries/perps';
import { formatPrice } from './format';

const RANGES = [
  { value: '1h', label: '1h' },
  { value: '24h', label: '24h' },
  { value: '7d', label: '7d' },
  { value: '30d', label: '30d' },
  { value: 'all', label: 'All' },
] as const satisfies readonly { value: THistoryRange; label: string }[];

const RANGE_WORDS: Record<THistoryRange, string> = { '1h': 'the last hour', '24h': 'the last 24 hours', '7d': 'the last 7 days', '30d': 'the last 30 days', all: 'all time' };

const GRID = [0, 0.25, 0.5, 0.75, 1];
const PAD = { top: 12, right: 76, bottom: 26, left: 4 };

const timeOfDay = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const full = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** Axis labels with enough decimals that neighbouring grid lines read differently. */
const axisFormatter = (step: number) => {
  const digits = Math.min(6, Math.max(2, Math.ceil(-Math.log10(step))));
  const f = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits });
  return (v: number) => f.format(v);
};

/** A step line through the points (prices only move at trades, ticks and admin changes). */
const stepPath = (series: TPerpChartPoint[], x: (t: number) => number, y: (p: number) => number, pick: (p: TPerpChartPoint) => number) => {
  let d = `M${x(series[0]!.time).toFixed(1)},${y(pick(series[0]!)).toFixed(1)}`;
  for (const p of series.slice(1)) d += ` H${x(p.time).toFixed(1)} V${y(pick(p)).toFixed(1)}`;
  return d;
};

/** Mark (solid, with area) and index (dashed) on a price scale fitted to both lines. */
const LineChart = ({ series, width, height, label }: { series: TPerpChartPoint[]; width: number; height: number; label: string }) => {
  const gradientId = useId();
  const [hover, setHover] = useState<number | null>(null);
  const t0 = series[0]!.time;
  const t1 = Math.max(series.at(-1)!.time, t0 + 1);
  const values = series.flatMap((p) => [p.mark, p.index]);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  // A flat line sits in the middle of a ±1% band rather than on the floor.
  const margin = hi === lo ? Math.max(Math.abs(hi) * 0.01, 0.01) : (hi - lo) * 0.08;
  const min = Math.max(0, lo - margin);
  const max = hi + margin;
  const formatAxis = axisFormatter((max - min) / (GRID.length - 1));
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const x = (t: number) => PAD.left + ((t - t0) / (t1 - t0)) * plotW;
  const y = (p: number) => PAD.top + (1 - (p - min) / (max - min)) * plotH;

  const markLine = stepPath(series, x, y, (p) => p.mark);
  const indexLine = stepPath(series, x, y, (p) => p.index);
  const area = `${markLine} V${(PAD.top + plotH).toFixed(1)} H${x(t0).toFixed(1)} Z`;

  const isShortSpan = t1 - t0 <= 36 * 3600;
  const tickCount = width < 420 ? 3 : 5;
  const ticks = Array.from({ length: tickCount }, (_, i) => t0 + ((t1 - t0) * i) / (tickCount - 1));
  const formatTick = (t: number) => (isShortSpan ? timeOfDay : monthDay).format(new Date(t * 1000));

  const last = series.at(-1)!;
  const isUp = last.mark >= series[0]!.mark;
  const stroke = isUp ? 'var(--color-up)' : 'var(--color-down)';

  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const t = t0 + ((e.clientX - rect.left - PAD.left) / plotW) * (t1 - t0);
    let index = 0;
    for (let i = 0; i < series.length; i++) if (series[i]!.time <= t) index = i;
    setHover(index);
  };
  const hovered = hover === null ? null : series[hover]!;

  return (
    <svg
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
      className="block touch-pan-y select-none"
      onPointerMove={onPointerMove}
      onPointerLeave={() => setHover(null)}
    >
      <defs>
        <linearGradient id={gradientId} x1="0" x2="0" y1="0" y2="1">
          <stop offset="0%" stopColor={stroke} stopOpacity="0.22" />
          <stop offset="100%" stopColor={stroke} stopOpacity="0" />
        </linearGradient>
      </defs>
      {GRID.map((g) => {
        const value = min + g * (max - min);
        return (
          <g key={g}>
            <line x1={PAD.left} x2={width - PAD.right} y1={y(value)} y2={y(value)} stroke="var(--color-line)" strokeDasharray={g === 0 ? undefined : '3 4'} />
            <text x={width - PAD.right + 8} y={y(value)} dy="0.32em" fontSize="11" fill="var(--color-ink-faint)">
              {formatAxis(value)}
            </text>
          </g>
        );
      })}
      {ticks.map((t, i) =>
        i > 0 && formatTick(t) === formatTick(ticks[i - 1]!) ? null : (
          <text
            key={i}
            x={x(t)}
            y={height - 6}
            fontSize="11"
            fill="var(--color-ink-faint)"
            textAnchor={i === 0 ? 'start' : i === ticks.length - 1 ? 'end' : 'middle'}
          >
            {formatTick(t)}
          </text>
        ),
      )}
      <path d={area} fill={`url(#${gradientId})`} />
      <path d={indexLine} fill="none" stroke="var(--color-ink-faint)" strokeWidth="1.5" strokeDasharray="4 4" />
      <path d={markLine} fill="none" stroke={stroke} strokeWidth="2" strokeLinejoin="round" strokeLinecap="round" />
      <circle cx={x(last.time)} cy={y(last.mark)} r="4" fill={stroke} stroke="var(--color-surface)" strokeWidth="2" />
      {hovered && (
        <g aria-hidden="true">
          <line x1={x(hovered.time)} x2={x(hovered.time)} y1={PAD.top} y2={PAD.top + plotH} stroke="var(--color-line-strong)" />
          <circle cx={x(hovered.time)} cy={y(hovered.mark)} r="4" fill="var(--color-ink)" />
          <text
            x={Math.min(Math.max(x(hovered.time), PAD.left + (width < 480 ? 75 : 140)), width - PAD.right - (width < 480 ? 75 : 140))}
            y={PAD.top + 2}
            textAnchor="middle"
            fontSize="12"
            fontWeight="600"
            fill="var(--color-ink)"
            paintOrder="stroke"
            stroke="var(--color-surface)"
            strokeWidth="4"
          >
            {width < 480
              ? `${formatPrice(hovered.mark)} · ${full.format(new Date(hovered.time * 1000))}`
              : `Mark ${formatPrice(hovered.mark)} · Index ${formatPrice(hovered.index)} · ${full.format(new Date(hovered.time * 1000))}`}
          </text>
        </g>
      )}
    </svg>
  );
};

/** The ticker's mark and index prices over a chosen range, with range buttons and a legend. */
export const PerpChart = ({ ticker }: { ticker: Pick<TPerpTicker, 'ticker' | 'markPrice' | 'indexPrice'> }) => {
  const [range, setRange] = useState<THistoryRange>('24h');
  const history = usePerpChartSeries(ticker, range);
  const series = history.series;
  const [ref, width] = useWidth();
  const height = width > 0 && width < 480 ? 200 : 260;
  const isUp = series ? series.at(-1)!.mark >= series[0]!.mark : true;
  const label = series
    ? `${ticker.ticker} mark price over ${RANGE_WORDS[range]}: from ${formatPrice(series[0]!.mark)} to ${formatPrice(series.at(-1)!.mark)}; index now ${formatPrice(series.at(-1)!.index)}`
    : '';

  return (
    <Card aria-labelledby="perp-chart-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h2 id="perp-chart-title" className="text-base font-semibold tracking-tight text-ink">
            Price
          </h2>
          <p className="flex items-center gap-4 text-xs text-ink-muted" aria-hidden="true">
            <span className="inline-flex items-center gap-1.5">
              <span className={cn('inline-block h-0.5 w-4 rounded', isUp ? 'bg-up' : 'bg-down')} /> Mark
            </span>
            <span className="inline-flex items-center gap-1.5">
              <span className="inline-block w-4 border-t border-dashed border-ink-faint" /> Index
            </span>
          </p>
        </div>
        <SegmentedControl label="Chart range" value={range} options={RANGES} onChange={setRange} size="sm" className="w-full sm:w-auto" />
      </div>
      <div ref={ref} className="relative w-full" style={{ height }} aria-busy={history.isFetching || undefined}>
        {history.isError && !series ? (
          <div role="alert" className="flex h-full flex-col items-center justify-center gap-3 rounded-xl border border-dashed border-line-strong text-sm text-ink-muted">
            The price history did not load.
            <Button variant="secondary" size="sm" onClick={() => history.refetch()} isLoading={history.isFetching}>
              Try again
            </Button>
          </div>
        ) : !series || width === 0 ? (
          <Skeleton className="h-full w-full rounded-xl" />
        ) : (
          <LineChart series={series} width={width} height={height} label={label} />
        )}
      </div>
    </Card>
  );
};
