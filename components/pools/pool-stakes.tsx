'use client';

import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { DataTable, type TDataColumn } from '@/components/ui/data-table';
import { formatMoney, formatShortDate, formatSignedMoney } from '@/components/ui/format';
import { pnlClass } from '@/components/ui/pnl';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { useMyPoolDeposits, type TPoolLot } from '@/lib/client/queries/pools';
import { formatPoolShares } from './format';

const poolLink = (lot: TPoolLot) => (
  <Link href={`/pools/${encodeURIComponent(lot.poolId)}`} className="block truncate font-medium text-ink hover:underline" title={lot.poolName}>
    {lot.poolName}
  </Link>
);

const COLUMNS: readonly TDataColumn<TPoolLot>[] = [
  { id: 'pool', header: 'Pool', cellClassName: 'max-w-0', cell: poolLink },
  { id: 'date', header: 'Deposited', width: 'w-28', cellClassName: 'text-ink-muted tabular-nums', cell: (l) => formatShortDate(l.createdAt) },
  { id: 'shares', header: 'Shares', width: 'w-28', align: 'right', cellClassName: 'tabular-nums', cell: (l) => formatPoolShares(l.remainingShares) },
  { id: 'cost', header: 'Cost', width: 'w-28', align: 'right', cellClassName: 'text-ink-muted tabular-nums', cell: (l) => formatMoney(l.costBasis) },
  { id: 'value', header: 'Value', width: 'w-28', align: 'right', cellClassName: 'font-medium tabular-nums', cell: (l) => formatMoney(l.currentValue) },
  {
    id: 'pnl',
    header: 'P&L',
    width: 'w-28',
    align: 'right',
    cellClassName: (l) => cn('font-medium tabular-nums', pnlClass(l.unrealizedPnL)),
    cell: (l) => formatSignedMoney(l.unrealizedPnL),
  },
];

const LotItem = ({ lot }: { lot: TPoolLot }) => (
  <article aria-label={`${lot.poolName} deposit`} className="flex items-center justify-between gap-3 rounded-xl border border-line bg-canvas/50 p-4 text-sm">
    <div className="flex min-w-0 flex-col gap-1">
      {poolLink(lot)}
      <span className="text-xs text-ink-muted tabular-nums">
        {formatPoolShares(lot.remainingShares)} shares · cost {formatMoney(lot.costBasis)} · {formatShortDate(lot.createdAt)}
      </span>
    </div>
    <div className="flex shrink-0 flex-col items-end">
      <span className="font-medium text-ink tabular-nums">{formatMoney(lot.currentValue)}</span>
      <span className={cn('text-xs font-medium tabular-nums', pnlClass(lot.unrealizedPnL))}>{formatSignedMoney(lot.unrealizedPnL)}</span>
    </div>
  </article>
);

/** Whether the user holds shares of any pool (undefined while loading): the portfolio's empty state asks. */
export const useHasPoolStakes = (userId: string) => {
  const deposits = useMyPoolDeposits(userId);
  return deposits.isPending ? undefined : deposits.isError || deposits.data.active.length > 0;
};

/** The portfolio's pool section: the user's lots that still hold shares, valued now, each linking to its pool. */
export const PoolStakes = ({ userId }: { userId: string }) => {
  const deposits = useMyPoolDeposits(userId);
  if (deposits.isPending) return <Skeleton className="h-40 w-full rounded-2xl" />;
  if (deposits.isError) {
    return (
      <Card aria-labelledby="pool-stakes-title" className="flex flex-col gap-3">
        <CardTitle id="pool-stakes-title">Pool deposits</CardTitle>
        <div role="alert" className="flex items-center justify-between gap-3 text-sm text-ink-muted">
          {describeError(deposits.error)}
          <Button size="sm" variant="secondary" onClick={() => deposits.refetch()} isLoading={deposits.isFetching}>
            Try again
          </Button>
        </div>
      </Card>
    );
  }
  const { active, totals } = deposits.data;
  if (active.length === 0) return null;
  return (
    <Card aria-labelledby="pool-stakes-title" isPadded={false} className="overflow-hidden">
      <div className="flex flex-wrap items-baseline justify-between gap-3 px-5 pt-5 pb-4 sm:px-6">
        <CardTitle id="pool-stakes-title">Pool deposits</CardTitle>
        <p className="text-sm text-ink-muted">
          Value <span className="font-semibold text-ink tabular-nums">{formatMoney(totals.currentValue)}</span> · Unrealized P&L{' '}
          <span className={cn('font-semibold tabular-nums', pnlClass(totals.unrealizedPnL))}>{formatSignedMoney(totals.unrealizedPnL)}</span>
        </p>
      </div>
      <DataTable
        rows={active}
        columns={COLUMNS}
        rowKey={(l) => l.id}
        caption="Your pool deposits"
        isFixed
        renderItem={(l) => <LotItem lot={l} />}
        listClassName="flex flex-col gap-3 px-4 pb-4"
      />
    </Card>
  );
};
