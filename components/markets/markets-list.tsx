'use client';

import { useState } from 'react';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { MarketsIcon } from '@/components/ui/icons';
import { Tabs, tabPanelProps } from '@/components/ui/tabs';
import { describeError } from '@/lib/client/queries/errors';
import { useMarkets, type TMarketStatus } from '@/lib/client/queries/markets';
import { MarketCard, MarketCardSkeleton } from './market-card';

const TABS = [
  { value: 'active', label: 'Active' },
  { value: 'resolved', label: 'Resolved' },
] as const;

const EMPTY: Record<TMarketStatus, { title: string; description: string }> = {
  active: { title: 'No open markets right now', description: 'New questions about the game world open regularly. Check back soon.' },
  resolved: { title: 'Nothing resolved yet', description: 'Once a question is settled it moves here with its outcome.' },
};

const MarketGrid = ({ status }: { status: TMarketStatus }) => {
  const markets = useMarkets(status);
  if (markets.isPending) {
    return (
      <div role="status" aria-label="Loading markets" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {[0, 1, 2, 3, 4, 5].map((i) => (
          <MarketCardSkeleton key={i} />
        ))}
      </div>
    );
  }
  if (markets.isError) {
    return <ErrorState title="Markets did not load" message={describeError(markets.error)} onRetry={() => markets.refetch()} isRetrying={markets.isFetching} />;
  }
  if (markets.data.length === 0) return <EmptyState icon={<MarketsIcon />} {...EMPTY[status]} />;
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {markets.data.map((m) => (
        <li key={m.id} className="flex">
          <MarketCard market={m} />
        </li>
      ))}
    </ul>
  );
};

/** The markets page body: Active / Resolved tabs over a grid of market cards. */
export const MarketsList = () => {
  const [status, setStatus] = useState<TMarketStatus>('active');
  return (
    <div className="flex flex-col gap-5">
      <Tabs label="Market status" idPrefix="markets" value={status} tabs={TABS} onChange={setStatus} />
      <div {...tabPanelProps('markets', status)}>
        <MarketGrid status={status} />
      </div>
    </div>
  );
};
