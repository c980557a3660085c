/**
 * The frame every time chart draws (the line chart and the perps candles): value grid lines with
 * their labels on the right, and time ticks along the bottom (time of day within 36 hours, month
 * and day beyond; a short span can give neighbouring ticks the same label, shown once).
 */
const GRID = [0, 0.25, 0.5, 0.75, 1];
/** How many value grid lines a chart draws, bottom and top included. */
export const GRID_LINES = GRID.length;

const timeOfDay = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

export type TChartFrame = {
  width: number;
  height: number;
  pad: { top: number; right: number; bottom: number; left: number };
  /** Seconds at the left and right edges. */
  t0: number;
  t1: number;
  min: number;
  max: number;
  x: (t: number) => number;
  y: (v: number) => number;
};

export const ChartAxes = ({ width, height, pad, t0, t1, min, max, x, y, formatAxis }: TChartFrame & { formatAxis: (v: number) => string }) => {
  const isShortSpan = t1 - t0 <= 36 * 3600;
  const tickCount = width < 420 ? 3 : 5;
  const ticks = Array.from({ length: tickCount }, (_, i) => t0 + ((t1 - t0) * i) / (tickCount - 1));
  const formatTick = (t: number) => (isShortSpan ? timeOfDay : monthDay).format(new Date(t * 1000));
  return (
    <>
      {GRID.map((g) => {
        const v = min + g * (max - min);
        return (
          <g key={g}>
            <line x1={pad.left} x2={width - pad.right} y1={y(v)} y2={y(v)} stroke="var(--color-line)" strokeDasharray={g === 0 ? undefined : '3 4'} />
            <text x={width - pad.right + 8} y={y(v)} dy="0.32em" fontSize="11" fill="var(--color-ink-faint)">
              {formatAxis(v)}
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
    </>
  );
};
