import type { ReactNode } from 'react';
import { Button } from './button';
import { cn } from './cn';
import { AlertIcon } from './icons';

/** A failed load: what happened and, when it may help, a retry button. */
export const ErrorState = ({
  title = 'Something went wrong',
  message,
  onRetry,
  isRetrying,
  action,
  className,
}: {
  title?: string;
  message: ReactNode;
  onRetry?: () => void;
  isRetrying?: boolean;
  action?: ReactNode;
  className?: string;
}) => (
  <div role="alert" className={cn('flex flex-col items-center rounded-2xl border border-down/25 bg-down-soft px-6 py-10 text-center', className)}>
    <div aria-hidden="true" className="mb-3 flex size-11 items-center justify-center rounded-2xl bg-down/15 text-down">
      <AlertIcon />
    </div>
    <h2 className="text-base font-semibold text-ink">{title}</h2>
    <p className="mt-1.5 max-w-md text-sm text-ink-muted">{message}</p>
    {(onRetry || action) && (
      <div className="mt-5 flex flex-wrap justify-center gap-2">
        {onRetry && (
          <Button variant="secondary" onClick={onRetry} isLoading={isRetrying}>
            Try again
          </Button>
        )}
        {action}
      </div>
    )}
  </div>
);

/** An inline message box for forms: error, success or neutral information. */
export const Notice = ({
  tone,
  children,
  className,
}: {
  tone: 'error' | 'success' | 'info';
  children: ReactNode;
  className?: string;
}) => (
  <div
    role={tone === 'error' ? 'alert' : 'status'}
    className={cn(
      'rounded-lg border px-3.5 py-2.5 text-sm',
      tone === 'error' && 'border-down/30 bg-down-soft text-down',
      tone === 'success' && 'border-up/30 bg-up-soft text-up',
      tone === 'info' && 'border-line-strong bg-elevated text-ink-muted',
      className,
    )}
  >
    {children}
  </div>
);
