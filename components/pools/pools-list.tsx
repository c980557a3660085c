'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { LiveValue } from '@/components/realtime/live-value';
import { Avatar } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/components/ui/cn';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatCompactMoney, formatCount, formatMoney, formatSignedMoney } from '@/components/ui/format';
import { PoolsIcon } from '@/components/ui/icons';
import { PercentChange } from '@/components/ui/percent-change';
import { pnlClass } from '@/components/ui/pnl';
import { Skeleton } from '@/components/ui/skeleton';
import { Sparkline } from '@/components/ui/sparkline';
import { describeError } from '@/lib/client/queries/errors';
import { poolSparkline, usePools, type TPool } from '@/lib/client/queries/pools';
import { formatFeeRate, formatSharePrice } from './format';
import { TierBadge } from './tier-badge';

const Stat = ({ label, children, className }: { label: string; children: ReactNode; className?: string }) => (
  <div className={cn('flex flex-col gap-0.5', className)}>
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className="text-sm font-medium text-ink tabular-nums">{children}</dd>
  </div>
);

/** The caller's stake in a row, when they hold shares of the pool. */
const StakeStat = ({ stake }: { stake: NonNullable<TPool['userStake']> }) => (
  <Stat label="Your stake">
    {formatMoney(stake.value)}{' '}
    <span className={cn('text-xs', pnlClass(stake.unrealizedPnL))}>
      {formatSignedMoney(stake.unrealizedPnL)}
      <span className="sr-only"> unrealized profit or loss</span>
    </span>
  </Stat>
);

/** One pool: the whole card is the link (the pool's name is its name). */
const PoolCard = ({ pool }: { pool: TPool }) => {
  const managerName = pool.manager.displayName || pool.manager.username;
  const hasStake = !!pool.userStake && pool.userStake.shares > 0;
  return (
    <article
      aria-label={pool.name}
      className="group relative grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 gap-y-3 rounded-2xl border border-line bg-surface p-4 transition-colors focus-within:border-accent/60 hover:border-line-strong hover:bg-elevated/40 sm:p-5 lg:grid-cols-[minmax(0,1.5fr)_8rem_minmax(0,1fr)_minmax(0,1.6fr)]"
    >
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <TierBadge tier={pool.tier} />
          {!pool.isActive && <Badge tone="down">Closed to deposits</Badge>}
        </div>
        <h3 className="mt-1.5 truncate text-base font-semibold text-ink">
          <Link href={`/pools/${encodeURIComponent(pool.id)}`} className="outline-none after:absolute after:inset-0 after:rounded-2xl focus-visible:underline">
            {pool.name}
          </Link>
        </h3>
        <p className="mt-1 flex min-w-0 items-center gap-2 text-xs text-ink-muted">
          <Avatar src={pool.manager.profileImageUrl} name={managerName} size="sm" />
          <span className="truncate">
            Managed by <span className="font-medium text-ink">{managerName}</span>
          </span>
        </p>
      </div>
      <div className="text-right lg:order-3">
        <p className="text-lg font-semibold text-ink tabular-nums">
          <LiveValue value={pool.sharePrice}>{formatSharePrice(pool.sharePrice)}</LiveValue>
          <span className="sr-only"> per share</span>
        </p>
        <PercentChange percent={pool.priceChange24h} />
      </div>
      <div className="col-span-2 lg:order-2 lg:col-span-1">
        <Sparkline values={poolSparkline(pool)} height={48} className="h-12" label={`${pool.name} share price over the last 24 hours, now ${formatSharePrice(pool.sharePrice)}`} />
      </div>
      <dl className="col-span-2 grid grid-cols-3 gap-3 border-t border-line pt-3 lg:order-4 lg:col-span-1 lg:border-t-0 lg:border-l lg:pt-0 lg:pl-4">
        <Stat label="NAV">
          <LiveValue value={pool.totalValue}>{formatCompactMoney(pool.totalValue)}</LiveValue>
        </Stat>
        <Stat label="Fee">
          <span title="Performance fee: the manager's share of your profit, taken when you withdraw">{formatFeeRate(pool.performanceFeeRate)}</span>
        </Stat>
        <Stat label="Investors">{formatCount(pool.investorCount)}</Stat>
        {hasStake && <StakeStat stake={pool.userStake!} />}
      </dl>
    </article>
  );
};

const PoolCardSkeleton = () => (
  <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-4 rounded-2xl border border-line bg-surface p-4 sm:p-5 lg:grid-cols-[minmax(0,1.5fr)_8rem_minmax(0,1fr)_minmax(0,1.6fr)]">
    <div className="flex flex-col gap-2">
      <Skeleton className="h-4 w-16" />
      <Skeleton className="h-5 w-40" />
      <Skeleton className="h-4 w-32" />
    </div>
    <Skeleton className="h-12 w-full max-lg:hidden" />
    <div className="flex flex-col items-end gap-2">
      <Skeleton className="h-5 w-20" />
      <Skeleton className="h-4 w-14" />
    </div>
    <Skeleton className="col-span-2 h-10 w-full lg:col-span-1" />
  </div>
);

/** The pools page body: every pool with tier, manager, NAV, share price and its 24 h move, fee, investors and the caller's stake. */
export const PoolsList = () => {
  const pools = usePools();
  if (pools.isPending) {
    return (
      <div role="status" aria-label="Loading pools" className="flex flex-col gap-3">
        {[0, 1, 2, 3].map((i) => (
          <PoolCardSkeleton key={i} />
        ))}
      </div>
    );
  }
  if (pools.isError) {
    return <ErrorState title="Pools did not load" message={describeError(pools.error)} onRetry={() => pools.refetch()} isRetrying={pools.isFetching} />;
  }
  if (pools.data.length === 0) {
    return (
      <EmptyState
        icon={<PoolsIcon />}
        title="No pools to join yet"
        description="Pools managed by NPC traders will appear here, with their returns, size and how much you have deposited."
      />
    );
  }
  return (
    <ul aria-label="Trading pools" className="flex flex-col gap-3">
      {pools.data.map((p) => (
        <li key={p.id}>
          <PoolCard pool={p} />
        </li>
      ))}
    </ul>
  );
};
