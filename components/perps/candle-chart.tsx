'use client';

import { useState, type PointerEvent } from 'react';
import { ChartAxes } from '@/components/ui/chart-axes';
import type { TPerpCandle } from '@/lib/client/queries/perps';
import { formatPrice } from './format';

const full = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

const INTERVAL_WORDS: Record<number, string> = { 300: '5-minute', 900: '15-minute', 3600: 'hourly', 14_400: '4-hour', 86_400: 'daily' };

/** Words for a candle chart's accessible name: how many candles and the range's open, high, low and close. */
export const describeCandles = (ticker: string, candles: readonly TPerpCandle[], intervalSeconds: number, rangeWords: string) => {
  if (candles.length === 0) return `${ticker} has no price changes over ${rangeWords}.`;
  const high = Math.max(...candles.map((c) => c.high));
  const low = Math.min(...candles.map((c) => c.low));
  const width = INTERVAL_WORDS[intervalSeconds] ?? `${intervalSeconds}-second`;
  return `${ticker} mark price as ${candles.length} ${width} candles over ${rangeWords}: opened at ${formatPrice(candles[0]!.open)}, high ${formatPrice(high)}, low ${formatPrice(low)}, last close ${formatPrice(candles.at(-1)!.close)}.`;
};

/**
 * OHLC candles drawn at the real pixel size: a wick from low to high and a body from open to
 * close, green when the close is at or above the open and red otherwise, on the same grid as the
 * line chart, with a readout of the candle under the pointer. Buckets without points have no candle.
 */
export const CandleChart = ({
  candles,
  intervalSeconds,
  width,
  height,
  label,
  formatAxis,
  axisWidth,
}: {
  candles: readonly TPerpCandle[];
  intervalSeconds: number;
  width: number;
  height: number;
  /** The accessible name: what the chart shows, in words. */
  label: string;
  formatAxis: (v: number) => string;
  axisWidth: number;
}) => {
  const [hover, setHover] = useState<number | null>(null);
  const pad = { top: 24, right: axisWidth, bottom: 26, left: 4 };
  const t0 = candles[0]!.time;
  const t1 = candles.at(-1)!.time + intervalSeconds;
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const lo = Math.min(...candles.map((c) => c.low));
  const hi = Math.max(...candles.map((c) => c.high));
  const margin = hi === lo ? Math.max(Math.abs(hi) * 0.01, 0.01) : (hi - lo) * 0.08;
  const min = Math.max(0, lo - margin);
  const max = hi + margin;
  const x = (t: number) => pad.left + ((t - t0) / (t1 - t0)) * plotW;
  const y = (v: number) => pad.top + (1 - (v - min) / (max - min)) * plotH;
  const slot = (plotW * intervalSeconds) / (t1 - t0);
  const bodyW = Math.max(1, Math.min(18, slot * 0.7));


  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const t = t0 + ((e.clientX - rect.left - pad.left) / plotW) * (t1 - t0);
    let index: number | null = null;
    for (let i = 0; i < candles.length; i++) if (candles[i]!.time <= t) index = i;
    setHover(index);
  };
  const hovered = hover === null ? null : candles[hover]!;

  return (
    <svg
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
      data-testid="perp-candles"
      className="block touch-pan-y select-none"
      onPointerMove={onPointerMove}
      onPointerLeave={() => setHover(null)}
    >
      <ChartAxes width={width} height={height} pad={pad} t0={t0} t1={t1} min={min} max={max} x={x} y={y} formatAxis={formatAxis} />
      {candles.map((c) => {
        const isUp = c.close >= c.open;
        const color = isUp ? 'var(--color-up)' : 'var(--color-down)';
        const cx = x(c.time + intervalSeconds / 2);
        const top = y(Math.max(c.open, c.close));
        const bodyH = Math.max(1, y(Math.min(c.open, c.close)) - top);
        return (
          <g key={c.time} data-testid="perp-candle" aria-hidden="true">
            <line x1={cx} x2={cx} y1={y(c.high)} y2={y(c.low)} stroke={color} strokeWidth="1" />
            <rect x={cx - bodyW / 2} y={top} width={bodyW} height={bodyH} fill={color} rx={bodyW > 4 ? 1 : 0} />
          </g>
        );
      })}
      {hovered && (
        <text
          aria-hidden="true"
          x={pad.left + 2}
          y={pad.top - 8}
          fontSize="12"
          fontWeight="600"
          fill="var(--color-ink)"
          paintOrder="stroke"
          stroke="var(--color-surface)"
          strokeWidth="4"
        >
          {full.format(new Date(hovered.time * 1000))} · O {formatPrice(hovered.open)} H {formatPrice(hovered.high)} L {formatPrice(hovered.low)} C{' '}
          {formatPrice(hovered.close)}
        </text>
      )}
    </svg>
  );
};
