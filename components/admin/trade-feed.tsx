'use client';

import Link from 'next/link';
import { useState } from 'react';
import { Pager } from '@/components/moderation/pager';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { DataTable, type TDataColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Label } from '@/components/ui/field';
import { formatDateTime, formatMoney, formatSignedMoney } from '@/components/ui/format';
import { MarketsIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { pnlClass } from '@/components/ui/pnl';
import { RelativeTime } from '@/components/ui/relative-time';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { isForbidden, useAdminTrades, type TAdminTrade, type TTradeFilters } from '@/lib/client/queries/admin';
import { describeError } from '@/lib/client/queries/errors';
import { useDebouncedValue } from '@/lib/client/queries/users';
import { profileHref } from '@/lib/users/links';
import { NotAllowed } from './admin-console';

const TYPES = [
  { value: 'all', label: 'All' },
  { value: 'prediction', label: 'Predictions' },
  { value: 'perp', label: 'Perps' },
] as const satisfies readonly { value: TTradeFilters['type']; label: string }[];

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });

const marketHref = (t: TAdminTrade) => (t.type === 'perp' ? `/perps/${encodeURIComponent(t.ticker ?? t.marketId)}` : `/markets/${encodeURIComponent(t.marketId)}`);

const COLUMNS: readonly TDataColumn<TAdminTrade>[] = [
  { id: 'time', header: 'When', cell: (t) => <RelativeTime iso={t.createdAt} />, cellClassName: 'whitespace-nowrap text-ink-muted' },
  {
    id: 'user',
    header: 'User',
    cell: (t) => (
      <Link href={profileHref(t.user)} className="hover:underline">
        @{t.user.username}
      </Link>
    ),
  },
  {
    id: 'trade',
    header: 'Trade',
    cell: (t) => (
      <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
        <Badge tone={t.type === 'perp' ? 'accent' : 'neutral'}>{t.type === 'perp' ? 'Perp' : 'Prediction'}</Badge>
        <span className="capitalize">{t.action}</span> {t.side}
      </span>
    ),
  },
  {
    id: 'market',
    header: 'Market',
    cell: (t) => (
      <Link href={marketHref(t)} className="line-clamp-2 hover:underline" title={t.question}>
        {t.ticker ?? t.question}
      </Link>
    ),
  },
  { id: 'amount', header: 'Amount', align: 'right', cell: (t) => formatMoney(t.amount), cellClassName: 'tabular-nums' },
  { id: 'price', header: 'Price', align: 'right', cell: (t) => number.format(t.price), cellClassName: 'tabular-nums' },
  { id: 'fee', header: 'Fee', align: 'right', cell: (t) => formatMoney(t.fee), cellClassName: 'tabular-nums text-ink-muted' },
  {
    id: 'pnl',
    header: 'Realized',
    align: 'right',
    cell: (t) => (t.realizedPnL === null || t.realizedPnL === undefined ? '—' : formatSignedMoney(t.realizedPnL)),
    cellClassName: (t) => `tabular-nums ${pnlClass(t.realizedPnL ?? 0)}`,
  },
];

/**
 * The trade feed (administrators): every trade, predictions and perps, NPCs and pools included,
 * newest first, 50 a page, filtered by type, user id or market (question id or ticker).
 */
export const TradeFeed = () => {
  const [type, setType] = useState<TTradeFilters['type']>('all');
  const [userId, setUserId] = useState('');
  const [marketId, setMarketId] = useState('');
  const settledUser = useDebouncedValue(userId.trim(), 400);
  const settledMarket = useDebouncedValue(marketId.trim(), 400);
  const filters: TTradeFilters = { type, ...(settledUser ? { userId: settledUser } : {}), ...(settledMarket ? { marketId: settledMarket } : {}) };
  const filterKey = JSON.stringify(filters);
  // A page belongs to the filters it was turned for; new filters start on the first page.
  const [page, setPage] = useState({ offset: 0, filterKey });
  const offset = page.filterKey === filterKey ? page.offset : 0;
  const query = useAdminTrades(filters, offset);

  return (
    <section aria-labelledby="trades-title" className="flex flex-col gap-4">
      <h2 id="trades-title" className="text-lg font-semibold tracking-tight text-ink">
        Trade feed
      </h2>
      <div role="group" aria-label="Filter trades" className="grid gap-3 sm:grid-cols-[auto_minmax(0,1fr)_minmax(0,1fr)] sm:items-end">
        <SegmentedControl label="Trade type" value={type} options={TYPES} onChange={setType} size="sm" />
        <div className="flex flex-col gap-1">
          <Label htmlFor="trades-user" className="text-xs text-ink-muted">
            User id
          </Label>
          <Input id="trades-user" value={userId} onChange={(e) => setUserId(e.target.value)} placeholder="Any user" spellCheck={false} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="trades-market" className="text-xs text-ink-muted">
            Market (question id or ticker)
          </Label>
          <Input id="trades-market" value={marketId} onChange={(e) => setMarketId(e.target.value)} placeholder="Any market" spellCheck={false} />
        </div>
      </div>
      {query.isError && !query.data ? (
        isForbidden(query.error) ? (
          <NotAllowed title="Administrators only" description="Only administrators see every trade." />
        ) : (
          <ErrorState message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />
        )
      ) : (
        <Card isPadded={false} className="overflow-hidden pt-4" aria-busy={query.isPlaceholderData || undefined}>
          <DataTable
            rows={query.data?.trades ?? []}
            columns={COLUMNS}
            rowKey={(t) => `${t.type}:${t.id}`}
            caption="Trades, newest first"
            isLoading={query.isPending}
            loadingLabel="Loading trades"
            empty={<EmptyState className="m-4" icon={<MarketsIcon />} title="No trades" description="No trade matches these filters." />}
            listClassName="flex flex-col divide-y divide-line"
            itemClassName="flex flex-col gap-1 px-4 py-3 text-sm"
            renderItem={(t) => (
              <>
                <span className="flex flex-wrap items-center gap-2">
                  <Badge tone={t.type === 'perp' ? 'accent' : 'neutral'}>{t.type === 'perp' ? 'Perp' : 'Prediction'}</Badge>
                  <span className="capitalize text-ink">{t.action}</span>
                  <span className="text-ink">{t.side}</span>
                  <span className="ml-auto tabular-nums text-ink">{formatMoney(t.amount)}</span>
                </span>
                <Link href={marketHref(t)} className="line-clamp-2 text-ink-muted hover:underline">
                  {t.ticker ?? t.question}
                </Link>
                <span className="text-xs text-ink-faint">
                  @{t.user.username} · {formatDateTime(t.createdAt)}
                </span>
              </>
            )}
          />
        </Card>
      )}
      {query.data && (
        <Pager
          label="Trade pages"
          pagination={query.data.pagination}
          shown={query.data.trades.length}
          onChange={(next) => setPage({ offset: next, filterKey })}
          isBusy={query.isPlaceholderData}
        />
      )}
    </section>
  );
};
