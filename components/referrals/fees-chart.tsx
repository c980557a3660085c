'use client';

import { useMemo, useState } from 'react';
import { useWidth } from '@/components/ui/line-chart';
import { formatMoney } from '@/components/ui/format';
import { FEE_SOURCES, type TFeeChartDay, type TFeeSource } from '@/lib/client/queries/referrals';

const COLOURS: Record<TFeeSource, string> = { predictions: 'var(--color-accent)', perps: 'var(--color-warn)', pools: '#5cc8ff' };
const HEIGHT = 200;
const PAD = { top: 10, right: 56, bottom: 24, left: 4 };
const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const formatDay = (day: string) => dayLabel.format(new Date(`${day}T00:00:00Z`));

/** A round top for the value axis: 1, 2 or 5 times a power of ten at or above `v`. */
const niceMax = (v: number) => {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 5, 10].find((m) => m * p >= v) ?? 10) * p;
};

/**
 * Referral fees by day as stacked bars, one colour per source, with a legend naming them; the
 * hovered or focused day reads out its numbers. Plain numbers, for plotting only; the table
 * beside it (FeesTable) is the text alternative.
 */
export const FeesChart = ({ days, label }: { days: readonly TFeeChartDay[]; label: string }) => {
  const [ref, width] = useWidth();
  const [active, setActive] = useState<number | null>(null);
  const max = useMemo(() => niceMax(Math.max(0, ...days.map((d) => d.total))), [days]);
  const plotW = Math.max(0, width - PAD.left - PAD.right);
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = days.length ? plotW / days.length : 0;
  const barW = Math.max(1, slot * 0.7);
  const y = (v: number) => PAD.top + (1 - v / max) * plotH;
  const focused = active === null ? null : days[active];

  return (
    <div className="flex flex-col gap-3">
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-ink-muted" aria-label="Sources">
        {FEE_SOURCES.map((s) => (
          <li key={s.key} className="inline-flex items-center gap-1.5">
            <span aria-hidden="true" className="size-2.5 rounded-sm" style={{ backgroundColor: COLOURS[s.key] }} />
            {s.label}
          </li>
        ))}
      </ul>
      <div ref={ref} className="relative w-full">
        {width > 0 && (
          <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-label={label} className="block select-none" onPointerLeave={() => setActive(null)}>
            {[0, 0.5, 1].map((g) => (
              <g key={g}>
                <line x1={PAD.left} x2={width - PAD.right} y1={y(g * max)} y2={y(g * max)} stroke="var(--color-line)" strokeDasharray={g === 0 ? undefined : '3 4'} />
                <text x={width - PAD.right + 8} y={y(g * max)} dy="0.32em" fontSize="11" fill="var(--color-ink-faint)">
                  {formatMoney(g * max)}
                </text>
              </g>
            ))}
            {days.map((d, i) => {
              const x = PAD.left + i * slot + (slot - barW) / 2;
              let base = 0;
              return (
                <g key={d.day} onPointerEnter={() => setActive(i)} opacity={active === null || active === i ? 1 : 0.55}>
                  <rect x={PAD.left + i * slot} y={PAD.top} width={slot} height={plotH} fill="transparent" />
                  {FEE_SOURCES.map((s) => {
                    const v = d[s.key];
                    if (v <= 0) return null;
                    const top = y(base + v);
                    const h = y(base) - top;
                    base += v;
                    return <rect key={s.key} x={x} y={top} width={barW} height={Math.max(h, 1)} fill={COLOURS[s.key]} />;
                  })}
                </g>
              );
            })}
            {days.length > 0 &&
              [0, Math.floor((days.length - 1) / 2), days.length - 1].map((i) => (
                <text
                  key={i}
                  x={PAD.left + i * slot + slot / 2}
                  y={HEIGHT - 6}
                  fontSize="11"
                  textAnchor={i === 0 ? 'start' : i === days.length - 1 ? 'end' : 'middle'}
                  fill="var(--color-ink-faint)"
                >
                  {formatDay(days[i]!.day)}
                </text>
              ))}
          </svg>
        )}
        {width === 0 && <div style={{ height: HEIGHT }} />}
      </div>
      <p className="min-h-5 text-xs text-ink-muted" aria-hidden="true">
        {focused
          ? `${formatDay(focused.day)}: ${formatMoney(focused.total)} (${FEE_SOURCES.map((s) => `${s.label} ${formatMoney(focused[s.key])}`).join(', ')})`
          : 'Point at a bar to read its day.'}
      </p>
    </div>
  );
};
