'use client';

import Link from 'next/link';
import { LiveValue } from '@/components/realtime/live-value';
import { Badge } from '@/components/ui/badge';
import { formatCompactMoney, formatShortDate } from '@/components/ui/format';
import { Skeleton } from '@/components/ui/skeleton';
import { Sparkline } from '@/components/ui/sparkline';
import { useMarketSparkline, type TMarket } from '@/lib/client/queries/markets';
import { formatProbability } from './format';
import { PriceChange } from './price-change';

const CardSparkline = ({ market }: { market: TMarket }) => {
  const { values, isPending } = useMarketSparkline(market);
  if (isPending || !values) return <Skeleton className="h-20 w-full" />;
  return <Sparkline values={values} label={`YES price over the last 7 days, now ${formatProbability(market.yesPrice)}`} />;
};

/** One market in the grid: the whole card is the link (the question is its name). */
export const MarketCard = ({ market }: { market: TMarket }) => {
  const isResolved = market.status === 'resolved';
  return (
    <article className="group relative flex w-full flex-col gap-3 rounded-2xl border border-line bg-surface p-4 transition-colors focus-within:border-accent/60 hover:border-line-strong hover:bg-elevated/40 sm:gap-4 sm:p-5">
      {(market.ticker || market.topic) && (
        <p className="-mb-1 flex flex-wrap gap-x-2 text-xs text-ink-muted">
          {market.ticker && <span className="font-medium text-ink">${market.ticker}</span>}
          {market.topic && <span>{market.topic}</span>}
        </p>
      )}
      <h3 className="line-clamp-3 text-base leading-snug font-semibold text-ink sm:min-h-[3.75rem]">
        <Link href={`/markets/${market.id}`} className="outline-none after:absolute after:inset-0 after:rounded-2xl">
          {market.question}
        </Link>
      </h3>
      <div className="flex items-end justify-between gap-3">
        <div>
          <p className="text-2xl font-semibold tracking-tight text-ink tabular-nums sm:text-3xl">
            <LiveValue value={market.yesPrice}>{formatProbability(market.yesPrice)}</LiveValue>
          </p>
          <p className="text-xs text-ink-muted">chance of YES</p>
        </div>
        {isResolved ? (
          <Badge tone={market.resolvedOutcome === 'YES' ? 'up' : 'down'}>Resolved {market.resolvedOutcome ?? ''}</Badge>
        ) : (
          <PriceChange change={market.change24h} />
        )}
      </div>
      {/* Phones get a denser card: the 7-day line is for wider screens. */}
      <div className="hidden sm:block">
        <CardSparkline market={market} />
      </div>
      <dl className="mt-auto flex items-center justify-between gap-3 border-t border-line pt-2.5 text-xs text-ink-muted sm:pt-3">
        <div className="flex gap-1">
          <dt>Volume</dt>
          <dd className="font-medium text-ink tabular-nums">{formatCompactMoney(market.volume)}</dd>
        </div>
        <div className="flex gap-1">
          <dt>{isResolved ? 'Resolved' : 'Resolves'}</dt>
          <dd className="font-medium text-ink">{formatShortDate(market.resolvedAt ?? market.resolutionDate)}</dd>
        </div>
      </dl>
    </article>
  );
};

export const MarketCardSkeleton = () => (
  <div className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4 sm:gap-4 sm:p-5">
    <Skeleton className="h-4 w-11/12" />
    <Skeleton className="h-4 w-2/3" />
    <Skeleton className="mt-3 h-8 w-20" />
    <Skeleton className="hidden h-20 w-full sm:block" />
    <Skeleton className="h-3 w-full" />
  </div>
);
