'use client';

import Link from 'next/link';
import { useRef, useState } from 'react';
import { LiveValue } from '@/components/realtime/live-value';
import { Avatar } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button, LinkButton } from '@/components/ui/button';
import { DetailHeader, DetailPage, DetailSkeleton, DetailStat } from '@/components/ui/detail-page';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatCompactMoney, formatCount, formatMoney, formatSignedMoney } from '@/components/ui/format';
import { PoolsIcon } from '@/components/ui/icons';
import { PercentChange } from '@/components/ui/percent-change';
import { pnlClass } from '@/components/ui/pnl';
import { StickyActionBar, StickyActionBarSpacer } from '@/components/ui/sticky-action-bar';
import { describeError, hasErrorCode } from '@/lib/client/queries/errors';
import { usePool, type TPool } from '@/lib/client/queries/pools';
import { profileHref } from '@/lib/users/links';
import { formatFeeRate, formatSharePrice } from './format';
import { InvestPanel, type TInvestMode, type TInvestRequest } from './invest-panel';
import { ManagerPosts } from './manager-posts';
import { NavChart } from './nav-chart';
import { PoolActivity } from './pool-activity';
import { PoolHoldings } from './pool-holdings';
import { PoolLots } from './pool-lots';
import { TierBadge } from './tier-badge';

const PoolHeader = ({ pool }: { pool: TPool }) => {
  const managerName = pool.manager.displayName || pool.manager.username;
  return (
    <DetailHeader
      tags={
        <>
          <TierBadge tier={pool.tier} />
          {!pool.isActive && <Badge tone="down">Closed to deposits</Badge>}
          <Link href={profileHref(pool.manager)} className="inline-flex items-center gap-1.5 hover:text-ink hover:underline">
            <Avatar src={pool.manager.profileImageUrl} name={managerName} size="sm" />
            <span>
              Managed by <span className="font-medium text-ink">{managerName}</span>
            </span>
          </Link>
          <span aria-hidden="true">·</span>
          <span>{formatFeeRate(pool.performanceFeeRate)} performance fee</span>
        </>
      }
      title={pool.name}
    >
      {pool.description && <p className="basis-full text-sm text-ink-muted">{pool.description}</p>}
      <div>
        <p className="text-xs font-medium tracking-wide text-ink-muted uppercase">Net asset value</p>
        <p data-testid="pool-nav" className="text-4xl font-semibold tracking-tight text-ink tabular-nums sm:text-5xl">
          <LiveValue value={pool.totalValue}>{formatMoney(pool.totalValue)}</LiveValue>
        </p>
      </div>
      <div>
        <p className="text-xs font-medium tracking-wide text-ink-muted uppercase">Share price</p>
        <p data-testid="pool-share-price" className="text-2xl font-semibold tracking-tight text-ink tabular-nums sm:text-3xl">
          <LiveValue value={pool.sharePrice}>{formatSharePrice(pool.sharePrice)}</LiveValue>
        </p>
        <PercentChange percent={pool.priceChange24h} className="mt-1" />
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 pb-1 text-sm sm:ml-auto sm:grid-cols-3">
        <DetailStat label="Lifetime P&L">
          <span className={pnlClass(pool.lifetimePnL)}>{formatSignedMoney(pool.lifetimePnL)}</span>
        </DetailStat>
        <DetailStat label="Cash / in positions">
          {formatCompactMoney(pool.cash)} / {formatCompactMoney(pool.positionsValue)}
        </DetailStat>
        <DetailStat label="Open positions">{formatCount(pool.openPositions)}</DetailStat>
        <DetailStat label="Investors">{formatCount(pool.investorCount)}</DetailStat>
        <DetailStat label="24h volume">{formatCompactMoney(pool.volume24h)}</DetailStat>
      </dl>
    </DetailHeader>
  );
};

/**
 * A pool's page: header with NAV and share price, the NAV chart, the invest panel (deposit or
 * withdraw), the caller's lots, the manager's positions, recent activity and the manager's posts.
 */
export const PoolDetail = ({ id }: { id: string }) => {
  const query = usePool(id);
  const [request, setRequest] = useState<TInvestRequest | null>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  if (query.isPending) return <DetailSkeleton label="Loading pool" titleClassName="w-2/3" />;
  if (query.isError) {
    if (hasErrorCode(query.error, 'NOT_FOUND')) {
      return (
        <EmptyState
          headingLevel={1}
          icon={<PoolsIcon />}
          title="Pool not found"
          description="This pool does not exist or was closed."
          action={<LinkButton href="/pools">Browse pools</LinkButton>}
        />
      );
    }
    return <ErrorState title="This pool did not load" message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />;
  }
  const { pool, positions, activity, userDeposits } = query.data;
  const activeLots = userDeposits.filter((l) => l.status === 'active' && !l.isSeed);
  const onModeChange = (mode: TInvestMode) => setRequest((r) => ({ mode, nonce: (r?.nonce ?? 0) + 1 }));
  const onWithdrawLot = (lotId: string) => setRequest((r) => ({ mode: 'withdraw', lotId, nonce: (r?.nonce ?? 0) + 1 }));
  // The phone's bar: the panel in that mode, brought into view with its first field focused.
  const openPanel = (mode: TInvestMode) => {
    onModeChange(mode);
    requestAnimationFrame(() => {
      panelRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
      panelRef.current?.querySelector<HTMLInputElement>('input:not([type=hidden])')?.focus({ preventScroll: true });
    });
  };
  return (
    <DetailPage
      backHref="/pools"
      backLabel="All pools"
      header={<PoolHeader pool={pool} />}
      main={<NavChart pool={pool} />}
      aside={
        <div ref={panelRef} className="scroll-mt-6">
          <InvestPanel pool={pool} lots={activeLots} request={request} onModeChange={onModeChange} />
        </div>
      }
      asideLabel="Invest"
      below={
        <>
          <PoolLots pool={pool} lots={userDeposits} onWithdraw={onWithdrawLot} />
          <PoolHoldings positions={positions} managerName={pool.manager.displayName || pool.manager.username} />
          <PoolActivity activity={activity} />
          <ManagerPosts manager={pool.manager} />
          <StickyActionBarSpacer />
          <StickyActionBar label="Invest in this pool">
            <div className="min-w-0 flex-1 text-xs text-ink-muted">
              Share price <span className="block text-sm font-semibold text-ink tabular-nums">{formatSharePrice(pool.sharePrice)}</span>
            </div>
            <Button size="sm" onClick={() => openPanel('deposit')} disabled={!pool.isActive}>
              Deposit
            </Button>
            {activeLots.length > 0 && (
              <Button size="sm" variant="secondary" onClick={() => openPanel('withdraw')}>
                Withdraw
              </Button>
            )}
          </StickyActionBar>
        </>
      }
      gridClassName="lg:grid-rows-[auto_1fr]"
    />
  );
};
