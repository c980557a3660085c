'use client';

import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import { PositionStops } from '@/components/orders/perp-stops';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { Notice } from '@/components/ui/error-state';
import { formatDateTime, formatMoney, formatRelativeTime, formatSignedMoney } from '@/components/ui/format';
import { pnlClass } from '@/components/ui/pnl';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { PERP_ERROR_MESSAGES, useClosePerp, useMyPerpPositions, type TPerpPosition } from '@/lib/client/queries/perps';
import { useSession } from '@/lib/client/queries/users';
import { formatLeverage, formatPrice } from './format';

const sideLabel = (side: TPerpPosition['side']) => (side === 'long' ? 'Long' : 'Short');

const SideBadge = ({ position }: { position: Pick<TPerpPosition, 'side' | 'leverage'> }) => (
  <Badge tone={position.side === 'long' ? 'up' : 'down'}>
    {sideLabel(position.side)} {formatLeverage(position.leverage)}
  </Badge>
);

const Stat = ({ label, children, className }: { label: string; children: ReactNode; className?: string }) => (
  <div className="flex flex-col gap-0.5">
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className={cn('text-sm font-semibold text-ink tabular-nums', className)}>{children}</dd>
  </div>
);

const percentWords = (percent: number) => `${percent > 0 ? '+' : ''}${percent.toFixed(2)}%`;

/** One open position with its live unrealized PnL and a Close button; `children` go at its foot (the ticker page's stops). */
export const OpenPerpCard = ({
  position: p,
  onClose,
  isClosing,
  showTicker = false,
  children,
}: {
  position: TPerpPosition;
  onClose?: () => void;
  isClosing?: boolean;
  showTicker?: boolean;
  children?: ReactNode;
}) => (
  <article aria-label={`${sideLabel(p.side)} ${formatLeverage(p.leverage)} ${p.ticker} position`} className="rounded-xl border border-line bg-canvas/50 p-4">
    {showTicker && (
      <Link href={`/perps/${p.ticker}`} className="mb-2 block truncate text-sm font-medium text-ink hover:underline">
        {p.name} <span className="text-ink-muted">({p.ticker})</span>
      </Link>
    )}
    <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
      <div className="flex items-center gap-2">
        <SideBadge position={p} />
        <span className="text-sm text-ink-muted tabular-nums">{formatMoney(p.size)} size</span>
      </div>
      <span className={cn('text-sm font-semibold tabular-nums', pnlClass(p.unrealizedPnL))} data-testid="perp-unrealized-pnl">
        {formatSignedMoney(p.unrealizedPnL)} ({percentWords(p.unrealizedPnLPercent)})<span className="sr-only"> unrealized profit or loss</span>
      </span>
    </div>
    <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3">
      <Stat label="Entry price">{formatPrice(p.entryPrice)}</Stat>
      <Stat label="Mark price">{formatPrice(p.markPrice)}</Stat>
      <Stat label="Liquidation price" className={p.liquidationPrice > 0 ? 'text-down' : 'text-ink-muted'}>
        {p.liquidationPrice > 0 ? formatPrice(p.liquidationPrice) : 'None'}
      </Stat>
      <Stat label="Margin">{formatMoney(p.collateral)}</Stat>
      <Stat label="Funding paid">{formatSignedMoney(p.fundingPaid)}</Stat>
      <Stat label="Unrealized P&L" className={pnlClass(p.unrealizedPnL)}>
        {formatSignedMoney(p.unrealizedPnL)}
      </Stat>
    </dl>
    {onClose && (
      <div className="mt-4 flex justify-end">
        <Button variant="secondary" size="sm" onClick={onClose} isLoading={isClosing} className="w-full sm:w-auto">
          Close position
        </Button>
      </div>
    )}
    {children}
  </article>
);

const LoadingList = ({ label }: { label: string }) => (
  <div role="status" aria-label={label} className="flex flex-col gap-3">
    <Skeleton className="h-28 w-full" />
  </div>
);

const LoadError = ({ error, onRetry, isRetrying }: { error: unknown; onRetry: () => void; isRetrying: boolean }) => (
  <div role="alert" className="flex items-center justify-between gap-3 text-sm text-ink-muted">
    {describeError(error)}
    <Button size="sm" variant="secondary" onClick={onRetry} isLoading={isRetrying}>
      Try again
    </Button>
  </div>
);

const OpenPositionsBody = ({ ticker, userId }: { ticker: string; userId: string }) => {
  const positions = useMyPerpPositions(userId, 'open', { ticker });
  const close = useClosePerp(ticker, userId);
  const [result, setResult] = useState<string | null>(null);

  const onClose = (p: TPerpPosition) => {
    setResult(null);
    close.mutate(p.id, {
      onSuccess: (r) =>
        setResult(
          `Closed your ${formatLeverage(p.leverage)} ${p.side} at ${formatPrice(r.exitPrice)}: net ${formatSignedMoney(r.netPnL)} after fees and funding. New balance ${formatMoney(r.newBalance)}.`,
        ),
    });
  };

  return (
    <div className="flex flex-col gap-3">
      {positions.isPending ? (
        <LoadingList label="Loading open positions" />
      ) : positions.isError ? (
        <LoadError error={positions.error} onRetry={() => positions.refetch()} isRetrying={positions.isFetching} />
      ) : positions.data.length === 0 ? (
        <p className="text-sm text-ink-muted">You have no open positions on this ticker.</p>
      ) : (
        <ul aria-label="Open positions" className="flex flex-col gap-3">
          {positions.data.map((p) => (
            <li key={p.id}>
              <OpenPerpCard position={p} onClose={() => onClose(p)} isClosing={close.isPending && close.variables === p.id}>
                <PositionStops position={p} userId={userId} />
              </OpenPerpCard>
            </li>
          ))}
        </ul>
      )}
      {close.isError && <Notice tone="error">{describeError(close.error, PERP_ERROR_MESSAGES)}</Notice>}
      {result && <Notice tone="success">{result}</Notice>}
    </div>
  );
};

const statusBadge = (status: TPerpPosition['status']) =>
  status === 'liquidated' ? <Badge tone="down">Liquidated</Badge> : <Badge tone="neutral">Closed</Badge>;

/** A closed or liquidated position with its result. */
const ClosedPerpCard = ({ position: p }: { position: TPerpPosition }) => {
  const net = p.netPnL ?? 0;
  return (
    <article
      aria-label={`${p.status === 'liquidated' ? 'Liquidated' : 'Closed'} ${sideLabel(p.side).toLowerCase()} ${formatLeverage(p.leverage)} position`}
      className="rounded-xl border border-line bg-canvas/50 p-4"
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2">
          {statusBadge(p.status)}
          <SideBadge position={p} />
          <span className="text-sm text-ink-muted tabular-nums">{formatMoney(p.size)} size</span>
        </div>
        {p.closedAt && (
          <time dateTime={p.closedAt} title={formatDateTime(p.closedAt)} className="text-xs text-ink-faint">
            {formatRelativeTime(p.closedAt)}
          </time>
        )}
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
        <Stat label="Entry price">{formatPrice(p.entryPrice)}</Stat>
        <Stat label="Exit price">{p.exitPrice === null ? '—' : formatPrice(p.exitPrice)}</Stat>
        <Stat label="Funding paid">{formatSignedMoney(p.fundingPaid)}</Stat>
        <Stat label="Net P&L" className={pnlClass(net)}>
          <span data-testid="perp-net-pnl">{p.netPnL === null ? '—' : formatSignedMoney(net)}</span>
        </Stat>
      </dl>
    </article>
  );
};

const ClosedPositionsBody = ({ ticker, userId }: { ticker: string; userId: string }) => {
  const positions = useMyPerpPositions(userId, 'closed', { ticker });
  if (positions.isPending) return <LoadingList label="Loading closed positions" />;
  if (positions.isError) return <LoadError error={positions.error} onRetry={() => positions.refetch()} isRetrying={positions.isFetching} />;
  if (positions.data.length === 0) return <p className="text-sm text-ink-muted">Positions you close, or that are liquidated, are listed here with their results.</p>;
  return (
    <ul aria-label="Closed positions" className="flex flex-col gap-3">
      {positions.data.map((p) => (
        <li key={p.id}>
          <ClosedPerpCard position={p} />
        </li>
      ))}
    </ul>
  );
};

/** The signed-in user's open positions on a ticker (live) and their closed or liquidated ones. */
export const PerpPositions = ({ ticker }: { ticker: string }) => {
  const session = useSession();
  if (session.isPending) return <Skeleton className="h-32 w-full rounded-2xl" />;
  if (!session.user) return null;
  return (
    <>
      <Card aria-labelledby="perp-open-title" className="flex flex-col gap-3">
        <CardTitle id="perp-open-title">Your open positions</CardTitle>
        <OpenPositionsBody ticker={ticker} userId={session.user.id} />
      </Card>
      <Card aria-labelledby="perp-closed-title" className="flex flex-col gap-3">
        <CardTitle id="perp-closed-title">Closed positions</CardTitle>
        <ClosedPositionsBody ticker={ticker} userId={session.user.id} />
      </Card>
    </>
  );
};
