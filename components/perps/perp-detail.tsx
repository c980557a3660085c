'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatDateTime } from '@/components/ui/format';
import { PerpsIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { usePerpTicker, type TPerpTicker } from '@/lib/client/queries/perps';
import { formatFundingRate, formatNextFunding, formatNotional, formatPrice } from './format';
import { OrderPanel } from './order-panel';
import { PercentChange } from './percent-change';
import { PerpChart } from './perp-chart';
import { PerpPositions } from './perp-positions';

const BackLink = () => (
  <Link href="/perps" className="inline-flex items-center gap-1 text-sm text-ink-muted hover:text-ink">
    <span aria-hidden="true">←</span> All perps
  </Link>
);

const HeaderStat = ({ label, children }: { label: string; children: ReactNode }) => (
  <div>
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className="font-medium text-ink tabular-nums">{children}</dd>
  </div>
);

const TickerHeader = ({ ticker: t, nowMs }: { ticker: TPerpTicker; nowMs: number }) => (
  <header className="flex flex-col gap-5">
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2 text-xs text-ink-muted">
        <Badge tone="accent">{t.ticker}</Badge>
        <span>{t.sector}</span>
        <span aria-hidden="true">·</span>
        <span>Perpetual future</span>
      </div>
      <h1 className="text-2xl leading-tight font-semibold tracking-tight text-balance text-ink sm:text-3xl">{t.name}</h1>
    </div>
    <div className="flex flex-wrap items-end gap-x-8 gap-y-4">
      <div>
        <p className="text-xs font-medium tracking-wide text-ink-muted uppercase">Mark price</p>
        <p data-testid="perp-mark-price" className="text-4xl font-semibold tracking-tight text-ink tabular-nums sm:text-5xl">
          {formatPrice(t.markPrice)}
        </p>
        <PercentChange percent={t.changePercent24h} className="mt-1" />
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 pb-1 text-sm sm:ml-auto sm:grid-cols-3">
        <HeaderStat label="Index price">{formatPrice(t.indexPrice)}</HeaderStat>
        <HeaderStat label="Funding rate (8h)">
          <span className={t.fundingRate > 0 ? 'text-up' : t.fundingRate < 0 ? 'text-down' : undefined}>{formatFundingRate(t.fundingRate)}</span>
        </HeaderStat>
        <HeaderStat label="Next funding">
          <time dateTime={t.nextFundingTime} title={formatDateTime(t.nextFundingTime)}>
            {formatNextFunding(t.nextFundingTime, nowMs)}
          </time>
        </HeaderStat>
        <HeaderStat label="24h high / low">
          {formatPrice(t.high24h)} / {formatPrice(t.low24h)}
        </HeaderStat>
        <HeaderStat label="Open interest">
          {formatNotional(t.openInterest)}
          <span className="block text-xs font-normal">
            <span className="text-up">{formatNotional(t.openInterestLong)} long</span>
            <span className="text-ink-faint"> · </span>
            <span className="text-down">{formatNotional(t.openInterestShort)} short</span>
          </span>
        </HeaderStat>
        <HeaderStat label="24h volume">{formatNotional(t.volume24h)}</HeaderStat>
      </dl>
    </div>
  </header>
);

const DetailSkeleton = () => (
  <div role="status" aria-label="Loading ticker" className="flex flex-col gap-6">
    <Skeleton className="h-4 w-24" />
    <Skeleton className="h-8 w-2/3" />
    <Skeleton className="h-12 w-40" />
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <Skeleton className="h-80 w-full rounded-2xl" />
      <Skeleton className="h-96 w-full rounded-2xl" />
    </div>
  </div>
);

/** A ticker's page: header with mark, index and funding, chart, order panel and the user's positions. */
export const PerpDetail = ({ ticker }: { ticker: string }) => {
  const query = usePerpTicker(ticker);
  if (query.isPending) return <DetailSkeleton />;
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
    <div className="flex flex-col gap-6">
      <BackLink />
      <TickerHeader ticker={t} nowMs={query.dataUpdatedAt} />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:grid-rows-[auto_1fr]">
        <div className="flex min-w-0 flex-col gap-6 lg:col-start-1">
          <PerpChart ticker={t} />
        </div>
        <aside aria-label="Order" className="lg:sticky lg:top-6 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <OrderPanel ticker={t} />
        </aside>
        <div className="flex min-w-0 flex-col gap-6 lg:col-start-1">
          <PerpPositions ticker={t.ticker} />
        </div>
      </div>
    </div>
  );
};
