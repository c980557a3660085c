'use client';

import Link from 'next/link';
import { useState } from 'react';
import { Badge, type TBadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatDateTime, formatMoney, formatSignedMoney } from '@/components/ui/format';
import { MarketsIcon, PortfolioIcon } from '@/components/ui/icons';
import { pnlClass } from '@/components/ui/pnl';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import {
  describeBrier,
  toCalibrationPoints,
  useTrackRecord,
  useUserTrades,
  type TTrackRecord,
  type TUserTrade,
} from '@/lib/client/queries/track-record';

const pct = (x: number) => `${Math.round(x * 100)}%`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const linkClass = 'rounded font-medium text-ink hover:text-accent hover:underline focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none';

const Figure = ({ label, value, hint, className }: { label: string; value: string; hint?: string; className?: string }) => (
  <div className="flex min-w-0 flex-col gap-0.5">
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className={cn('text-base font-semibold tabular-nums sm:text-lg', className ?? 'text-ink')}>{value}</dd>
    {hint && <dd className="text-xs text-ink-muted">{hint}</dd>}
  </div>
);

/** Said vs. happened per probability bucket, as a table with bars (readable without the bars). */
const CalibrationChart = ({ record }: { record: TTrackRecord }) => {
  const points = toCalibrationPoints(record.calibration.buckets);
  return (
    <table className="w-full text-sm" data-testid="calibration-chart">
      <caption className="mb-2 text-left text-xs text-ink-muted">
        What the buys said (probability of YES) against how often those questions resolved YES, over {record.calibration.resolvedForecasts} resolved{' '}
        {record.calibration.resolvedForecasts === 1 ? 'question' : 'questions'}.
      </caption>
      <thead className="sr-only">
        <tr>
          <th scope="col">Forecast range</th>
          <th scope="col">Questions</th>
          <th scope="col">Said and happened</th>
        </tr>
      </thead>
      <tbody>
        {points.map((p) => (
          <tr key={p.label} className="border-t border-line first:border-t-0">
            <th scope="row" className="w-20 py-1.5 pr-2 text-left text-xs font-medium whitespace-nowrap text-ink-muted">
              {p.label}
            </th>
            <td className="w-10 py-1.5 pr-2 text-right text-xs text-ink-muted tabular-nums">{p.forecasts}</td>
            <td className="py-1.5">
              {p.said === null || p.happened === null ? (
                <span className="text-xs text-ink-muted">no questions</span>
              ) : (
                <span className="flex flex-col gap-1">
                  <span className="flex items-center gap-2">
                    <span className="h-2 rounded-full bg-accent" style={{ width: `${Math.max(2, p.said)}%` }} aria-hidden="true" />
                    <span className="text-xs text-ink-muted tabular-nums">said {p.said}%</span>
                  </span>
                  <span className="flex items-center gap-2">
                    <span className="h-2 rounded-full bg-up" style={{ width: `${Math.max(2, p.happened)}%` }} aria-hidden="true" />
                    <span className="text-xs text-ink-muted tabular-nums">happened {p.happened}%</span>
                  </span>
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
};

const OpenPositions = ({ record }: { record: TTrackRecord }) => {
  const { predictions, perps } = record.openPositions;
  if (predictions.length + perps.length === 0) {
    return <EmptyState icon={<PortfolioIcon />} headingLevel={3} title="No open positions" description="Open questions and perps this player holds show up here." />;
  }
  return (
    <ul aria-label="Open positions" className="divide-y divide-line rounded-xl border border-line">
      {predictions.map((p) => (
        <li key={p.id} className="flex items-start justify-between gap-3 px-3 py-2.5 text-sm">
          <span className="min-w-0">
            <Link href={`/markets/${encodeURIComponent(p.marketId)}`} className={cn(linkClass, 'line-clamp-2 break-words')}>
              {p.question}
            </Link>
            <span className="mt-0.5 block text-xs text-ink-muted tabular-nums">
              {p.shares.toFixed(2)} {p.side} at {pct(p.avgPrice)} · now {pct(p.currentPrice)}
            </span>
          </span>
          <span className="shrink-0 text-right tabular-nums">
            <span className="block text-ink">{formatMoney(p.value)}</span>
            <span className={cn('block text-xs', pnlClass(p.unrealizedPnL))}>{formatSignedMoney(p.unrealizedPnL)}</span>
          </span>
        </li>
      ))}
      {perps.map((p) => (
        <li key={p.id} className="flex items-start justify-between gap-3 px-3 py-2.5 text-sm">
          <span className="min-w-0">
            <Link href={`/perps/${encodeURIComponent(p.ticker)}`} className={linkClass}>
              ${p.ticker}
            </Link>{' '}
            <Badge tone={p.side === 'long' ? 'up' : 'down'}>
              {p.leverage}x {p.side}
            </Badge>
            <span className="mt-0.5 block text-xs text-ink-muted tabular-nums">
              {formatMoney(p.size)} from {p.entryPrice.toFixed(2)} · mark {p.markPrice.toFixed(2)}
            </span>
          </span>
          <span className={cn('shrink-0 text-right tabular-nums', pnlClass(p.unrealizedPnL))}>{formatSignedMoney(p.unrealizedPnL)}</span>
        </li>
      ))}
    </ul>
  );
};

const ACTION_TONE: Record<TUserTrade['action'], TBadgeTone> = { buy: 'accent', sell: 'neutral', open: 'warn', close: 'neutral', liquidation: 'down' };

const TradeRow = ({ t }: { t: TUserTrade }) => {
  const isPerp = t.type === 'perp';
  const href = isPerp ? `/perps/${encodeURIComponent(t.ticker ?? t.marketId)}` : `/markets/${encodeURIComponent(t.marketId)}`;
  return (
    <li className="flex items-start justify-between gap-3 px-3 py-2.5 text-sm">
      <span className="min-w-0">
        <span className="flex flex-wrap items-center gap-1.5">
          <Badge tone={ACTION_TONE[t.action]}>{t.action}</Badge>
          <span className="text-xs font-medium text-ink-muted">{t.side}</span>
        </span>
        <Link href={href} className={cn(linkClass, 'mt-1 line-clamp-2 block break-words')}>
          {isPerp ? `$${t.ticker ?? t.marketId}` : t.question}
        </Link>
        <time dateTime={t.createdAt} className="mt-0.5 block text-xs text-ink-muted">
          {formatDateTime(t.createdAt)}
        </time>
      </span>
      <span className="shrink-0 text-right tabular-nums">
        <span className="block text-ink">{formatMoney(t.amount)}</span>
        <span className="block text-xs text-ink-muted">at {isPerp ? t.price.toFixed(2) : pct(t.price)}</span>
      </span>
    </li>
  );
};

const TradeHistory = ({ userId }: { userId: string }) => {
  const [page, setPage] = useState(1);
  const trades = useUserTrades(userId, page);
  if (trades.isPending) return <Skeleton className="h-40 w-full rounded-xl" />;
  if (trades.isError) return <ErrorState message={describeError(trades.error)} onRetry={() => trades.refetch()} isRetrying={trades.isFetching} />;
  const { pagination } = trades.data;
  if (pagination.total === 0) {
    return <EmptyState icon={<MarketsIcon />} headingLevel={3} title="No trades yet" description="Buys, sells and perp trades show up here, newest first." />;
  }
  return (
    <div className="flex flex-col gap-3">
      <ul aria-label="Trade history" aria-busy={trades.isPlaceholderData} className={cn('divide-y divide-line rounded-xl border border-line', trades.isPlaceholderData && 'opacity-60')}>
        {trades.data.trades.map((t) => (
          <TradeRow key={`${t.type}-${t.id}`} t={t} />
        ))}
      </ul>
      {pagination.pages > 1 && (
        <nav aria-label="Trade history pages" className="flex items-center justify-between gap-2">
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage((p) => Math.max(1, p - 1))}>
            Newer
          </Button>
          <span className="text-xs text-ink-muted" aria-live="polite">
            Page {pagination.page} of {pagination.pages} · {pagination.total} trades
          </span>
          <Button variant="secondary" size="sm" disabled={page >= pagination.pages} onClick={() => setPage((p) => p + 1)}>
            Older
          </Button>
        </nav>
      )}
    </div>
  );
};

/**
 * A player's track record on their profile: realized and open PnL, win rate, trade count and
 * calibration (Brier score with a chart), open positions, and the trade history by page.
 */
export const TrackRecord = ({ userId }: { userId: string }) => {
  const record = useTrackRecord(userId);
  return (
    <Card aria-labelledby="track-record-title" className="flex flex-col gap-5" data-testid="track-record">
      <CardTitle id="track-record-title">Track record</CardTitle>
      {record.isPending ? (
        <div role="status" aria-label="Loading the track record" className="flex flex-col gap-3">
          <Skeleton className="h-16 w-full rounded-xl" />
          <Skeleton className="h-32 w-full rounded-xl" />
        </div>
      ) : record.isError ? (
        <ErrorState message={describeError(record.error)} onRetry={() => record.refetch()} isRetrying={record.isFetching} />
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-4 sm:grid-cols-3 lg:grid-cols-6">
            <Figure
              label="P&L"
              value={formatSignedMoney(record.data.pnl.total)}
              className={pnlClass(record.data.pnl.total)}
              hint={`Questions ${formatSignedMoney(record.data.pnl.predictions)} · perps ${formatSignedMoney(record.data.pnl.perps)} · pools ${formatSignedMoney(record.data.pnl.pools)}`}
            />
            <Figure label="Realized P&L" value={formatSignedMoney(record.data.realizedPnL.total)} className={pnlClass(record.data.realizedPnL.total)} />
            <Figure label="Open P&L" value={formatSignedMoney(record.data.unrealizedPnL)} className={pnlClass(record.data.unrealizedPnL)} />
            <Figure
              label="Win rate"
              value={record.data.closedPositions ? pct(record.data.winRate) : '—'}
              hint={`${record.data.winningPositions} of ${record.data.closedPositions} closed`}
            />
            <Figure label="Trades" value={String(record.data.trades.total)} hint={`${plural(record.data.trades.predictions, 'question')} · ${plural(record.data.trades.perps, 'perp')}`} />
            <Figure
              label="Brier score"
              value={record.data.calibration.brier === null ? '—' : record.data.calibration.brier.toFixed(3)}
              hint={describeBrier(record.data.calibration.brier)}
            />
          </dl>
          {record.data.calibration.resolvedForecasts > 0 && (
            <section aria-labelledby="calibration-title" className="flex flex-col gap-2">
              <h3 id="calibration-title" className="text-sm font-semibold text-ink">
                Calibration
              </h3>
              <CalibrationChart record={record.data} />
            </section>
          )}
          <section aria-labelledby="open-positions-title" className="flex flex-col gap-2">
            <h3 id="open-positions-title" className="text-sm font-semibold text-ink">
              Open positions
            </h3>
            <OpenPositions record={record.data} />
          </section>
          <section aria-labelledby="trade-history-title" className="flex flex-col gap-2">
            <h3 id="trade-history-title" className="text-sm font-semibold text-ink">
              Trade history
            </h3>
            <TradeHistory userId={userId} />
          </section>
        </>
      )}
    </Card>
  );
};
