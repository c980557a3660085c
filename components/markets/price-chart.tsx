'use client';

import { useEffect, useId, useRef, useState, type PointerEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { Skeleton } from '@/components/ui/skeleton';
import { usePriceChartSeries, type TChartPoint, type THistoryRange, type TMarket } from '@/lib/client/queries/markets';
import { formatProbability } from './format';

const RANGES = [
  { value: '24h', label: '24h' },
  { value: '7d', label: '7d' },
  { value: '30d', label: '30d' },
  { value: 'all', label: 'All' },
] as const satisfies readonly { value: THistoryRange; label: string }[];

const RANGE_WORDS: Record<THistoryRange, string> = { '1h': 'the last hour', '24h': 'the last 24 hours', '7d': 'the last 7 days', '30d': 'the last 30 days', all: 'all time' };

const GRID = [0, 0.25, 0.5, 0.75, 1];
const PAD = { top: 12, right: 44, bottom: 26, left: 4 };

const timeOfDay = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const full = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** Width of the element, kept current as it resizes (0 before the first measurement). */
export const useWidth = () => {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry!.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
};

/** The YES probability as a step line (prices only move at trades and ticks), drawn at the real pixel size. */
const LineChart = ({ series, width, height, label }: { series: TChartPoint[]; width: number; height: number; label: string }) => {
  const gradientId = useId();
  const [hover, setHover] = useState<number | null>(null);
  const t0 = series[0]!.time;
  const t1 = Math.max(series.at(-1)!.time, t0 + 1);
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const x = (t: number) => PAD.left + ((t - t0) / (t1 - t0)) * plotW;
  const y = (p: number) => PAD.top + (1 - p) * plotH;

  let line = `M${x(series[0]!.time).toFixed(1)},${y(series[0]!.yesPrice).toFixed(1)}`;
  for (const p of series.slice(1)) line += ` H${x(p.time).toFixed(1)} V${y(p.yesPrice).toFixed(1)}`;
  const area = `${line} V${y(0)} H${x(t0).toFixed(1)} Z`;

  const isShortSpan = t1 - t0 <= 36 * 3600;
  const tickCount = width < 420 ? 3 : 5;
  const ticks = Array.from({ length: tickCount }, (_, i) => t0 + ((t1 - t0) * i) / (tickCount - 1));
  const formatTick = (t: number) => (isShortSpan ? timeOfDay : monthDay).format(new Date(t * 1000));

  const last = series.at(-1)!;
  const isUp = last.yesPrice >= series[0]!.yesPrice;
  const stroke = isUp ? 'var(--color-up)' : 'var(--color-down)';

  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const t = t0 + ((e.clientX - rect.left - PAD.left) / plotW) * (t1 - t0);
    // The step line holds the last point at or before t.
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
      {GRID.map((g) => (
        <g key={g}>
          <line x1={PAD.left} x2={width - PAD.right} y1={y(g)} y2={y(g)} stroke="var(--color-line)" strokeDasharray={g === 0 ? undefined : '3 4'} />
          <text x={width - PAD.right + 8} y={y(g)} dy="0.32em" fontSize="11" fill="var(--color-ink-faint)">
            {Math.round(g * 100)}%
          </text>
        </g>
      ))}
      {ticks.map((t, i) =>
        // A short span can give neighbouring ticks the same label: show each label once.
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
      <path d={line} fill="none" stroke={stroke} strokeWidth="2" strokeLinejoin="round" strokeLinecap="round" />
      <circle cx={x(last.time)} cy={y(last.yesPrice)} r="4" fill={stroke} stroke="var(--color-surface)" strokeWidth="2" />
      {hovered && (
        <g aria-hidden="true">
          <line x1={x(Math.max(hovered.time, t0))} x2={x(Math.max(hovered.time, t0))} y1={PAD.top} y2={y(0)} stroke="var(--color-line-strong)" />
          <circle cx={x(Math.max(hovered.time, t0))} cy={y(hovered.yesPrice)} r="4" fill="var(--color-ink)" />
          <text
            x={Math.min(Math.max(x(hovered.time), PAD.left + 70), width - PAD.right - 70)}
            y={PAD.top + 2}
            textAnchor="middle"
            fontSize="12"
            fontWeight="600"
            fill="var(--color-ink)"
            paintOrder="stroke"
            stroke="var(--color-surface)"
            strokeWidth="4"
          >
            {formatProbability(hovered.yesPrice, { isPrecise: true })} · {full.format(new Date(hovered.time * 1000))}
          </text>
        </g>
      )}
    </svg>
  );
};

/** The market's YES probability over a chosen range, with range buttons. */
export const PriceChart = ({ market }: { market: Pick<TMarket, 'id' | 'yesPrice' | 'createdDate'> }) => {
  const [range, setRange] = useState<THistoryRange>('7d');
  const history = usePriceChartSeries(market, range);
  const series = history.series;
  const [ref, width] = useWidth();
  const height = width > 0 && width < 480 ? 200 : 260;
  const label = series
    ? `YES probability over ${RANGE_WORDS[range]}: from ${formatProbability(series[0]!.yesPrice)} to ${formatProbability(series.at(-1)!.yesPrice)}`
    : '';

  return (
    <Card aria-labelledby="chart-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="chart-title" className="text-base font-semibold tracking-tight text-ink">
          YES probability
        </h2>
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
