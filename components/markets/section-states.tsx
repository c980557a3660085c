'use client';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';

/** A market page section while it loads: a few rows in its shape. */
export const SectionLoading = ({ label, rows = 3 }: { label: string; rows?: number }) => (
  <div role="status" aria-label={label} className="flex flex-col gap-3">
    {Array.from({ length: rows }, (_, i) => (
      <Skeleton key={i} className="h-10 w-full" />
    ))}
  </div>
);

/** A market page section that did not load, with a retry. */
export const SectionError = ({ error, onRetry, isRetrying }: { error: unknown; onRetry: () => void; isRetrying: boolean }) => (
  <div role="alert" className="flex items-center justify-between gap-3 text-sm text-ink-muted">
    {describeError(error)}
    <Button size="sm" variant="secondary" onClick={onRetry} isLoading={isRetrying}>
      Try again
    </Button>
  </div>
);
