'use client';

import Link from 'next/link';
import { useId, useState } from 'react';
import { PnlHistoryCard } from '@/components/analytics/pnl-history-chart';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { formatCents, formatShares } from '@/components/markets/format';
import { PortfolioOrders } from '@/components/orders/open-orders';
import { PositionCard } from '@/components/markets/position-card';
import { OpenPerpCard } from '@/components/perps/perp-positions';
import { PoolStakes, useHasPoolStakes } from '@/components/pools/pool-stakes';
import { Badge } from '@/components/ui/badge';
import { LinkButton } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { DataTable, type TDataColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatMoney, formatSignedMoney } from '@/components/ui/format';
import { PortfolioIcon } from '@/components/ui/icons';
import { pnlClass, signedAmountClass } from '@/components/ui/pnl';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, tabPanelProps } from '@/components/ui/tabs';
import { describeError } from '@/lib/client/queries/errors';
import { useMyPositions, type TAccountNumbers, type TOpenPerp, type TPosition } from '@/lib/client/queries/markets';
import { useSession } from '@/lib/client/queries/users';

const totalClass = (value: string) => signedAmountClass(value, 'text-ink');

const PRODUCT_LABELS = { predictions: 'Predictions', perps: 'Perpetuals', pools: 'Pools' } as const;

/**
 * The account as one set of numbers (lib/equity): equity (cash + everything open at market),
 * total P&L (realized + unrealized, fees and pools included) and the same per product.
 */
const AccountSummary = ({ account }: { account: TAccountNumbers }) => (
  <Card aria-labelledby="account-title" className="flex flex-col gap-5">
    <h2 id="account-title" className="sr-only">
      Account
    </h2>
    <dl className="grid grid-cols-2 gap-x-4 gap-y-5 sm:grid-cols-4">
      <div>
        <dt className="text-xs text-ink-muted">Portfolio value</dt>
        <dd data-testid="portfolio-value" className="mt-1 text-2xl font-semibold tracking-tight text-ink tabular-nums sm:text-3xl">
          {formatMoney(account.equity)}
        </dd>
      </div>
      <div>
        <dt className="text-xs text-ink-muted">Total P&L</dt>
        <dd data-testid="portfolio-pnl" className={cn('mt-1 text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl', totalClass(account.pnl))}>
          {formatSignedMoney(account.pnl)}
        </dd>
      </div>
      <div>
        <dt className="text-xs text-ink-muted">Cash</dt>
        <dd className="mt-1 text-base font-semibold text-ink tabular-nums sm:text-lg">{formatMoney(account.cash)}</dd>
      </div>
      <div>
        <dt className="text-xs text-ink-muted">Realized · unrealized</dt>
        <dd className="mt-1 text-base font-semibold tabular-nums sm:text-lg">
          <span className={totalClass(account.realizedPnL)}>{formatSignedMoney(account.realizedPnL)}</span>
          <span className="text-ink-faint"> · </span>
          <span className={totalClass(account.unrealizedPnL)}>{formatSignedMoney(account.unrealizedPnL)}</span>
        </dd>
      </div>
    </dl>
    <table className="w-full text-sm" aria-label="P&L by product">
      <thead>
        <tr className="text-left text-xs text-ink-muted">
          <th scope="col" className="py-1 font-normal">Product</th>
          <th scope="col" className="py-1 text-right font-normal">Value</th>
          <th scope="col" className="hidden py-1 text-right font-normal sm:table-cell">Realized</th>
          <th scope="col" className="hidden py-1 text-right font-normal sm:table-cell">Unrealized</th>
          <th scope="col" className="py-1 text-right font-normal">P&L</th>
        </tr>
      </thead>
      <tbody>
        {(Object.keys(PRODUCT_LABELS) as (keyof typeof PRODUCT_LABELS)[]).map((k) => {
          const p = account.products[k];
          return (
            <tr key={k} data-testid={`portfolio-product-${k}`} className="border-t border-line">
              <th scope="row" className="py-1.5 text-left font-medium text-ink">{PRODUCT_LABELS[k]}</th>
              <td className="py-1.5 text-right tabular-nums">{formatMoney(p.value)}</td>
              <td className={cn('hidden py-1.5 text-right tabular-nums sm:table-cell', totalClass(p.realized))}>{formatSignedMoney(p.realized)}</td>
              <td className={cn('hidden py-1.5 text-right tabular-nums sm:table-cell', totalClass(p.unrealized))}>{formatSignedMoney(p.unrealized)}</td>
              <td className={cn('py-1.5 text-right font-medium tabular-nums', totalClass(p.pnl))}>{formatSignedMoney(p.pnl)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  </Card>
);

const Totals = ({ value, pnl, cost, count }: { value: string; pnl: string; cost: string; count: number }) => (
  <Card aria-labelledby="totals-title">
    <h2 id="totals-title" className="sr-only">
      Prediction totals
    </h2>
    <dl className="grid grid-cols-2 gap-x-4 gap-y-5 sm:grid-cols-4">
      <div>
        <dt className="text-xs text-ink-muted">Predictions value</dt>
        <dd className="mt-1 text-2xl font-semibold tracking-tight text-ink tabular-nums sm:text-3xl">{formatMoney(value)}</dd>
      </div>
      <div>
        <dt className="text-xs text-ink-muted">Unrealized P&L</dt>
        <dd className={cn('mt-1 text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl', totalClass(pnl))}>{formatSignedMoney(pnl)}</dd>
      </div>
      <div>
        <dt className="text-xs text-ink-muted">Cost basis</dt>
        <dd className="mt-1 text-base font-semibold text-ink tabular-nums sm:text-lg">{formatMoney(cost)}</dd>
      </div>
      <div>
        <dt className="text-xs text-ink-muted">Open positions</dt>
        <dd className="mt-1 text-base font-semibold text-ink tabular-nums sm:text-lg">{count}</dd>
      </div>
    </dl>
  </Card>
);

const POSITION_COLUMNS: readonly TDataColumn<TPosition>[] = [
  {
    id: 'market',
    header: 'Market',
    cellClassName: 'max-w-0',
    cell: (p) => (
      <Link href={`/markets/${p.marketId}`} className="block truncate font-medium text-ink hover:underline" title={p.question}>
        {p.question}
      </Link>
    ),
  },
  { id: 'side', header: 'Side', width: 'w-16', cell: (p) => <Badge tone={p.side === 'YES' ? 'up' : 'down'}>{p.side}</Badge> },
  { id: 'shares', header: 'Shares', width: 'w-24', align: 'right', cellClassName: 'tabular-nums', cell: (p) => formatShares(p.shares) },
  { id: 'avg', header: 'Avg', width: 'w-20', align: 'right', cellClassName: 'text-ink-muted tabular-nums', cell: (p) => formatCents(p.avgPrice) },
  { id: 'now', header: 'Now', width: 'w-20', align: 'right', cellClassName: 'text-ink-muted tabular-nums', cell: (p) => formatCents(p.currentPrice) },
  { id: 'value', header: 'Value', width: 'w-28', align: 'right', cellClassName: 'font-medium tabular-nums', cell: (p) => formatMoney(p.value) },
  {
    id: 'pnl',
    header: 'P&L',
    width: 'w-28',
    align: 'right',
    cellClassName: (p) => cn('font-medium tabular-nums', pnlClass(p.unrealizedPnL)),
    cell: (p) => formatSignedMoney(p.unrealizedPnL),
  },
];

const PositionsTable = ({ positions }: { positions: TPosition[] }) => (
  <Card aria-labelledby="open-title" isPadded={false} className="overflow-hidden">
    <div className="px-5 pt-5 pb-4 sm:px-6">
      <CardTitle id="open-title">Open positions</CardTitle>
    </div>
    <DataTable
      rows={positions}
      columns={POSITION_COLUMNS}
      rowKey={(p) => p.id}
      caption="Open prediction positions"
      isFixed
      renderItem={(p) => <PositionCard position={p} showQuestion />}
      listClassName="flex flex-col gap-3 px-4 pb-4"
    />
  </Card>
);

/** Open perpetual positions, each linking to its ticker (closing happens on the ticker's page). */
const PerpPositionsList = ({ positions, totalPnL }: { positions: TOpenPerp[]; totalPnL: string }) => (
  <Card aria-labelledby="perps-title" className="flex flex-col gap-4">
    <div className="flex flex-wrap items-baseline justify-between gap-3">
      <CardTitle id="perps-title">Open perpetual positions</CardTitle>
      <p className="text-sm text-ink-muted">
        Unrealized P&L <span className={cn('font-semibold tabular-nums', totalClass(totalPnL))}>{formatSignedMoney(totalPnL)}</span>
      </p>
    </div>
    <ul aria-label="Open perpetual positions" className="grid gap-3 lg:grid-cols-2">
      {positions.map((p) => (
        <li key={p.id}>
          <OpenPerpCard position={p} showTicker />
        </li>
      ))}
    </ul>
  </Card>
);

const PortfolioSkeleton = () => (
  <div role="status" aria-label="Loading portfolio" className="flex flex-col gap-6">
    <Skeleton className="h-28 w-full rounded-2xl" />
    <Skeleton className="h-64 w-full rounded-2xl" />
  </div>
);

const PortfolioForUser = ({ userId }: { userId: string }) => {
  const positions = useMyPositions(userId);
  const hasPoolStakes = useHasPoolStakes(userId);
  if (positions.isPending || hasPoolStakes === undefined) return <PortfolioSkeleton />;
  if (positions.isError) {
    return <ErrorState title="Your positions did not load" message={describeError(positions.error)} onRetry={() => positions.refetch()} isRetrying={positions.isFetching} />;
  }
  const { positions: open, perps, account, totalPerpUnrealizedPnL, totalValue, totalUnrealizedPnL, totalCostBasis } = positions.data;
  if (open.length === 0 && perps.length === 0 && !hasPoolStakes && (!account || account.pnl === '0')) {
    return (
      <EmptyState
        icon={<PortfolioIcon />}
        title="No open positions"
        description="Buy YES or NO on a market, open a long or short on a perp, or deposit into a pool, and your positions, their value and your profit or loss will show up here."
        action={
          <div className="flex flex-wrap justify-center gap-2">
            <LinkButton href="/markets">Browse markets</LinkButton>
            <LinkButton href="/perps" variant="secondary">
              Trade perps
            </LinkButton>
            <LinkButton href="/pools" variant="secondary">
              Explore pools
            </LinkButton>
          </div>
        }
      />
    );
  }
  return (
    <div className="flex flex-col gap-6">
      {account && <AccountSummary account={account} />}
      <PnlHistoryCard userId={userId} />
      {open.length > 0 && (
        <>
          <Totals value={totalValue} pnl={totalUnrealizedPnL} cost={totalCostBasis} count={open.length} />
          <PositionsTable positions={open} />
        </>
      )}
      {perps.length > 0 && <PerpPositionsList positions={perps} totalPnL={totalPerpUnrealizedPnL} />}
      {hasPoolStakes && <PoolStakes userId={userId} />}
    </div>
  );
};

const PORTFOLIO_TABS = [
  { value: 'positions', label: 'Positions' },
  { value: 'orders', label: 'Open orders' },
] as const;

/** Positions (and the account's numbers) in one tab, the player's orders of both kinds in the other. */
const PortfolioTabs = ({ userId }: { userId: string }) => {
  const tabsId = useId();
  const [tab, setTab] = useState<(typeof PORTFOLIO_TABS)[number]['value']>('positions');
  return (
    <div className="flex flex-col gap-6">
      <Tabs label="Portfolio" idPrefix={tabsId} value={tab} tabs={PORTFOLIO_TABS} onChange={setTab} />
      <div {...tabPanelProps(tabsId, tab)}>{tab === 'positions' ? <PortfolioForUser userId={userId} /> : <PortfolioOrders userId={userId} />}</div>
    </div>
  );
};

/** The signed-in user's open prediction positions with totals, open perpetual positions and pool deposits; their orders in a tab. */
export const PortfolioView = () => {
  const session = useSession();
  if (session.isPending) return <PortfolioSkeleton />;
  if (session.isSignedOut) {
    return <SignInPrompt icon={<PortfolioIcon />} title="Sign in to see your portfolio" description="Your open positions, their value and your profit or loss will be listed here." />;
  }
  if (!session.user) return <ErrorState message={describeError(session.failure)} onRetry={() => session.refetch()} isRetrying={session.isFetching} />;
  return <PortfolioTabs userId={session.user.id} />;
};
