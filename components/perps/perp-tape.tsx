'use client';

import { useRealtimeEvent } from '@/components/realtime/realtime-provider';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { formatMoney } from '@/components/ui/format';
import { RelativeTime } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { usePerpTape, useRefreshPerpActivity, type TPerpTapeTrade } from '@/lib/client/queries/perps';
import { formatPrice } from './format';

const ACTION_WORDS: Record<TPerpTapeTrade['action'], string> = { open: 'Open', close: 'Close', liquidation: 'Liquidation' };

/** Keeps a ticker's candles and tape live: each price or liquidation event of the ticker reads them again. */
export const usePerpActivityLive = (ticker: string) => {
  const refresh = useRefreshPerpActivity();
  const symbol = ticker.toUpperCase();
  useRealtimeEvent('perp_update', (d) => {
    if (d.ticker.toUpperCase() === symbol) void refresh(symbol);
  });
  useRealtimeEvent('perp_liquidation', (d) => {
    if (d.ticker.toUpperCase() === symbol) void refresh(symbol);
  });
};

const TapeRow = ({ trade: t }: { trade: TPerpTapeTrade }) => (
  <tr data-testid="perp-tape-row" className="border-t border-line align-top">
    <td className="py-2 pr-3 whitespace-nowrap text-ink-muted">
      <RelativeTime iso={t.createdAt} />
    </td>
    <td className="py-2 pr-3">
      <span className={cn('font-medium', t.side === 'long' ? 'text-up' : 'text-down')}>{t.side === 'long' ? 'Long' : 'Short'}</span>{' '}
      <span className={t.action === 'liquidation' ? 'text-warn' : 'text-ink'}>{ACTION_WORDS[t.action]}</span>
      {t.isMine && (
        <Badge tone="accent" className="ml-1.5">
          You
        </Badge>
      )}
    </td>
    <td className="py-2 pr-3 text-right whitespace-nowrap tabular-nums">{formatMoney(t.size)}</td>
    <td className="py-2 text-right whitespace-nowrap tabular-nums">{formatPrice(t.price)}</td>
  </tr>
);

/** The ticker's latest trades (opens, closes, liquidations), newest first, refreshed on every live price event. */
export const PerpTape = ({ ticker }: { ticker: string }) => {
  const query = usePerpTape(ticker);
  usePerpActivityLive(ticker);
  return (
    <Card aria-labelledby="perp-tape-title" className="flex flex-col gap-3">
      <CardTitle id="perp-tape-title">Recent trades</CardTitle>
      {query.isPending ? (
        <div role="status" aria-label="Loading recent trades" className="flex flex-col gap-2">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-6 w-full" />
          ))}
        </div>
      ) : query.isError ? (
        <div role="alert" className="flex flex-col items-start gap-2 text-sm text-ink-muted">
          The recent trades did not load: {describeError(query.error)}
          <Button variant="secondary" size="sm" onClick={() => query.refetch()} isLoading={query.isFetching}>
            Try again
          </Button>
        </div>
      ) : query.data.length === 0 ? (
        <p className="text-sm text-ink-muted">No trades on {ticker.toUpperCase()} yet. The first open shows here.</p>
      ) : (
        // Four narrow columns (side and action share one) fit a phone without scrolling sideways.
        <table className="w-full text-sm" data-testid="perp-tape">
          <caption className="sr-only">Latest trades on {ticker.toUpperCase()}, newest first</caption>
          <thead>
            <tr className="text-left text-xs text-ink-muted">
              <th scope="col" className="pb-2 pr-3 font-medium">
                Time
              </th>
              <th scope="col" className="pb-2 pr-3 font-medium">
                Trade
              </th>
              <th scope="col" className="pb-2 pr-3 text-right font-medium">
                Size
              </th>
              <th scope="col" className="pb-2 text-right font-medium">
                Price
              </th>
            </tr>
          </thead>
          <tbody>
            {query.data.map((t) => (
              <TapeRow key={t.id} trade={t} />
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
};
