'use client';

import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { DataTable, type TDataColumn } from '@/components/ui/data-table';
import { formatMoney, formatSignedMoney } from '@/components/ui/format';
import { pnlClass } from '@/components/ui/pnl';
import type { TPoolDetail, TPoolPerpHolding, TPoolPredictionHolding } from '@/lib/client/queries/pools';
import { formatCents, formatHoldingPrice as formatPrice, formatLeverage, formatPoolShares } from './format';

const tickerLink = (p: TPoolPerpHolding) => (
  <Link href={`/perps/${encodeURIComponent(p.ticker)}`} className="font-medium text-ink hover:underline">
    {p.ticker}
  </Link>
);

const sideBadge = (p: TPoolPerpHolding) => (
  <Badge tone={p.side === 'long' ? 'up' : 'down'}>
    {p.side === 'long' ? 'Long' : 'Short'} {formatLeverage(p.leverage)}
  </Badge>
);

const pnlColumn = <T extends { unrealizedPnL: number }>(): TDataColumn<T> => ({
  id: 'pnl',
  header: 'P&L',
  width: 'w-24',
  align: 'right',
  cellClassName: (p) => cn('font-medium tabular-nums', pnlClass(p.unrealizedPnL)),
  cell: (p) => formatSignedMoney(p.unrealizedPnL),
  sortValue: (p) => p.unrealizedPnL,
  firstDirection: 'descending',
});

const valueColumn = <T extends { value: number }>(): TDataColumn<T> => ({
  id: 'value',
  header: 'Value',
  width: 'w-24',
  align: 'right',
  cellClassName: 'font-medium tabular-nums',
  cell: (p) => formatMoney(p.value),
  sortValue: (p) => p.value,
  firstDirection: 'descending',
});

const PERP_COLUMNS: readonly TDataColumn<TPoolPerpHolding>[] = [
  {
    id: 'position',
    header: 'Position',
    cell: (p) => (
      <span className="flex items-center gap-2 whitespace-nowrap">
        {tickerLink(p)}
        {sideBadge(p)}
      </span>
    ),
  },
  { id: 'size', header: 'Size', width: 'w-24', align: 'right', cellClassName: 'tabular-nums', cell: (p) => formatMoney(p.size) },
  {
    id: 'prices',
    header: 'Entry / mark',
    align: 'right',
    cellClassName: 'text-ink-muted tabular-nums',
    cell: (p) => (
      <>
        <span className="block">{formatPrice(p.entryPrice)}</span>
        <span className="block text-xs text-ink-faint">{formatPrice(p.markPrice)}</span>
      </>
    ),
  },
  valueColumn(),
  pnlColumn(),
];

const PerpItem = ({ p }: { p: TPoolPerpHolding }) => (
  <div className="flex items-center justify-between gap-3 rounded-xl border border-line bg-canvas/50 p-3 text-sm">
    <div className="flex min-w-0 flex-col gap-1">
      <div className="flex items-center gap-2">
        {tickerLink(p)}
        {sideBadge(p)}
      </div>
      <span className="text-xs text-ink-muted tabular-nums">
        {formatMoney(p.size)} · {formatPrice(p.entryPrice)} → {formatPrice(p.markPrice)}
      </span>
    </div>
    <div className="flex shrink-0 flex-col items-end">
      <span className="font-medium text-ink tabular-nums">{formatMoney(p.value)}</span>
      <span className={cn('text-xs font-medium tabular-nums', pnlClass(p.unrealizedPnL))}>{formatSignedMoney(p.unrealizedPnL)}</span>
    </div>
  </div>
);

const marketLink = (p: TPoolPredictionHolding) => (
  <Link href={`/markets/${encodeURIComponent(p.marketId)}`} className="block truncate font-medium text-ink hover:underline" title={p.question}>
    {p.question}
  </Link>
);

const outcomeBadge = (p: TPoolPredictionHolding) => <Badge tone={p.side === 'YES' ? 'up' : 'down'}>{p.side}</Badge>;

const PREDICTION_COLUMNS: readonly TDataColumn<TPoolPredictionHolding>[] = [
  {
    id: 'market',
    header: 'Market',
    cellClassName: 'max-w-0',
    cell: (p) => (
      <span className="flex min-w-0 items-center gap-2">
        {outcomeBadge(p)}
        <span className="min-w-0 flex-1">{marketLink(p)}</span>
      </span>
    ),
  },
  {
    id: 'shares',
    header: 'Shares at price',
    width: 'w-36',
    align: 'right',
    cellClassName: 'text-ink-muted tabular-nums',
    cell: (p) => `${formatPoolShares(p.shares)} at ${formatCents(p.price)}`,
  },
  valueColumn(),
  pnlColumn(),
];

const PredictionItem = ({ p }: { p: TPoolPredictionHolding }) => (
  <div className="flex flex-col gap-1 rounded-xl border border-line bg-canvas/50 p-3 text-sm">
    {marketLink(p)}
    <div className="flex items-center justify-between gap-3">
      <span className="flex items-center gap-2 text-xs text-ink-muted tabular-nums">
        {outcomeBadge(p)}
        {formatPoolShares(p.shares)} at {formatCents(p.price)}
      </span>
      <span className="flex flex-col items-end">
        <span className="font-medium text-ink tabular-nums">{formatMoney(p.value)}</span>
        <span className={cn('text-xs font-medium tabular-nums', pnlClass(p.unrealizedPnL))}>{formatSignedMoney(p.unrealizedPnL)}</span>
      </span>
    </div>
  </div>
);

/** What the manager holds with the pool's money: open perpetuals and prediction shares, marked now. */
export const PoolHoldings = ({ positions, managerName }: { positions: TPoolDetail['positions']; managerName: string }) => {
  const isEmpty = positions.perps.length === 0 && positions.predictions.length === 0;
  return (
    <Card aria-labelledby="pool-holdings-title" isPadded={false} className="flex flex-col gap-2 overflow-hidden pb-2">
      <div className="px-5 pt-5 sm:px-6">
        <CardTitle id="pool-holdings-title">Open positions</CardTitle>
        <p className="mt-1 text-sm text-ink-muted">What {managerName} holds with the pool&apos;s money, at current prices.</p>
      </div>
      {isEmpty ? (
        <p className="px-5 pb-4 text-sm text-ink-muted sm:px-6">The pool is all in cash right now.</p>
      ) : (
        <>
          {positions.perps.length > 0 && (
            <section aria-labelledby="pool-perps-title" className="flex flex-col gap-2 pt-2">
              <h3 id="pool-perps-title" className="px-5 text-sm font-medium text-ink-muted sm:px-6">
                Perpetuals
              </h3>
              <DataTable
                rows={positions.perps}
                columns={PERP_COLUMNS}
                rowKey={(p) => p.id}
                caption="The pool's perpetual positions"
                renderItem={(p) => <PerpItem p={p} />}
                listClassName="flex flex-col gap-2 px-4 pb-2"
              />
            </section>
          )}
          {positions.predictions.length > 0 && (
            <section aria-labelledby="pool-predictions-title" className="flex flex-col gap-2 pt-2">
              <h3 id="pool-predictions-title" className="px-5 text-sm font-medium text-ink-muted sm:px-6">
                Predictions
              </h3>
              <DataTable
                rows={positions.predictions}
                columns={PREDICTION_COLUMNS}
                rowKey={(p) => `${p.marketId}:${p.side}`}
                caption="The pool's prediction positions"
                isFixed
                renderItem={(p) => <PredictionItem p={p} />}
                listClassName="flex flex-col gap-2 px-4 pb-2"
              />
            </section>
          )}
        </>
      )}
    </Card>
  );
};
