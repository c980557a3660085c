'use client';

import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { formatMoney, formatRelativeTime } from '@/components/ui/format';
import { useMyMarketTrades, type TTrade } from '@/lib/client/queries/markets';
import { useSession } from '@/lib/client/queries/users';
import { formatCents, formatShares } from './format';
import { SectionError, SectionLoading } from './section-states';

const TradeRow = ({ trade }: { trade: TTrade }) => (
  <li className="flex items-center justify-between gap-3 border-t border-line py-2.5 text-sm first:border-t-0">
    <div className="min-w-0">
      <p className="text-ink">
        {trade.action === 'buy' ? 'Bought' : 'Sold'} <span className={cn('font-semibold', trade.side === 'YES' ? 'text-up' : 'text-down')}>{trade.side}</span>
        <span className="text-ink-muted tabular-nums">
          {' '}
          · {formatShares(trade.shares)} shares at {formatCents(trade.price)}
        </span>
      </p>
      <p className="text-xs text-ink-muted">
        <time dateTime={trade.createdAt}>{formatRelativeTime(trade.createdAt)}</time>
      </p>
    </div>
    <span className="shrink-0 font-medium text-ink tabular-nums">{formatMoney(trade.amount)}</span>
  </li>
);

/** The signed-in player's own buys and sells in this market, newest first (nothing for visitors). */
export const MyMarketTrades = ({ marketId }: { marketId: string }) => {
  const session = useSession();
  const trades = useMyMarketTrades(marketId, session.user?.id);
  if (!session.user) return null;
  return (
    <Card aria-labelledby="my-trades-title" className="flex flex-col gap-3">
      <CardTitle id="my-trades-title">Your trades</CardTitle>
      {trades.isPending ? (
        <SectionLoading label="Loading your trades" rows={2} />
      ) : trades.isError ? (
        <SectionError error={trades.error} onRetry={() => trades.refetch()} isRetrying={trades.isFetching} />
      ) : trades.data.length === 0 ? (
        <p className="text-sm text-ink-muted">You have not traded this market yet.</p>
      ) : (
        <ul aria-label="Your trades in this market, newest first">
          {trades.data.map((t) => (
            <TradeRow key={t.id} trade={t} />
          ))}
        </ul>
      )}
    </Card>
  );
};
