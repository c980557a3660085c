import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';

export const Label = ({ className, ...rest }: ComponentProps<'label'>) => (
  <label className={cn('text-sm font-medium text-ink', className)} {...rest} />
);

/** Label row, control, and a hint or error underneath; `counter` shows e.g. "12/50". */
export const Field = ({
  id,
  label,
  hint,
  error,
  counter,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: ReactNode;
  counter?: { value: number; max: number };
  children: ReactNode;
}) => (
  <div className="flex flex-col gap-1.5">
    <div className="flex items-baseline justify-between gap-3">
      <Label htmlFor={id}>{label}</Label>
      {counter && (
        <span
          id={`${id}-counter`}
          className={cn('text-xs tabular-nums', counter.value > counter.max ? 'text-down' : 'text-ink-faint')}
        >
          {counter.value}/{counter.max}
          <span className="sr-only"> characters</span>
        </span>
      )}
    </div>
    {children}
    {/* Polite rather than assertive: these messages change while the user types. */}
    <div aria-live="polite" className="empty:hidden">
      {error ? (
        <p id={`${id}-error`} className="text-sm text-down">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-sm text-ink-muted">
          {hint}
        </p>
      ) : null}
    </div>
  </div>
);

/** The aria-describedby value matching what Field renders under the control. */
export const describedBy = (id: string, { error, hint, counter }: { error?: unknown; hint?: unknown; counter?: boolean }) =>
  [error ? `${id}-error` : hint ? `${id}-hint` : null, counter ? `${id}-counter` : null].filter(Boolean).join(' ') || undefined;
