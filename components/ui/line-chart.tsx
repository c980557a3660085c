'use client';

import { useEffect, useId, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { AreaGradient } from './area-gradient';
import { ChartAxes } from './chart-axes';
import { Button } from './button';
import { Card, CardTitle } from './card';
import { SegmentedControl, type TSegmentOption } from './segmented-control';
import { Skeleton } from './skeleton';

/** The words for a history range in a chart's accessible name ("… over the last 7 days"). */
export const RANGE_WORDS = { '1h': 'the last hour', '24h': 'the last 24 hours', '7d': 'the last 7 days', '30d': 'the last 30 days', all: 'all time' } as const;

export { GRID_LINES } from './chart-axes';

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

type TPoint = { time: number };

/** A step line through the points, in SVG path syntax. */
const stepPath = <P extends TPoint>(series: readonly P[], x: (t: number) => number, y: (v: number) => number, value: (p: P) => number) => {
  let d = `M${x(series[0]!.time).toFixed(1)},${y(value(series[0]!)).toFixed(1)}`;
  for (const p of series.slice(1)) d += ` H${x(p.time).toFixed(1)} V${y(value(p)).toFixed(1)}`;
  return d;
};

/**
 * A time series (oldest first, times in unix seconds) as a step line, since prices only move at
 * trades and ticks, drawn at the real pixel size: grid with value labels on the right, time ticks
 * below, an area under the main line, green when it ends at or above where it started and red
 * otherwise, and a hover readout of the point under the pointer.
 */
export const LineChart = <P extends TPoint>({
  series,
  width,
  height,
  label,
  value,
  dashedValues = [],
  min,
  max,
  axisWidth,
  formatAxis,
  formatHover,
  hoverHalfWidth,
}: {
  series: readonly P[];
  width: number;
  height: number;
  /** The accessible name: what the chart shows, in words. */
  label: string;
  /** The main line's value: the area, the end dot and the hover dot follow it. */
  value: (p: P) => number;
  /** Further lines, drawn dashed and faint under the main one (an index price, say). */
  dashedValues?: readonly ((p: P) => number)[];
  /** The value scale: `min` at the bottom, `max` at the top. */
  min: number;
  max: number;
  /** Room on the right for the value labels. */
  axisWidth: number;
  formatAxis: (v: number) => string;
  /** The hovered point's values; the hover readout adds its time. */
  formatHover: (p: P) => string;
  /** Half the hover readout's width, to keep it inside the chart. */
  hoverHalfWidth: number;
}) => {
  const gradientId = useId();
  const [hover, setHover] = useState<number | null>(null);
  const pad = { top: 12, right: axisWidth, bottom: 26, left: 4 };
  const t0 = series[0]!.time;
  const t1 = Math.max(series.at(-1)!.time, t0 + 1);
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const x = (t: number) => pad.left + ((t - t0) / (t1 - t0)) * plotW;
  const y = (v: number) => pad.top + (1 - (v - min) / (max - min)) * plotH;
  const bottom = pad.top + plotH;

  const line = stepPath(series, x, y, value);
  const dashedLines = dashedValues.map((v) => stepPath(series, x, y, v));
  const area = `${line} V${bottom.toFixed(1)} H${x(t0).toFixed(1)} Z`;


  const last = series.at(-1)!;
  const isUp = value(last) >= value(series[0]!);
  const stroke = isUp ? 'var(--color-up)' : 'var(--color-down)';

  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const t = t0 + ((e.clientX - rect.left - pad.left) / plotW) * (t1 - t0);
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
      <AreaGradient id={gradientId} color={stroke} opacity={0.22} />
      <ChartAxes width={width} height={height} pad={pad} t0={t0} t1={t1} min={min} max={max} x={x} y={y} formatAxis={formatAxis} />
      <path d={area} fill={`url(#${gradientId})`} />
      {dashedLines.map((d, i) => (
        <path key={i} d={d} fill="none" stroke="var(--color-ink-faint)" strokeWidth="1.5" strokeDasharray="4 4" />
      ))}
      <path d={line} fill="none" stroke={stroke} strokeWidth="2" strokeLinejoin="round" strokeLinecap="round" />
      <circle cx={x(last.time)} cy={y(value(last))} r="4" fill={stroke} stroke="var(--color-surface)" strokeWidth="2" />
      {hovered && (
        <g aria-hidden="true">
          <line x1={x(Math.max(hovered.time, t0))} x2={x(Math.max(hovered.time, t0))} y1={pad.top} y2={bottom} stroke="var(--color-line-strong)" />
          <circle cx={x(Math.max(hovered.time, t0))} cy={y(value(hovered))} r="4" fill="var(--color-ink)" />
          <text
            x={Math.min(Math.max(x(hovered.time), pad.left + hoverHalfWidth), width - pad.right - hoverHalfWidth)}
            y={pad.top + 2}
            textAnchor="middle"
            fontSize="12"
            fontWeight="600"
            fill="var(--color-ink)"
            paintOrder="stroke"
            stroke="var(--color-surface)"
            strokeWidth="4"
          >
            {formatHover(hovered)} · {full.format(new Date(hovered.time * 1000))}
          </text>
        </g>
      )}
    </svg>
  );
};

/**
 * A card with a titled chart over a chosen range: range buttons, a skeleton while the history
 * loads, a retry when it fails, and the chart sized to the card (`children` draws it).
 */
export const ChartCard = <R extends string, P>({
  titleId,
  title,
  legend,
  range,
  ranges,
  onRangeChange,
  history,
  children,
}: {
  titleId: string;
  title: string;
  /** Shown under the title (a key to the lines). */
  legend?: ReactNode;
  range: R;
  ranges: readonly TSegmentOption<R>[];
  onRangeChange: (range: R) => void;
  history: { series: readonly P[] | null; isError: boolean; isFetching: boolean; refetch: () => unknown };
  children: (series: readonly P[], size: { width: number; height: number }) => ReactNode;
}) => {
  const series = history.series;
  const [ref, width] = useWidth();
  const height = width > 0 && width < 480 ? 200 : 260;
  const heading = <CardTitle id={titleId}>{title}</CardTitle>;

  return (
    <Card aria-labelledby={titleId} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        {legend ? (
          <div className="flex flex-col gap-1">
            {heading}
            {legend}
          </div>
        ) : (
          heading
        )}
        <SegmentedControl label="Chart range" value={range} options={ranges} onChange={onRangeChange} size="sm" className="w-full sm:w-auto" />
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
          children(series, { width, height })
        )}
      </div>
    </Card>
  );
};
