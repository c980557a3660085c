import { ChangeIndicator, directionOf } from '@/components/ui/change-indicator';
import { formatPoints } from './format';

/** The 24 h move of the YES probability: a green up or red down arrow with the points moved. */
export const PriceChange = ({ change, className }: { change: number; className?: string }) => {
  // Below half a tenth of a point the display would read "0.0 pts": call it unchanged.
  const direction = directionOf(change, 0.0005);
  const words = direction === 0 ? 'Unchanged in 24 hours' : `${direction > 0 ? 'Up' : 'Down'} ${formatPoints(change)} in 24 hours`;
  return (
    <ChangeIndicator direction={direction} words={words} className={className}>
      {direction === 0 ? '0.0 pts' : formatPoints(change)}
      <span className="ml-1 text-xs font-normal text-ink-faint">24h</span>
    </ChangeIndicator>
  );
};
