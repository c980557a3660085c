'use client';

import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { formatDateTime, formatMoney, formatShortDate, formatSignedMoney } from '@/components/ui/format';
import { pnlClass } from '@/components/ui/pnl';
import type { TPool, TPoolLot } from '@/lib/client/queries/pools';
import { useSession } from '@/lib/client/queries/users';
import { formatPoolShares } from './format';

const Stat = ({ label, children, className }: { label: string; children: ReactNode; className?: string }) => (
  <div className="flex flex-col gap-0.5">
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className={cn('text-sm font-semibold text-ink tabular-nums', className)}>{children}</dd>
  </div>
);

const lotName = (lot: TPoolLot) => `Deposit of ${formatMoney(lot.amount)} on ${formatShortDate(lot.createdAt)}`;

/** One lot: what it cost, what it holds and is worth, its profit and the fee a withdrawal would pay now. */
export const PoolLotCard = ({ lot, onWithdraw }: { lot: TPoolLot; onWithdraw?: () => void }) => {
  const isActive = lot.status === 'active';
  return (
    <article aria-label={lotName(lot)} className="rounded-xl border border-line bg-canvas/50 p-4">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          {isActive ? <Badge tone="accent">Active</Badge> : <Badge tone="neutral">Withdrawn</Badge>}
          <span className="text-sm text-ink-muted tabular-nums">
            {formatMoney(lot.amount)} on{' '}
            <time dateTime={lot.createdAt} title={formatDateTime(lot.createdAt)}>
              {formatShortDate(lot.createdAt)}
            </time>
          </span>
        </div>
        {isActive && (
          <span className={cn('text-sm font-semibold tabular-nums', pnlClass(lot.unrealizedPnL))} data-testid="lot-unrealized-pnl">
            {formatSignedMoney(lot.unrealizedPnL)}
            <span className="sr-only"> unrealized profit or loss</span>
          </span>
        )}
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3">
        <Stat label="Shares held">
          <span data-testid="lot-shares">{formatPoolShares(lot.remainingShares)}</span>
          <span className="text-xs font-normal text-ink-muted"> of {formatPoolShares(lot.shares)}</span>
        </Stat>
        <Stat label="Cost basis">{formatMoney(lot.costBasis)}</Stat>
        <Stat label="Value">
          <span data-testid="lot-value">{formatMoney(lot.currentValue)}</span>
        </Stat>
        {isActive && <Stat label="Fee if withdrawn now">{formatMoney(lot.pendingFee)}</Stat>}
        <Stat label="Withdrawn">
          <span data-testid="lot-withdrawn">{formatMoney(lot.withdrawnValue)}</span>
        </Stat>
        <Stat label="Realized P&L" className={pnlClass(lot.realizedPnL)}>
          {formatSignedMoney(lot.realizedPnL)}
        </Stat>
        <Stat label="Fees paid">
          <span data-testid="lot-fees-paid">{formatMoney(lot.feesPaid)}</span>
        </Stat>
      </dl>
      {isActive && onWithdraw && (
        <div className="mt-4 flex justify-end">
          <Button variant="secondary" size="sm" onClick={onWithdraw} className="w-full sm:w-auto">
            Withdraw from this deposit
          </Button>
        </div>
      )}
    </article>
  );
};

/** The caller's lots in this pool (active first) with their stake, each with a way to withdraw from it; nothing for visitors. */
export const PoolLots = ({ pool, lots, onWithdraw }: { pool: TPool; lots: readonly TPoolLot[]; onWithdraw: (lotId: string) => void }) => {
  const session = useSession();
  if (!session.user) return null;
  const active = lots.filter((l) => l.status === 'active');
  const withdrawn = lots.filter((l) => l.status === 'withdrawn');
  const stake = pool.userStake;
  return (
    <Card aria-labelledby="pool-lots-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <CardTitle id="pool-lots-title">Your deposits</CardTitle>
        {stake && stake.shares > 0 && (
          <p className="text-sm text-ink-muted">
            Stake <span className="font-semibold text-ink tabular-nums">{formatMoney(stake.value)}</span>{' '}
            <span className={cn('font-semibold tabular-nums', pnlClass(stake.unrealizedPnL))}>{formatSignedMoney(stake.unrealizedPnL)}</span>
          </p>
        )}
      </div>
      {lots.length === 0 ? (
        <p className="text-sm text-ink-muted">You have not deposited into this pool. Each deposit is kept as its own lot, with its own cost and profit.</p>
      ) : (
        <ul aria-label="Your deposits in this pool" className="flex flex-col gap-3">
          {[...active, ...withdrawn].map((l) => (
            <li key={l.id}>
              <PoolLotCard lot={l} onWithdraw={l.isSeed ? undefined : () => onWithdraw(l.id)} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
};
