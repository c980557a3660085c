'use client';

import type { ReactNode } from 'react';
import { MarketOpenOrders } from '@/components/orders/open-orders';
import { OrderBook } from '@/components/orders/order-book';
import { LiveValue } from '@/components/realtime/live-value';
import { Badge } from '@/components/ui/badge';
import { LinkButton } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { DetailHeader, DetailPage, DetailSkeleton, DetailStat } from '@/components/ui/detail-page';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatCompactMoney, formatDateTime, formatShortDate } from '@/components/ui/format';
import { MarketsIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { StorySoFar } from '@/components/story/story-so-far';
import { describeError, hasErrorCode } from '@/lib/client/queries/errors';
import { useMarket, useMarketPositions, type TMarket } from '@/lib/client/queries/markets';
import { useSession } from '@/lib/client/queries/users';
import { formatProbability } from './format';
import { MarketAbout } from './market-about';
import { MarketHolders } from './market-holders';
import { MarketNews } from './market-news';
import { MyMarketTrades } from './my-market-trades';
import { PositionCard } from './position-card';
import { PriceChange } from './price-change';
import { PriceChart } from './price-chart';
import { RecentTrades } from './recent-trades';
import { TradePanel } from './trade-panel';
import { MobileTradeBar } from './trade-sheet';

const MarketHeader = ({ market }: { market: TMarket }) => {
  const isResolved = market.status === 'resolved';
  return (
    <DetailHeader
      tags={
        <>
          {isResolved ? (
            <Badge tone={market.resolvedOutcome === 'YES' ? 'up' : 'down'}>Resolved {market.resolvedOutcome}</Badge>
          ) : (
            <Badge tone="accent">Active</Badge>
          )}
          <span>
            {isResolved && market.resolvedAt ? `Resolved ${formatShortDate(market.resolvedAt)}` : `Resolves ${formatShortDate(market.resolutionDate)}`}
          </span>
        </>
      }
      title={market.question}
    >
      <div>
        <p className="text-xs font-medium tracking-wide text-up uppercase">Yes</p>
        <p data-testid="market-yes-price" className="text-4xl font-semibold tracking-tight text-ink tabular-nums sm:text-5xl">
          <LiveValue value={market.yesPrice}>{formatProbability(market.yesPrice, { isPrecise: true })}</LiveValue>
        </p>
      </div>
      <div>
        <p className="text-xs font-medium tracking-wide text-down uppercase">No</p>
        <p data-testid="market-no-price" className="text-2xl font-semibold tracking-tight text-ink-muted tabular-nums sm:text-3xl">
          <LiveValue value={market.noPrice}>{formatProbability(market.noPrice, { isPrecise: true })}</LiveValue>
        </p>
      </div>
      <dl className="flex flex-wrap gap-x-6 gap-y-2 pb-1 text-sm sm:ml-auto">
        {!isResolved && (
          <div>
            <dt className="text-xs text-ink-muted">24h change</dt>
            <dd>
              <PriceChange change={market.change24h} />
            </dd>
          </div>
        )}
        <DetailStat label="Volume">{formatCompactMoney(market.volume)}</DetailStat>
        <DetailStat label="Liquidity">{formatCompactMoney(market.liquidity)}</DetailStat>
      </dl>
    </DetailHeader>
  );
};

const ResolvedPanel = ({ market }: { market: TMarket }) => (
  <Card aria-labelledby="outcome-title" className="flex flex-col gap-2">
    <h2 id="outcome-title" className="text-sm text-ink-muted">
      Outcome
    </h2>
    <p className={market.resolvedOutcome === 'YES' ? 'text-3xl font-semibold text-up' : 'text-3xl font-semibold text-down'}>
      {market.resolvedOutcome ?? 'Settled'}
    </p>
    <p className="text-sm text-ink-muted">
      This market is closed. Each winning share paid $1{market.resolvedAt ? ` on ${formatDateTime(market.resolvedAt)}` : ''}.
    </p>
  </Card>
);

const YourPositions = ({ marketId }: { marketId: string }) => {
  const session = useSession();
  const { positions, isPending } = useMarketPositions(session.user?.id, marketId);
  if (!session.user) return null;
  return (
    <Card aria-labelledby="positions-title" className="flex flex-col gap-3">
      <CardTitle id="positions-title">Your position</CardTitle>
      {isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : positions.length === 0 ? (
        <p className="text-sm text-ink-muted">You have no shares in this market yet.</p>
      ) : (
        positions.map((p) => <PositionCard key={p.id} position={p} />)
      )}
    </Card>
  );
};

/**
 * The market page: header with prices, chart, what the question is and how it resolves, the trade
 * panel (or outcome), the order book, the player's position, open orders and trades, top holders,
 * the discussion, related news and recent trades. On a phone a bar fixed above the tab bar opens the trade panel as a sheet.
 * The discussion is posts with their comments: the page passes it in (components/posts shows a
 * market inside a post, so markets never imports posts and the two folders do not form a loop).
 */
export const MarketDetail = ({ id, discussion }: { id: string; discussion?: ReactNode }) => {
  const market = useMarket(id);
  if (market.isPending) return <DetailSkeleton label="Loading market" titleClassName="w-3/4" />;
  if (market.isError) {
    if (hasErrorCode(market.error, 'NOT_FOUND', 'MARKET_NOT_FOUND')) {
      return (
        <EmptyState
          icon={<MarketsIcon />}
          title="Market not found"
          description="This question does not exist or was removed."
          action={<LinkButton href="/markets">Browse markets</LinkButton>}
        />
      );
    }
    return <ErrorState title="This market did not load" message={describeError(market.error)} onRetry={() => market.refetch()} isRetrying={market.isFetching} />;
  }
  const m = market.data;
  const isResolved = m.status === 'resolved';
  return (
    <DetailPage
      backHref="/markets"
      backLabel="All markets"
      header={<MarketHeader market={m} />}
      main={
        <>
          <PriceChart market={m} />
          <MarketAbout market={m} />
          <StorySoFar marketId={m.id} />
        </>
      }
      aside={isResolved ? <ResolvedPanel market={m} /> : <TradePanel market={m} />}
      asideLabel={isResolved ? 'Outcome' : 'Trade'}
      below={
        <>
          {!isResolved && <OrderBook marketId={m.id} />}
          <YourPositions marketId={m.id} />
          {!isResolved && <MarketOpenOrders marketId={m.id} />}
          <MyMarketTrades marketId={m.id} />
          <MarketHolders marketId={m.id} />
          {discussion}
          <MarketNews marketId={m.id} />
          <RecentTrades marketId={m.id} />
          {!isResolved && <MobileTradeBar market={m} />}
        </>
      }
    />
  );
};
