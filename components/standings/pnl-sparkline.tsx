import { formatSignedMoney } from '@/components/ui/format';
import { Sparkline } from '@/components/ui/sparkline';

/**
 * A player's lifetime PnL at the last daily closes (oldest first), as a small inline line: green
 * when it ends at or above where it started. A dash when there is no close yet.
 */
export const PnlSparkline = ({ history, name, size = 'md' }: { history: readonly number[]; name: string; size?: 'sm' | 'md' }) => {
  if (history.length === 0) {
    return (
      <span className="text-xs text-ink-faint">
        <span aria-hidden="true">—</span>
        <span className="sr-only">No PnL history yet</span>
      </span>
    );
  }
  const label = `${name}'s lifetime PnL over the last ${history.length} daily ${history.length === 1 ? 'close' : 'closes'}: from ${formatSignedMoney(history[0]!)} to ${formatSignedMoney(history.at(-1)!)}`;
  return (
    <span className={size === 'sm' ? 'inline-block h-5 w-16 align-middle' : 'inline-block h-8 w-24 align-middle'}>
      <Sparkline values={history} label={label} width={size === 'sm' ? 64 : 96} height={size === 'sm' ? 20 : 32} className="h-full" />
    </span>
  );
};
