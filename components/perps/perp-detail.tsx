'use client';

import { TickerOpenOrders } from '@/components/orders/open-orders';
import { LiveValue } from '@/components/realtime/live-value';
import { Badge } from '@/components/ui/badge';
import { LinkButton } from '@/components/ui/button';
import { DetailHeader, DetailPage, DetailSkeleton, DetailStat } from '@/components/ui/detail-page';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatCompactMoney, formatDateTime } from '@/components/ui/format';
import { PerpsIcon } from '@/components/ui/icons';
import { TickerStories } from '@/components/story/ticker-stories';
import { PercentChange } from '@/components/ui/percent-change';
import { describeError } from '@/lib/client/queries/errors';
import { usePerpTicker, type TPerpTicker } from '@/lib/client/queries/perps';
import { formatFundingRate, formatFundingRateAnnualized, formatNextFunding, formatPrice } from './format';
import { OrderPanel } from './order-panel';
import { PerpOrderSheet } from './order-sheet';
import { PerpChart } from './perp-chart';
import { PerpPositions } from './perp-positions';
import { PerpTape } from './perp-tape';

const TickerHeader = ({ ticker: t, nowMs }: { ticker: TPerpTicker; nowMs: number }) => (
  <DetailHeader
    tags={
      <>
        <Badge tone="accent">{t.ticker}</Badge>
        <span>{t.sector}</span>
        <span aria-hidden="true">·</span>
        <span>Perpetual future</span>
      </>
    }
    title={t.name}
  >
    <div>
      <p className="text-xs font-medium tracking-wide text-ink-muted uppercase">Mark price</p>
      <p data-testid="perp-mark-price" className="text-4xl font-semibold tracking-tight text-ink tabular-nums sm:text-5xl">
        <LiveValue value={t.markPrice}>{formatPrice(t.markPrice)}</LiveValue>
      </p>
      <PercentChange percent={t.changePercent24h} className="mt-1" />
    </div>
    <dl className="grid grid-cols-2 gap-x-6 gap-y-3 pb-1 text-sm sm:ml-auto sm:grid-cols-3">
      <DetailStat label="Index price">{formatPrice(t.indexPrice)}</DetailStat>
      <DetailStat label="Funding rate (8h)">
        <span className={t.fundingRate > 0 ? 'text-up' : t.fundingRate < 0 ? 'text-down' : undefined}>{formatFundingRate(t.fundingRate)}</span>
        <span data-testid="perp-funding-annualized" className="block text-xs font-normal" title="The 8-hour rate × 3 × 365; positive: longs pay shorts">
          {formatFundingRateAnnualized(t.fundingRateAnnualized)}
        </span>
      </DetailStat>
      <DetailStat label="Next funding">
        <time dateTime={t.nextFundingTime} title={formatDateTime(t.nextFundingTime)}>
          {formatNextFunding(t.nextFundingTime, nowMs)}
        </time>
      </DetailStat>
      <DetailStat label="24h high / low">
        {formatPrice(t.high24h)} / {formatPrice(t.low24h)}
      </DetailStat>
      <DetailStat label="Open interest">
        {formatCompactMoney(t.openInterest)}
        <span className="block text-xs font-normal">
          <span className="text-up">{formatCompactMoney(t.openInterestLong)} long</span>
          <span className="text-ink-faint"> · </span>
          <span className="text-down">{formatCompactMoney(t.openInterestShort)} short</span>
        </span>
      </DetailStat>
      <DetailStat label="24h volume">{formatCompactMoney(t.volume24h)}</DetailStat>
    </dl>
  </DetailHeader>
);

/**
 * A ticker's page: header with mark, index and funding, chart (line or candles), order panel, the
 * user's positions (with their stops) and open orders, the recent-trades tape, and on phones a sticky Long / Short bar opening the order sheet.
 */
export const PerpDetail = ({ ticker }: { ticker: string }) => {
  const query = usePerpTicker(ticker);
  if (query.isPending) return <DetailSkeleton label="Loading ticker" titleClassName="w-2/3" />;
  if (query.isError) {
    return <ErrorState title="This ticker did not load" message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />;
  }
  const t = query.data;
  if (!t) {
    return (
      <EmptyState
        headingLevel={1}
        icon={<PerpsIcon />}
        title="Ticker not found"
        description={`There is no perpetual future for ${ticker.toUpperCase()}.`}
        action={<LinkButton href="/perps">Browse perps</LinkButton>}
      />
    );
  }
  return (
    <DetailPage
      backHref="/perps"
      backLabel="All perps"
      header={<TickerHeader ticker={t} nowMs={query.dataUpdatedAt} />}
      main={<PerpChart ticker={t} />}
      aside={<OrderPanel ticker={t} />}
      asideLabel="Order"
      below={
        <>
          <PerpPositions ticker={t.ticker} />
          <TickerOpenOrders ticker={t.ticker} />
          <PerpTape ticker={t.ticker} />
          <TickerStories ticker={t.ticker} />
          <PerpOrderSheet ticker={t} />
        </>
      }
      gridClassName="lg:grid-rows-[auto_1fr]"
    />
  );
};
