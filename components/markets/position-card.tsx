import Link from 'next/link';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/components/ui/cn';
import { formatMoney, formatSignedMoney } from '@/components/ui/format';
import { pnlClass } from '@/components/ui/pnl';
import type { TPosition } from '@/lib/client/queries/markets';
import { formatCents, formatShares } from './format';

const Stat = ({ label, children, className }: { label: string; children: ReactNode; className?: string }) => (
  <div className="flex flex-col gap-0.5">
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className={cn('text-sm font-semibold text-ink tabular-nums sm:text-base', className)}>{children}</dd>
  </div>
);

/** One open position: side, shares, average and current price, value and unrealised P&L. */
export const PositionCard = ({ position, showQuestion = false }: { position: TPosition; showQuestion?: boolean }) => (
  <article aria-label={`Your ${position.side} position`} className="rounded-xl border border-line bg-canvas/50 p-4">
    {showQuestion && (
      <Link href={`/markets/${position.marketId}`} className="mb-2 line-clamp-2 text-sm font-medium text-ink hover:underline">
        {position.question}
      </Link>
    )}
    <div className="mb-3 flex items-center justify-between gap-3">
      <div className="flex min-w-0 items-center gap-2">
        <Badge tone={position.side === 'YES' ? 'up' : 'down'}>{position.side}</Badge>
        <span className="text-sm text-ink-muted">
          <span data-testid="position-shares" className="font-semibold text-ink tabular-nums">
            {formatShares(position.shares)}
          </span>{' '}
          shares
        </span>
      </div>
      <span className={cn('text-sm font-semibold tabular-nums', pnlClass(position.unrealizedPnL))}>
        {formatSignedMoney(position.unrealizedPnL)}
        <span className="sr-only"> unrealized profit or loss</span>
      </span>
    </div>
    <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
      <Stat label="Avg price">{formatCents(position.avgPrice)}</Stat>
      <Stat label="Current price">{formatCents(position.currentPrice)}</Stat>
      <Stat label="Value">{formatMoney(position.value)}</Stat>
      <Stat label="Unrealized P&L" className={pnlClass(position.unrealizedPnL)}>
        {formatSignedMoney(position.unrealizedPnL)}
      </Stat>
    </dl>
  </article>
);
