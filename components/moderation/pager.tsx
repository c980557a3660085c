'use client';

import { Button } from '@/components/ui/button';
import { formatCount } from '@/components/ui/format';
import { pageInfo } from '@/lib/client/queries/moderation';

/**
 * Previous and Next under an offset-paged list, with "21–40 of 45". `onChange` gets the new
 * offset. Busy while the next page loads (the current one stays on screen).
 */
export const Pager = ({
  label,
  pagination,
  shown,
  onChange,
  isBusy,
}: {
  /** Names the navigation ("Blocked players pages"). */
  label: string;
  pagination: { limit: number; offset: number; total: number };
  shown: number;
  onChange: (offset: number) => void;
  isBusy?: boolean;
}) => {
  const info = pageInfo(pagination, shown);
  if (!info.hasPrevious && !info.hasNext) return null;
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-3 text-sm text-ink-muted" aria-busy={isBusy || undefined}>
      <span aria-live="polite">
        {formatCount(info.from)}–{formatCount(info.to)} of {formatCount(info.total)}
        <span className="sr-only">, page {info.page} of {info.pages}</span>
      </span>
      <span className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={!info.hasPrevious || isBusy} onClick={() => onChange(Math.max(0, pagination.offset - pagination.limit))}>
          Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={!info.hasNext || isBusy} onClick={() => onChange(pagination.offset + pagination.limit)}>
          Next
        </Button>
      </span>
    </nav>
  );
};
