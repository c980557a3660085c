'use client';

import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Pager } from '@/components/moderation/pager';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatCount } from '@/components/ui/format';
import { CheckIcon } from '@/components/ui/icons';
import { Label } from '@/components/ui/field';
import { RelativeTime } from '@/components/ui/relative-time';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import {
  isForbidden,
  REPORT_PRIORITIES,
  REPORT_STATUSES,
  reportQueueFromParams,
  reportQueueToParams,
  useAdminReports,
  useReportStats,
  type TAdminReport,
  type TReportFilters,
} from '@/lib/client/queries/admin';
import { describeError } from '@/lib/client/queries/errors';
import { REPORT_CATEGORIES, reportCategoryLabel } from '@/lib/client/queries/moderation';
import { NotAllowed } from './admin-console';
import { PRIORITY_EDGE, PRIORITY_LABEL, PRIORITY_TONE, SOURCE_LABEL, STATUS_LABEL, STATUS_TONE } from './format';

const SORTS = [
  { value: 'priority:desc', label: 'Most urgent first' },
  { value: 'created:desc', label: 'Newest first' },
  { value: 'created:asc', label: 'Oldest first' },
  { value: 'updated:desc', label: 'Recently updated' },
] as const;

/** The queue's totals: what waits, what is being looked at, what was closed. */
const QueueTotals = () => {
  const stats = useReportStats();
  if (stats.isPending) return <Skeleton className="h-20 w-full rounded-2xl" />;
  if (stats.isError) return null;
  const t = stats.data.totals;
  const cells = [
    { label: 'Pending', value: t.pending },
    { label: 'Reviewing', value: t.reviewing },
    { label: 'Resolved', value: t.resolved },
    { label: 'Dismissed', value: t.dismissed },
    { label: 'Last 7 days', value: stats.data.recentActivity.last7Days },
  ];
  return (
    <dl aria-label="Report totals" className="grid grid-cols-3 gap-px overflow-hidden rounded-2xl border border-line bg-line sm:grid-cols-5">
      {cells.map((c) => (
        <div key={c.label} className="flex flex-col-reverse gap-1 bg-surface px-3 py-3 text-center">
          <dt className="text-xs text-ink-muted">{c.label}</dt>
          <dd className="text-lg font-semibold text-ink tabular-nums">{formatCount(c.value)}</dd>
        </div>
      ))}
    </dl>
  );
};

const FilterSelect = ({ id, label, value, onChange, options }: { id: string; label: string; value: string; onChange: (v: string) => void; options: readonly { value: string; label: string }[] }) => (
  // Each select is at least as wide as its longest option (11.5rem: "Players and system" with the
  // chevron): the row wraps instead of truncating ("Any categc" at 1280 px before issue 35).
  <div className="flex min-w-[11.5rem] flex-1 basis-[11.5rem] flex-col gap-1">
    <Label htmlFor={id} className="text-xs text-ink-muted">
      {label}
    </Label>
    <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </Select>
  </div>
);

const Filters = ({ filters, onChange }: { filters: TReportFilters; onChange: (f: TReportFilters) => void }) => {
  const set = <K extends keyof TReportFilters>(key: K, value: string) => onChange({ ...filters, [key]: value === '' ? undefined : value });
  return (
    <div role="group" aria-label="Filter and sort reports" className="flex flex-wrap gap-3">
      <FilterSelect
        id="queue-status"
        label="Status"
        value={filters.status ?? 'all'}
        onChange={(v) => set('status', v === 'all' ? '' : v)}
        options={[{ value: 'all', label: 'Any status' }, ...REPORT_STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] }))]}
      />
      <FilterSelect
        id="queue-category"
        label="Category"
        value={filters.category ?? ''}
        onChange={(v) => set('category', v)}
        options={[{ value: '', label: 'Any category' }, ...REPORT_CATEGORIES.map((c) => ({ value: c.value, label: c.label }))]}
      />
      <FilterSelect
        id="queue-priority"
        label="Priority"
        value={filters.priority ?? ''}
        onChange={(v) => set('priority', v)}
        options={[{ value: '', label: 'Any priority' }, ...REPORT_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABEL[p] }))]}
      />
      <FilterSelect
        id="queue-type"
        label="Type"
        value={filters.reportType ?? ''}
        onChange={(v) => set('reportType', v)}
        options={[
          { value: '', label: 'Posts and users' },
          { value: 'post', label: 'Posts' },
          { value: 'user', label: 'Users' },
        ]}
      />
      <FilterSelect
        id="queue-source"
        label="Source"
        value={filters.source ?? ''}
        onChange={(v) => set('source', v)}
        options={[
          { value: '', label: 'Players and system' },
          { value: 'user', label: 'Player reports' },
          { value: 'system', label: 'System reports' },
        ]}
      />
      <FilterSelect
        id="queue-sort"
        label="Sort"
        value={`${filters.sortBy}:${filters.sortOrder}`}
        onChange={(v) => {
          const [sortBy, sortOrder] = v.split(':') as [TReportFilters['sortBy'], TReportFilters['sortOrder']];
          onChange({ ...filters, sortBy, sortOrder });
        }}
        options={SORTS}
      />
    </div>
  );
};

const person = (p: { username: string } | null) => (p ? `@${p.username}` : 'unknown');

/** What a row says about its report, in one sentence for screen readers. */
const rowName = (r: TAdminReport) =>
  `${PRIORITY_LABEL[r.priority]} priority, ${STATUS_LABEL[r.status]}: ${reportCategoryLabel(r.category)} report about ${
    r.reportType === 'post' ? `a post by ${person(r.reportedUser)}` : person(r.reportedUser)
  }${r.source === 'system' ? ', filed by the system' : `, from ${person(r.reporter)}`}`;

const QueueRow = ({
  report,
  isActive,
  linkRef,
  onFocus,
}: {
  report: TAdminReport;
  isActive: boolean;
  linkRef: (el: HTMLAnchorElement | null) => void;
  onFocus: () => void;
}) => (
  <Link
    ref={linkRef}
    href={`/admin/reports/${encodeURIComponent(report.id)}`}
    tabIndex={isActive ? 0 : -1}
    onFocus={onFocus}
    aria-label={rowName(report)}
    aria-current={isActive ? 'true' : undefined}
    className={cn(
      'flex flex-col gap-1.5 border-l-4 px-4 py-3 transition-colors hover:bg-elevated/60 focus-visible:bg-elevated focus-visible:outline-none sm:px-5',
      PRIORITY_EDGE[report.priority],
      isActive && 'bg-elevated/70',
    )}
  >
    <span className="flex flex-wrap items-center gap-2">
      <Badge tone={PRIORITY_TONE[report.priority]}>{PRIORITY_LABEL[report.priority]}</Badge>
      <Badge tone={STATUS_TONE[report.status]}>{STATUS_LABEL[report.status]}</Badge>
      <span className="text-sm font-medium text-ink">{reportCategoryLabel(report.category)}</span>
      <span className="text-xs text-ink-muted">
        {report.reportType === 'post' ? 'Post' : 'User'} · {SOURCE_LABEL[report.source]}
      </span>
      <RelativeTime iso={report.createdAt} className="ml-auto text-xs text-ink-faint" />
    </span>
    <span className="flex flex-wrap items-center gap-x-2 text-xs text-ink-muted">
      <span>
        About <span className="font-medium text-ink">{person(report.reportedUser)}</span>
      </span>
      {report.reportedUser?.isBanned && <Badge tone="down">Banned</Badge>}
      <span aria-hidden="true">·</span>
      <span>{report.source === 'system' ? 'Filed by the system' : `From ${person(report.reporter)}`}</span>
      {report.relatedCount > 0 && (
        <>
          <span aria-hidden="true">·</span>
          <span>
            {formatCount(report.relatedCount)} related {report.relatedCount === 1 ? 'report' : 'reports'}
          </span>
        </>
      )}
    </span>
    <span className="line-clamp-2 text-sm text-ink">{report.reportedPost ? `“${report.reportedPost.content}”` : report.reason}</span>
    {report.reportedPost && <span className="line-clamp-1 text-xs text-ink-muted">Reason: {report.reason}</span>}
  </Link>
);

const isTypingIn = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));

/**
 * The report queue: totals, filters (status, category, priority, type, source) and sort kept in
 * the page address, then the reports, coloured by priority. Keyboard: j / k or the arrow keys move
 * through the rows, Enter opens the one in focus; Home and End jump to the ends.
 */
export const ReportQueue = () => {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  // A change not yet in the address: router.replace lands later, and a second change made before
  // it must build on the first, not on the address it is about to replace.
  // It holds while the address is still the one it was made from.
  const here = searchParams.toString();
  const [pending, setPending] = useState<{ filters: TReportFilters; offset: number; from: string } | null>(null);
  const { filters, offset } = pending && pending.from === here ? pending : reportQueueFromParams(searchParams);
  const query = useAdminReports(filters, offset);
  const reports = query.data?.reports;
  const [active, setActive] = useState(0);
  const linkRefs = useRef<Array<HTMLAnchorElement | null>>([]);
  const listRef = useRef<HTMLUListElement>(null);

  const go = (next: TReportFilters, nextOffset: number) => {
    const qs = reportQueueToParams(next, nextOffset).toString();
    setPending({ filters: next, offset: nextOffset, from: here });
    setActive(0);
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };

  const count = reports?.length ?? 0;
  const focusRow = (i: number) => {
    if (count === 0) return;
    const next = Math.min(count - 1, Math.max(0, i));
    setActive(next);
    linkRefs.current[next]?.focus();
  };

  // j and k work anywhere on the page except in a form field, as in a mail client.
  const focusRowRef = useRef(focusRow);
  const activeRef = useRef(active);
  useEffect(() => {
    focusRowRef.current = focusRow;
    activeRef.current = active;
  });
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey || isTypingIn(e.target)) return;
      if (listRef.current?.contains(e.target as Node)) return;
      if (e.key === 'j' || e.key === 'k') {
        e.preventDefault();
        const inList = document.activeElement && listRef.current?.contains(document.activeElement);
        focusRowRef.current(inList ? activeRef.current + (e.key === 'j' ? 1 : -1) : activeRef.current);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const onListKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const moves: Record<string, () => number> = {
      ArrowDown: () => active + 1,
      j: () => active + 1,
      ArrowUp: () => active - 1,
      k: () => active - 1,
      Home: () => 0,
      End: () => count - 1,
    };
    const move = moves[e.key];
    if (!move || e.metaKey || e.ctrlKey || e.altKey) return;
    e.preventDefault();
    focusRow(move());
  };

  let body;
  if (query.isPending) {
    body = (
      <div role="status" aria-label="Loading reports" className="flex flex-col gap-2 p-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-20 w-full rounded-xl" />
        ))}
      </div>
    );
  } else if (query.isError && !reports) {
    body = isForbidden(query.error) ? (
      <NotAllowed description="Your account may not work the report queue." />
    ) : (
      <ErrorState className="m-4" message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />
    );
  } else if (!reports || reports.length === 0) {
    body = (
      <EmptyState
        className="m-4"
        icon={<CheckIcon />}
        title={filters.status === 'pending' ? 'Nothing waiting' : 'No reports match'}
        description={filters.status === 'pending' ? 'Every report has been looked at. New ones appear here.' : 'Try another filter.'}
      />
    );
  } else {
    body = (
      <ul
        ref={listRef}
        aria-label="Reports"
        aria-busy={query.isPlaceholderData || undefined}
        onKeyDown={onListKeyDown}
        className={cn('flex flex-col divide-y divide-line', query.isPlaceholderData && 'opacity-60')}
      >
        {reports.map((r, i) => (
          <li key={r.id}>
            <QueueRow
              report={r}
              isActive={i === Math.min(active, reports.length - 1)}
              onFocus={() => setActive(i)}
              linkRef={(el) => {
                linkRefs.current[i] = el;
              }}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section aria-labelledby="queue-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="queue-title" className="text-lg font-semibold tracking-tight text-ink">
          Report queue
        </h2>
        <p className="text-xs text-ink-faint">
          <kbd className="rounded border border-line-strong px-1">j</kbd> / <kbd className="rounded border border-line-strong px-1">k</kbd> or arrow keys to move,{' '}
          <kbd className="rounded border border-line-strong px-1">Enter</kbd> to open
        </p>
      </div>
      <QueueTotals />
      <Filters filters={filters} onChange={(f) => go(f, 0)} />
      <Card isPadded={false} className="overflow-hidden">
        {body}
      </Card>
      {query.data && (
        <Pager
          label="Report queue pages"
          pagination={query.data.pagination}
          shown={query.data.reports.length}
          onChange={(o) => go(filters, o)}
          isBusy={query.isPlaceholderData}
        />
      )}
    </section>
  );
};
