'use client';

import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { DataTable, type TDataColumn } from '@/components/ui/data-table';
import { ErrorState, Notice } from '@/components/ui/error-state';
import { formatCount, formatDateTime, formatShortDate } from '@/components/ui/format';
import { CheckIcon, SparkIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { WaitlistCard } from '@/components/waitlist/waitlist-card';
import { describeError } from '@/lib/client/queries/errors';
import { describePointsReason, usePoints, type TMilestoneRow, type TPointsTransaction } from '@/lib/client/queries/points';
import { useSession } from '@/lib/client/queries/users';
import { TransferForm } from './transfer-form';

const count = new Intl.NumberFormat('en-US');
/** "+100" / "−20" (a real minus sign); the sign is in the text, not only in the colour. */
const formatSignedPoints = (n: number) => (n > 0 ? `+${count.format(n)}` : n < 0 ? `−${count.format(-n)}` : '0');
const amountClass = (n: number) => (n > 0 ? 'text-up' : n < 0 ? 'text-down' : 'text-ink-muted');

const Milestones = ({ milestones }: { milestones: readonly TMilestoneRow[] }) => {
  const done = milestones.filter((m) => m.awarded).length;
  return (
    <Card aria-labelledby="milestones-title">
      <div className="flex items-baseline justify-between gap-3">
        <CardTitle id="milestones-title">Milestones</CardTitle>
        <span className="text-xs text-ink-faint">
          {done} of {milestones.length} done
        </span>
      </div>
      <ul className="mt-4 flex flex-col divide-y divide-line" aria-label="Milestones">
        {milestones.map((m) => (
          <li key={m.milestone} className="flex items-center justify-between gap-3 py-3 first:pt-0 last:pb-0" data-testid={`milestone-${m.milestone}`}>
            <div className="flex min-w-0 items-center gap-3">
              <span
                aria-hidden="true"
                className={cn(
                  'flex size-6 shrink-0 items-center justify-center rounded-full border',
                  m.awarded ? 'border-up/40 bg-up-soft text-up' : 'border-line-strong text-transparent',
                )}
              >
                <CheckIcon className="size-3.5" />
              </span>
              <div className="min-w-0">
                <p className={cn('text-sm', m.awarded ? 'text-ink' : 'text-ink-muted')}>{m.label}</p>
                {m.awardedAt && <p className="text-xs text-ink-faint">Done on {formatShortDate(m.awardedAt)}</p>}
              </div>
            </div>
            <div className="flex shrink-0 items-center gap-2">
              <span className="text-sm font-medium tabular-nums text-ink">{m.points} points</span>
              <Badge tone={m.awarded ? 'up' : 'neutral'}>{m.awarded ? 'Done' : 'To do'}</Badge>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
};

const historyColumns = (milestones: readonly TMilestoneRow[]): readonly TDataColumn<TPointsTransaction>[] => [
  {
    id: 'date',
    header: 'Date',
    cellClassName: 'align-top text-ink-muted',
    cell: (t) => (
      <time dateTime={t.createdAt} className="whitespace-nowrap">
        {formatDateTime(t.createdAt)}
      </time>
    ),
  },
  { id: 'reason', header: 'Reason', cellClassName: 'align-top text-ink', cell: (t) => describePointsReason(t.reason, milestones) },
  {
    id: 'amount',
    header: 'Points',
    align: 'right',
    cellClassName: (t) => cn('align-top font-medium whitespace-nowrap tabular-nums', amountClass(t.amount)),
    cell: (t) => formatSignedPoints(t.amount),
  },
  {
    id: 'balance',
    header: 'Before → after',
    align: 'right',
    cellClassName: 'align-top whitespace-nowrap text-ink-muted tabular-nums',
    cell: (t) => (
      <>
        {count.format(t.pointsBefore)} → {count.format(t.pointsAfter)}
      </>
    ),
  },
];

const HistoryItem = ({ t, milestones }: { t: TPointsTransaction; milestones: readonly TMilestoneRow[] }) => (
  <>
    <div className="min-w-0">
      <p className="text-sm text-ink">{describePointsReason(t.reason, milestones)}</p>
      <time dateTime={t.createdAt} className="mt-0.5 block text-xs text-ink-faint">
        {formatDateTime(t.createdAt)}
      </time>
    </div>
    <div className="shrink-0 text-right">
      <p className={cn('text-sm font-medium tabular-nums', amountClass(t.amount))}>{formatSignedPoints(t.amount)}</p>
      <p className="mt-0.5 text-xs text-ink-faint tabular-nums">
        {count.format(t.pointsBefore)} → {count.format(t.pointsAfter)}
      </p>
    </div>
  </>
);

const PointsSkeleton = () => (
  <div role="status" aria-label="Loading your points" className="flex flex-col gap-6">
    <div className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-6">
      <Skeleton className="h-4 w-24" />
      <Skeleton className="h-12 w-40" />
    </div>
    <div className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-6">
      {[0, 1, 2, 3, 4].map((i) => (
        <Skeleton key={i} className="h-8 w-full" />
      ))}
    </div>
  </div>
);

const PointsBody = ({ userId }: { userId: string }) => {
  const query = usePoints(userId);
  // A failed "Load more" keeps the loaded pages (the query is in error with data): only a first load fails the page.
  if (!query.data) {
    return query.isError ? <ErrorState message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} /> : <PointsSkeleton />;
  }
  const { points, milestones, transactions } = query.data;
  return (
    <div className="flex flex-col gap-6">
      <Card aria-labelledby="points-balance-title" className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="points-balance-title" className="text-sm text-ink-muted">
            Points balance
          </h2>
          <p data-testid="points-balance" className="mt-1 text-4xl font-semibold tracking-tight text-ink tabular-nums sm:text-5xl">
            {count.format(points)}
          </p>
        </div>
        <p className="inline-flex items-center gap-1.5 text-sm text-ink-muted">
          <SparkIcon className="size-4 text-accent" /> Earn points with milestones, referrals and bonuses.
        </p>
      </Card>
      <WaitlistCard />
      <div className="grid gap-6 lg:grid-cols-2">
        <Milestones milestones={milestones} />
        <TransferForm balance={points} />
      </div>
      <Card aria-labelledby="points-history-title" isPadded={false} className="overflow-hidden">
        <div className="flex items-baseline justify-between px-5 pt-5 pb-4 sm:px-6">
          <CardTitle id="points-history-title">History</CardTitle>
          <span className="text-xs text-ink-faint">
            {formatCount(transactions.length)} shown, newest first
          </span>
        </div>
        <DataTable
          rows={transactions}
          columns={historyColumns(milestones)}
          rowKey={(t) => t.id}
          caption="Points history, newest first"
          renderItem={(t) => <HistoryItem t={t} milestones={milestones} />}
          itemClassName="flex items-start justify-between gap-3 border-t border-line px-5 py-3.5"
          empty={<div className="border-t border-line px-5 py-10 text-center text-sm text-ink-muted">Milestones, transfers and bonuses will be listed here.</div>}
        />
        {(query.hasNextPage || query.isFetchNextPageError) && (
          <div className="flex flex-col items-center gap-3 border-t border-line px-5 py-4">
            {query.isFetchNextPageError && <Notice tone="error">{describeError(query.error)}</Notice>}
            <Button variant="secondary" onClick={() => query.fetchNextPage()} isLoading={query.isFetchingNextPage}>
              {query.isFetchNextPageError ? 'Try again' : 'Load more'}
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
};

/** The points page: balance, waitlist place, milestones, transfers and history. */
export const PointsView = () => {
  const session = useSession();
  if (session.isPending) return <PointsSkeleton />;
  if (session.isSignedOut) return <SignInPrompt description="Sign in to see your points, milestones and waitlist place." />;
  if (!session.user) return <ErrorState message={describeError(session.failure)} onRetry={() => session.refetch()} isRetrying={session.isFetching} />;
  return <PointsBody key={session.user.id} userId={session.user.id} />;
};
