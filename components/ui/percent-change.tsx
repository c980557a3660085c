import { ChangeIndicator, directionOf } from './change-indicator';
import { changeWords, formatChangePercent } from './format';

/** A 24 h move in percent (a ticker's mark, a pool's share price): a green up or red down arrow with the signed change. */
export const PercentChange = ({ percent, className }: { percent: number; className?: string }) => {
  // Below half a hundredth of a percent the display would read "0.00%": call it unchanged.
  const direction = directionOf(percent, 0.005);
  const words = changeWords(direction, formatChangePercent(percent), ' in 24 hours');
  return (
    <ChangeIndicator direction={direction} words={words} className={className}>
      {direction === 0 ? '0.00%' : formatChangePercent(percent)}
    </ChangeIndicator>
  );
};
