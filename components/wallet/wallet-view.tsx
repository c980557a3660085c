'use client';

import Link from 'next/link';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { Badge, type TBadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { DataTable, type TDataColumn } from '@/components/ui/data-table';
import { ErrorState, Notice } from '@/components/ui/error-state';
import { formatDateTime, formatMoney, formatSignedMoney } from '@/components/ui/format';
import { WalletIcon } from '@/components/ui/icons';
import { signedAmountClass } from '@/components/ui/pnl';
import { Skeleton } from '@/components/ui/skeleton';
import { Sparkline } from '@/components/ui/sparkline';
import { describeError } from '@/lib/client/queries/errors';
import { useBalance, useSession, type TTransaction } from '@/lib/client/queries/users';

const TYPE_LABELS: Record<string, { label: string; tone: TBadgeTone }> = {
  deposit: { label: 'Deposit', tone: 'up' },
  withdraw: { label: 'Withdrawal', tone: 'neutral' },
  pred_buy: { label: 'Market buy', tone: 'accent' },
  pred_sell: { label: 'Market sell', tone: 'accent' },
  pred_payout: { label: 'Payout', tone: 'up' },
  perp_open: { label: 'Perp open', tone: 'warn' },
  perp_close: { label: 'Perp close', tone: 'warn' },
  funding_paid: { label: 'Funding', tone: 'neutral' },
  pool_deposit: { label: 'Pool deposit', tone: 'accent' },
  pool_withdraw: { label: 'Pool withdrawal', tone: 'up' },
  pool_performance_fee: { label: 'Performance fee', tone: 'up' },
};

const typeBadge = (type: string) => TYPE_LABELS[type] ?? { label: type.replace(/_/g, ' '), tone: 'neutral' as const };

const Stat = ({ label, value, className }: { label: string; value: string; className?: string }) => (
  <div className="flex flex-col gap-1">
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className={cn('text-base font-semibold tabular-nums sm:text-lg', className ?? 'text-ink')}>{value}</dd>
  </div>
);

const BalanceCard = ({
  balance,
  totalDeposited,
  totalWithdrawn,
  lifetimePnL,
  equity,
  series,
}: {
  balance: string;
  totalDeposited: string;
  totalWithdrawn: string;
  lifetimePnL: string;
  /** Cash + everything open at market (lib/equity). */
  equity: string;
  series: number[];
}) => (
  <Card aria-labelledby="balance-title" className="flex flex-col gap-6">
    <div className="flex flex-col gap-6 lg:flex-row lg:items-end lg:justify-between">
      <div>
        <h2 id="balance-title" className="text-sm text-ink-muted">
          Virtual balance
        </h2>
        <p data-testid="wallet-balance" className="mt-1 text-4xl font-semibold tracking-tight text-ink tabular-nums sm:text-5xl">
          {formatMoney(balance)}
        </p>
      </div>
      <div className="w-full lg:max-w-sm">
        {series.length >= 2 ? (
          <>
            <Sparkline values={series} label={`Balance after each of the last ${series.length} transactions`} />
            <p className="mt-1 text-xs text-ink-faint">Balance over the last {series.length} transactions</p>
          </>
        ) : (
          <p className="rounded-xl border border-dashed border-line-strong px-4 py-6 text-center text-xs text-ink-faint">
            A chart of your balance appears here once you have a few transactions.
          </p>
        )}
      </div>
    </div>
    <dl className="grid grid-cols-2 gap-x-4 gap-y-5 border-t border-line pt-5 sm:grid-cols-4">
      <Stat label="Portfolio value" value={formatMoney(equity)} />
      <Stat label="Total deposited" value={formatMoney(totalDeposited)} />
      <Stat label="Total withdrawn" value={formatMoney(totalWithdrawn)} />
      <Stat label="Lifetime P&L" value={formatSignedMoney(lifetimePnL)} className={signedAmountClass(lifetimePnL)} />
    </dl>
  </Card>
);

/**
 * What an entry was about (its question, ticker or pool), as a link to that page when there is one.
 * It wraps (two lines at most) rather than truncating: a nowrap line's full width is the table
 * cell's minimum, which pushed the table past the card and the balance column onto its edge.
 */
const EntrySubject = ({ t }: { t: TTransaction }) => {
  if (!t.subject) return null;
  if (!t.link) return <span className="mt-0.5 block text-xs text-ink-muted">{t.subject}</span>;
  return (
    <Link
      href={t.link}
      data-testid="wallet-entry-link"
      className="mt-0.5 line-clamp-2 w-fit max-w-full rounded text-xs font-medium break-words text-accent hover:underline focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none"
    >
      {t.subject}
    </Link>
  );
};

const TRANSACTION_COLUMNS: readonly TDataColumn<TTransaction>[] = [
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
  {
    id: 'type',
    header: 'Type',
    cellClassName: 'align-top',
    cell: (t) => {
      const badge = typeBadge(t.type);
      return <Badge tone={badge.tone}>{badge.label}</Badge>;
    },
  },
  {
    id: 'description',
    header: 'Description',
    cellClassName: 'align-top text-ink',
    cell: (t) => (
      <div className="max-w-md min-w-48 break-words">
        {t.description}
        <EntrySubject t={t} />
      </div>
    ),
  },
  {
    id: 'amount',
    header: 'Amount',
    align: 'right',
    cellClassName: (t) => cn('align-top font-medium whitespace-nowrap tabular-nums', signedAmountClass(t.amount)),
    cell: (t) => formatSignedMoney(t.amount),
  },
  {
    id: 'balance-after',
    header: 'Balance after',
    align: 'right',
    cellClassName: 'align-top whitespace-nowrap text-ink-muted tabular-nums',
    cell: (t) => <span data-testid="wallet-balance-after">{formatMoney(t.balanceAfter)}</span>,
  },
];

/** Phones get stacked rows instead of a five-column table. */
const TransactionItem = ({ t }: { t: TTransaction }) => {
  const badge = typeBadge(t.type);
  return (
    <>
      <div className="min-w-0">
        <Badge tone={badge.tone}>{badge.label}</Badge>
        <p className="mt-1.5 text-sm text-ink">{t.description}</p>
        <EntrySubject t={t} />
        <time dateTime={t.createdAt} className="mt-0.5 block text-xs text-ink-faint">
          {formatDateTime(t.createdAt)}
        </time>
      </div>
      <div className="shrink-0 text-right">
        <p className={cn('text-sm font-medium tabular-nums', signedAmountClass(t.amount))}>{formatSignedMoney(t.amount)}</p>
        <p className="mt-0.5 text-xs text-ink-faint tabular-nums">{formatMoney(t.balanceAfter)}</p>
      </div>
    </>
  );
};

const Transactions = ({
  transactions,
  hasMore,
  isLoadingMore,
  loadMoreError,
  onLoadMore,
}: {
  transactions: TTransaction[];
  hasMore: boolean;
  isLoadingMore: boolean;
  loadMoreError: unknown;
  onLoadMore: () => void;
}) => (
  <Card aria-labelledby="history-title" isPadded={false} className="overflow-hidden">
    <div className="flex items-baseline justify-between px-5 pt-5 pb-4 sm:px-6">
      <CardTitle id="history-title">Transactions</CardTitle>
      <span className="text-xs text-ink-faint">Newest first</span>
    </div>
    <DataTable
      rows={transactions}
      columns={TRANSACTION_COLUMNS}
      rowKey={(t) => t.id}
      caption="Transaction history, newest first"
      renderItem={(t) => <TransactionItem t={t} />}
      itemClassName="flex items-start justify-between gap-3 border-t border-line px-5 py-3.5"
      empty={<div className="border-t border-line px-5 py-10 text-center text-sm text-ink-muted">Deposits, trades, payouts and funding will be listed here.</div>}
    />
    {(hasMore || !!loadMoreError) && (
      <div className="flex flex-col items-center gap-3 border-t border-line px-5 py-4">
        {!!loadMoreError && <Notice tone="error">{describeError(loadMoreError)}</Notice>}
        <Button variant="secondary" onClick={onLoadMore} isLoading={isLoadingMore}>
          {loadMoreError ? 'Try again' : 'Load more'}
        </Button>
      </div>
    )}
  </Card>
);

const WalletSkeleton = () => (
  <div className="flex flex-col gap-6" role="status" aria-label="Loading wallet">
    <div className="flex flex-col gap-6 rounded-2xl border border-line bg-surface p-6">
      <Skeleton className="h-4 w-28" />
      <Skeleton className="h-12 w-56" />
      <div className="grid grid-cols-2 gap-4 border-t border-line pt-5 sm:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <div key={i} className="flex flex-col gap-2">
            <Skeleton className="h-3 w-20" />
            <Skeleton className="h-5 w-24" />
          </div>
        ))}
      </div>
    </div>
    <div className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-6">
      <Skeleton className="h-5 w-32" />
      {[0, 1, 2, 3, 4].map((i) => (
        <Skeleton key={i} className="h-10 w-full" />
      ))}
    </div>
  </div>
);

const WalletForUser = ({ userId }: { userId: string }) => {
  const wallet = useBalance(userId);
  if (wallet.isPending) return <WalletSkeleton />;
  if (wallet.isError && !wallet.data) {
    return <ErrorState message={describeError(wallet.error)} onRetry={() => wallet.refetch()} isRetrying={wallet.isFetching} />;
  }
  const data = wallet.data;
  if (!data) return <WalletSkeleton />;
  return (
    <div className="flex flex-col gap-6">
      <BalanceCard
        balance={data.balance}
        totalDeposited={data.totalDeposited}
        totalWithdrawn={data.totalWithdrawn}
        lifetimePnL={data.lifetimePnL}
        equity={data.account.equity}
        series={data.balanceSeries}
      />
      <Transactions
        transactions={data.transactions}
        hasMore={wallet.hasNextPage}
        isLoadingMore={wallet.isFetchingNextPage}
        loadMoreError={wallet.isFetchNextPageError ? wallet.error : null}
        onLoadMore={() => wallet.fetchNextPage()}
      />
    </div>
  );
};

export const WalletView = () => {
  const session = useSession();
  if (session.isPending) return <WalletSkeleton />;
  if (session.isSignedOut) {
    return (
      <SignInPrompt
        icon={<WalletIcon />}
        title="Sign in to see your wallet"
        description="Your balance, deposits, payouts and every trade you make will be listed here."
      />
    );
  }
  if (!session.user) {
    return <ErrorState message={describeError(session.failure)} onRetry={() => session.refetch()} isRetrying={session.isFetching} />;
  }
  return <WalletForUser userId={session.user.id} />;
};
