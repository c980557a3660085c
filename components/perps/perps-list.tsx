'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { LiveValue } from '@/components/realtime/live-value';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/components/ui/cn';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatCompactMoney } from '@/components/ui/format';
import { PerpsIcon } from '@/components/ui/icons';
import { PercentChange } from '@/components/ui/percent-change';
import { Skeleton } from '@/components/ui/skeleton';
import { Sparkline } from '@/components/ui/sparkline';
import { describeError } from '@/lib/client/queries/errors';
import { usePerpSparkline, usePerpTickers, type TPerpTicker } from '@/lib/client/queries/perps';
import { formatFundingRate, formatFundingRateAnnualized, formatPrice } from './format';

const TickerSparkline = ({ ticker }: { ticker: TPerpTicker }) => {
  const { values, isPending, isError } = usePerpSparkline(ticker);
  if (isError) return <div className="h-12 w-full rounded-md border border-dashed border-line" aria-hidden="true" />;
  if (isPending || !values) return <Skeleton className="h-12 w-full" />;
  return <Sparkline values={values} height={48} className="h-12" label={`${ticker.ticker} mark price over the last 24 hours, now ${formatPrice(ticker.markPrice)}`} />;
};

const Stat = ({ label, children, className }: { label: string; children: ReactNode; className?: string }) => (
  <div className={cn('flex flex-col gap-0.5', className)}>
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className="text-sm font-medium text-ink tabular-nums">{children}</dd>
  </div>
);

/** One ticker: the whole row is the link (the company name is its name). */
const TickerRow = ({ ticker }: { ticker: TPerpTicker }) => (
  <article
    aria-label={`${ticker.name} (${ticker.ticker})`}
    className="group relative grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 gap-y-3 rounded-2xl border border-line bg-surface p-4 transition-colors focus-within:border-accent/60 hover:border-line-strong hover:bg-elevated/40 sm:p-5 lg:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_8rem_minmax(0,1.6fr)]"
  >
    <div className="min-w-0">
      <div className="flex items-center gap-2">
        <Badge tone="accent">{ticker.ticker}</Badge>
        <span className="truncate text-xs text-ink-muted">{ticker.sector}</span>
      </div>
      <h3 className="mt-1.5 truncate text-base font-semibold text-ink">
        <Link href={`/perps/${ticker.ticker}`} className="outline-none after:absolute after:inset-0 after:rounded-2xl focus-visible:underline">
          {ticker.name}
        </Link>
      </h3>
    </div>
    <div className="text-right lg:order-3">
      <p className="text-lg font-semibold text-ink tabular-nums">
        <LiveValue value={ticker.markPrice}>{formatPrice(ticker.markPrice)}</LiveValue>
      </p>
      <PercentChange percent={ticker.changePercent24h} />
    </div>
    <div className="col-span-2 lg:order-2 lg:col-span-1">
      <TickerSparkline ticker={ticker} />
    </div>
    <dl className="col-span-2 grid grid-cols-3 gap-3 border-t border-line pt-3 lg:order-4 lg:col-span-1 lg:border-t-0 lg:border-l lg:pt-0 lg:pl-4">
      <Stat label="Funding (8h)">
        <span className={ticker.fundingRate > 0 ? 'text-up' : ticker.fundingRate < 0 ? 'text-down' : undefined}>{formatFundingRate(ticker.fundingRate)}</span>
        <span className="block text-xs font-normal text-ink-muted">{formatFundingRateAnnualized(ticker.fundingRateAnnualized)}</span>
      </Stat>
      <Stat label="Open interest">{formatCompactMoney(ticker.openInterest)}</Stat>
      <Stat label="24h volume">{formatCompactMoney(ticker.volume24h)}</Stat>
    </dl>
  </article>
);

const TickerRowSkeleton = () => (
  <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-4 rounded-2xl border border-line bg-surface p-4 sm:p-5 lg:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_8rem_minmax(0,1.6fr)]">
    <div className="flex flex-col gap-2">
      <Skeleton className="h-4 w-16" />
      <Skeleton className="h-5 w-40" />
    </div>
    <Skeleton className="h-12 w-full max-lg:hidden" />
    <div className="flex flex-col items-end gap-2">
      <Skeleton className="h-5 w-20" />
      <Skeleton className="h-4 w-14" />
    </div>
    <Skeleton className="col-span-2 h-10 w-full lg:col-span-1" />
  </div>
);

/** The perps page body: every ticker with price, 24 h change, funding, open interest and a sparkline. */
export const PerpsList = () => {
  const tickers = usePerpTickers({ isLive: true });
  if (tickers.isPending) {
    return (
      <div role="status" aria-label="Loading tickers" className="flex flex-col gap-3">
        {[0, 1, 2, 3, 4].map((i) => (
          <TickerRowSkeleton key={i} />
        ))}
      </div>
    );
  }
  if (tickers.isError) {
    return <ErrorState title="Tickers did not load" message={describeError(tickers.error)} onRetry={() => tickers.refetch()} isRetrying={tickers.isFetching} />;
  }
  if (tickers.data.length === 0) {
    return <EmptyState icon={<PerpsIcon />} title="No tickers yet" description="Perpetual futures open for each company of the game world. Check back soon." />;
  }
  return (
    <ul aria-label="Perpetual tickers" className="flex flex-col gap-3">
      {tickers.data.map((t) => (
        <li key={t.ticker}>
          <TickerRow ticker={t} />
        </li>
      ))}
    </ul>
  );
};
