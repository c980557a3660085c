import type { ReactNode } from 'react';
import { Button } from './button';
import { cn } from './cn';

/**
 * A row of small buttons that fill in a common value (quick amounts, quick leverage). With
 * `selected`, the button for the current value shows pressed.
 */
export const QuickPicks = <V extends string | number>({
  label,
  values,
  onPick,
  children,
  selected,
  className,
  buttonClassName,
}: {
  /** The group's accessible name. */
  label: string;
  values: readonly V[];
  onPick: (value: V) => void;
  /** A button's content. */
  children: (value: V) => ReactNode;
  selected?: V;
  className?: string;
  buttonClassName?: string;
}) => (
  <div className={className} role="group" aria-label={label}>
    {values.map((v) => (
      <Button
        key={v}
        size="sm"
        variant="ghost"
        className={cn('flex-1 border border-line', buttonClassName, selected !== undefined && v === selected && 'border-accent/60 text-ink')}
        aria-pressed={selected === undefined ? undefined : v === selected}
        onClick={() => onPick(v)}
      >
        {children(v)}
      </Button>
    ))}
  </div>
);
