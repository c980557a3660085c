import type { ReactNode } from 'react';
import { cn } from './cn';
import { ArrowDownIcon, ArrowUpIcon } from './icons';

/**
 * A signed move: green with an up arrow, red with a down arrow, or faint when unchanged. `words`
 * is what screen readers hear; `children` is the visible figure.
 */
export const ChangeIndicator = ({
  direction,
  words,
  className,
  children,
}: {
  direction: -1 | 0 | 1;
  words: string;
  className?: string;
  children: ReactNode;
}) => (
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
      {children}
    </span>
  </span>
);

/** The direction of a change, calling anything below `epsilon` (what would display as zero) unchanged. */
export const directionOf = (change: number, epsilon: number): -1 | 0 | 1 => (Math.abs(change) < epsilon ? 0 : change > 0 ? 1 : -1);
