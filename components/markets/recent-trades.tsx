'use client';

import Link from 'next/link';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { formatMoney, formatRelativeTime } from '@/components/ui/format';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { useMarketTrades, type TTrade } from '@/lib/client/queries/markets';
import { useSession } from '@/lib/client/queries/users';
import { profileHref } from '@/lib/users/links';
import { formatCents, formatShares } from './format';

const TradeItem = ({ trade }: { trade: TTrade }) => (
  <li className="flex items-center gap-3 border-t border-line py-3 first:border-t-0">
    <Avatar src={trade.user.profileImageUrl} name={trade.user.displayName || trade.user.username} size="sm" />
    <div className="min-w-0 flex-1 text-sm">
      <p className="truncate text-ink">
        <Link href={profileHref(trade.user)} className="font-medium hover:underline">
          @{trade.user.username}
        </Link>{' '}
        <span className="text-ink-muted">{trade.action === 'buy' ? 'bought' : 'sold'}</span>{' '}
        <span className={cn('font-semibold', trade.side === 'YES' ? 'text-up' : 'text-down')}>{trade.side}</span>
      </p>
      <p className="text-xs text-ink-faint tabular-nums">
        {formatShares(trade.shares)} shares at {formatCents(trade.price)} ·{' '}
        <time dateTime={trade.createdAt}>{formatRelativeTime(trade.createdAt)}</time>
      </p>
    </div>
    <span className="shrink-0 text-sm font-medium text-ink tabular-nums">{formatMoney(trade.amount)}</span>
  </li>
);

const TradesBody = ({ marketId, isSignedIn }: { marketId: string; isSignedIn: boolean }) => {
  const trades = useMarketTrades(marketId, { isEnabled: isSignedIn });
  if (!isSignedIn) return <p className="text-sm text-ink-muted">Sign in to see who is trading this market.</p>;
  if (trades.isPending) {
    return (
      <div role="status" aria-label="Loading trades" className="flex flex-col gap-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    );
  }
  if (trades.isError) {
    return (
      <div role="alert" className="flex items-center justify-between gap-3 text-sm text-ink-muted">
        {describeError(trades.error)}
        <Button size="sm" variant="secondary" onClick={() => trades.refetch()} isLoading={trades.isFetching}>
          Try again
        </Button>
      </div>
    );
  }
  if (trades.data.length === 0) return <p className="text-sm text-ink-muted">No trades yet. Be the first.</p>;
  return (
    <ul aria-label="Recent trades, newest first">
      {trades.data.map((t) => (
        <TradeItem key={t.id} trade={t} />
      ))}
    </ul>
  );
};

/** The market's latest buys and sells, newest first (the endpoint needs a signed-in caller). */
export const RecentTrades = ({ marketId }: { marketId: string }) => {
  const session = useSession();
  return (
    <Card aria-labelledby="trades-title" className="flex flex-col gap-3">
      <CardTitle id="trades-title">Recent trades</CardTitle>
      {session.isPending ? <Skeleton className="h-10 w-full" /> : <TradesBody marketId={marketId} isSignedIn={!!session.user} />}
    </Card>
  );
};
