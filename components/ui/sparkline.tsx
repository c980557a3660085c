import { useId } from 'react';
import { AreaGradient } from './area-gradient';
import { cn } from './cn';

/**
 * A small line chart of a series (oldest first), drawn as plain SVG. Values are only plotted,
 * never summed, so plain numbers are fine here.
 */
export const Sparkline = ({
  values,
  label,
  width = 320,
  height = 80,
  className,
}: {
  values: readonly number[];
  label: string;
  width?: number;
  height?: number;
  className?: string;
}) => {
  const gradientId = useId();
  const pad = 4;
  const series = values.length === 1 ? [values[0]!, values[0]!] : values;
  if (series.length === 0) return null;
  const min = Math.min(...series);
  const max = Math.max(...series);
  const span = max - min || 1;
  const stepX = (width - pad * 2) / (series.length - 1);
  const points = series.map((v, i) => {
    const x = pad + i * stepX;
    // A flat series sits in the middle rather than on the floor.
    const y = max === min ? height / 2 : pad + (1 - (v - min) / span) * (height - pad * 2);
    return [x, y] as const;
  });
  const line = points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x.toFixed(2)},${y.toFixed(2)}`).join(' ');
  const area = `${line} L${points.at(-1)![0].toFixed(2)},${height} L${points[0]![0].toFixed(2)},${height} Z`;
  const isUp = series.at(-1)! >= series[0]!;
  const stroke = isUp ? 'var(--color-up)' : 'var(--color-down)';
  const [lastX, lastY] = points.at(-1)!;
  return (
    <div className={cn('relative h-20 w-full', className)}>
    <svg
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
      className="block size-full overflow-visible"
    >
      <AreaGradient id={gradientId} color={stroke} opacity={0.28} />
      <path d={area} fill={`url(#${gradientId})`} />
      <path d={line} fill="none" stroke={stroke} strokeWidth="2" strokeLinejoin="round" strokeLinecap="round" vectorEffect="non-scaling-stroke" />
    </svg>
      {/* The end dot is HTML so the stretched viewBox does not turn it into an ellipse. */}
      <span
        aria-hidden="true"
        className="absolute size-2 -translate-x-1/2 -translate-y-1/2 rounded-full ring-4 ring-canvas"
        style={{ left: `${(lastX / width) * 100}%`, top: `${(lastY / height) * 100}%`, backgroundColor: stroke }}
      />
    </div>
  );
};
