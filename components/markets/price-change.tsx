import { cn } from '@/components/ui/cn';
import { ArrowDownIcon, ArrowUpIcon } from '@/components/ui/icons';
import { formatPoints } from './format';

/** The 24 h move of the YES probability: a green up or red down arrow with the points moved. */
export const PriceChange = ({ change, className }: { change: number; className?: string }) => {
  // Below half a tenth of a point the display would read "0.0 pts": call it unchanged.
  const direction = Math.abs(change) < 0.0005 ? 0 : Math.sign(change);
  const words = direction === 0 ? 'Unchanged in 24 hours' : `${direction > 0 ? 'Up' : 'Down'} ${formatPoints(change)} in 24 hours`;
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
        {direction === 0 ? '0.0 pts' : formatPoints(change)}
        <span className="ml-1 text-xs font-normal text-ink-faint">24h</span>
      </span>
    </span>
  );
};
