'use client';

import Link from 'next/link';
import { Avatar } from '@/components/ui/avatar';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { formatMoney } from '@/components/ui/format';
import { useMarketHolders, type THolder } from '@/lib/client/queries/markets';
import { profileHref } from '@/lib/users/links';
import { formatCents, formatShares } from './format';
import { SectionError, SectionLoading } from './section-states';

const HolderRow = ({ holder }: { holder: THolder }) => {
  const name = holder.user.displayName || holder.user.username;
  return (
    <li className="flex items-center gap-3 border-t border-line py-2.5 first:border-t-0">
      <Avatar src={holder.user.profileImageUrl} name={name} size="sm" />
      <div className="min-w-0 flex-1 text-sm">
        <Link href={profileHref(holder.user)} className="block truncate font-medium text-ink hover:underline">
          {name}
        </Link>
        <p className="text-xs text-ink-muted tabular-nums">
          {formatShares(holder.shares)} shares · avg {formatCents(holder.avgPrice)}
        </p>
      </div>
      <span className="shrink-0 text-sm font-medium text-ink tabular-nums">{formatMoney(holder.value)}</span>
    </li>
  );
};

const Side = ({ side, holders, count }: { side: 'YES' | 'NO'; holders: THolder[]; count: number }) => (
  <section aria-labelledby={`holders-${side}`} className="min-w-0">
    <h3 id={`holders-${side}`} className={cn('text-sm font-semibold', side === 'YES' ? 'text-up' : 'text-down')}>
      {side} holders <span className="font-normal text-ink-muted tabular-nums">({count})</span>
    </h3>
    {holders.length === 0 ? (
      <p className="py-2 text-sm text-ink-muted">Nobody holds {side} yet.</p>
    ) : (
      <ul aria-label={`Largest ${side} holders`}>
        {holders.map((h) => (
          <HolderRow key={h.user.id} holder={h} />
        ))}
      </ul>
    )}
  </section>
);

/** The largest holders on each side, valued at the current price. */
export const MarketHolders = ({ marketId }: { marketId: string }) => {
  const holders = useMarketHolders(marketId);
  return (
    <Card aria-labelledby="holders-title" className="flex flex-col gap-3">
      <CardTitle id="holders-title">Top holders</CardTitle>
      {holders.isPending ? (
        <SectionLoading label="Loading holders" />
      ) : holders.isError ? (
        <SectionError error={holders.error} onRetry={() => holders.refetch()} isRetrying={holders.isFetching} />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          <Side side="YES" holders={holders.data.yes} count={holders.data.yesHolderCount} />
          <Side side="NO" holders={holders.data.no} count={holders.data.noHolderCount} />
        </div>
      )}
    </Card>
  );
};
