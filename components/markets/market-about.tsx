'use client';

import Link from 'next/link';
import { Card, CardTitle } from '@/components/ui/card';
import { formatDateTime } from '@/components/ui/format';
import { Skeleton } from '@/components/ui/skeleton';
import type { TMarketWithAbout } from '@/lib/client/queries/markets';

const SOURCE_LABEL = { price: 'Ticker price', event: 'World news', market: 'This market' } as const;

/** What the question is about and exactly how it resolves: written by the server from the question's rule. */
export const MarketAbout = ({ market }: { market: TMarketWithAbout }) => {
  if (market.resolutionCriteria === undefined) {
    // A live update may have filled the cache before the detail did: the text arrives with the refetch.
    return (
      <Card aria-label="About this market">
        <Skeleton className="h-20 w-full" />
      </Card>
    );
  }
  const org = market.organization;
  return (
    <Card aria-labelledby="about-title" className="flex flex-col gap-4">
      <CardTitle id="about-title">About this market</CardTitle>
      <p className="text-sm leading-relaxed text-ink">{market.description}</p>
      <section aria-labelledby="criteria-title" className="flex flex-col gap-2 rounded-xl border border-line bg-elevated/40 p-4">
        <h3 id="criteria-title" className="text-sm font-semibold text-ink">
          Resolution criteria
        </h3>
        <p data-testid="resolution-criteria" className="text-sm leading-relaxed text-ink">
          {market.resolutionCriteria}
        </p>
      </section>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-xs text-ink-muted">Source</dt>
          <dd className="font-medium text-ink">{market.resolutionSource ? SOURCE_LABEL[market.resolutionSource] : '—'}</dd>
        </div>
        <div>
          <dt className="text-xs text-ink-muted">Closes</dt>
          <dd className="font-medium text-ink">
            <time dateTime={market.resolutionDate}>{formatDateTime(market.resolutionDate)}</time>
          </dd>
        </div>
        {org && (
          <div>
            <dt className="text-xs text-ink-muted">Organization</dt>
            <dd className="font-medium text-ink">
              {org.name}{' '}
              <Link href={`/perps/${encodeURIComponent(org.ticker)}`} className="text-accent underline underline-offset-2 hover:no-underline">
                ${org.ticker}
              </Link>
            </dd>
          </div>
        )}
      </dl>
    </Card>
  );
};
