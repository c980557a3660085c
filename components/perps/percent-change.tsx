import { cn } from '@/components/ui/cn';
import { ArrowDownIcon, ArrowUpIcon } from '@/components/ui/icons';
import { formatChangePercent } from './format';

/** A ticker's 24 h move in percent: a green up or red down arrow with the signed change. */
export const PercentChange = ({ percent, className }: { percent: number; className?: string }) => {
  // Below half a hundredth of a percent the display would read "0.00%": call it unchanged.
  const direction = Math.abs(percent) < 0.005 ? 0 : Math.sign(percent);
  const words = direction === 0 ? 'Unchanged in 24 hours' : `${direction > 0 ? 'Up' : 'Down'} ${formatChangePercent(Math.abs(percent))} in 24 hours`;
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 text-sm font-medium tabular-nums',
        direction > 0 ? 'text-up' : direction < 0 ? 'text-down' : 'text-ink-faint',
        className,
      )}
      title={words}
    >
      <span className="sr-only">{words}</span>
      <span aria-hidden="true" className="inline-flex items-center gap-0.5">
        {direction > 0 && <ArrowUpIcon className="size-4" />}
        {direction < 0 && <ArrowDownIcon className="size-4" />}
        {direction === 0 ? '0.00%' : formatChangePercent(percent)}
      </span>
    </span>
  );
};
