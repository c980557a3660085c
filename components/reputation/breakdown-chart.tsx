import { cn } from '@/components/ui/cn';
import { formatCount } from '@/components/ui/format';
import { toReputationBars, type TReputationBreakdown } from '@/lib/client/queries/reputation';

const signed = (n: number) => (n < 0 ? `−${formatCount(-n)}` : formatCount(n));

/**
 * What makes up a reputation, as horizontal bars on one scale: each part's contribution out of
 * the most it can give (weight × maxScore, the faint track), and the penalties as red bars to the
 * left of zero. The bars are one image whose name says every figure; the figures also come as a
 * table (ReputationFigures).
 */
export const BreakdownChart = ({ breakdown, score, maxScore }: { breakdown: TReputationBreakdown['breakdown']; score: number; maxScore: number }) => {
  const { bars, positiveMax, negativeMax } = toReputationBars(breakdown, maxScore);
  const span = positiveMax + negativeMax;
  const zero = (negativeMax / span) * 100;
  const pct = (points: number) => (Math.abs(points) / span) * 100;
  const parts = bars.filter((b) => !b.isPenalty);
  const penalties = bars.filter((b) => b.isPenalty);
  const label =
    `Reputation breakdown, ${score} of ${maxScore}: ` +
    parts.map((b) => `${b.label} ${b.points} of ${b.maxPoints}`).join(', ') +
    `; penalties: ${penalties.map((b) => `${b.label} ${b.points}`).join(', ')}.`;

  return (
    <div role="img" aria-label={label} className="flex flex-col gap-2.5">
      {bars.map((b, i) => (
        <div
          key={b.key}
          className={cn('grid grid-cols-[7.5rem_minmax(0,1fr)_4.5rem] items-center gap-3 sm:grid-cols-[10rem_minmax(0,1fr)_5rem]', b.isPenalty && i === parts.length && 'mt-2 border-t border-line pt-3')}
        >
          <span className={cn('truncate text-xs sm:text-sm', b.isPenalty ? 'text-ink-muted' : 'text-ink')}>{b.label}</span>
          <span className="relative block h-3">
            {!b.isPenalty && (
              <span className="absolute inset-y-0 rounded-full bg-elevated ring-1 ring-line" style={{ left: `${zero}%`, width: `${pct(b.maxPoints ?? 0)}%` }} />
            )}
            {b.points !== 0 && (
              <span
                className={cn('absolute inset-y-0 rounded-full', b.isPenalty ? 'bg-down' : 'bg-accent')}
                style={b.isPenalty ? { left: `${zero - pct(b.points)}%`, width: `${pct(b.points)}%` } : { left: `${zero}%`, width: `${pct(b.points)}%` }}
              />
            )}
            <span className="absolute -inset-y-1 w-px bg-line-strong" style={{ left: `${zero}%` }} />
          </span>
          <span className={cn('text-right text-xs tabular-nums sm:text-sm', b.isPenalty ? (b.points < 0 ? 'text-down' : 'text-ink-faint') : 'text-ink')}>
            {signed(b.points)}
            {!b.isPenalty && <span className="text-ink-faint"> / {formatCount(b.maxPoints ?? 0)}</span>}
          </span>
        </div>
      ))}
    </div>
  );
};
