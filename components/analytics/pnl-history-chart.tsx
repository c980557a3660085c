'use client';

/**
 * "P&L over time" (issue 35, Analytics): the account's P&L from its daily closes and now
 * (GET /api/users/{userId}/pnl-history), over a day, a week, a month or all, in total or by
 * product, with the range's P&L, ROI and maximum drawdown. Used by the portfolio and the public
 * profile; the chart is the shared LineChart, its accessible name says start, end and change.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { formatMoney, formatSignedMoney } from '@/components/ui/format';
import { LineChart, useWidth } from '@/components/ui/line-chart';
import { signedAmountClass } from '@/components/ui/pnl';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, tabPanelProps } from '@/components/ui/tabs';
import { api } from '@/lib/client/api';
import { describeError } from '@/lib/client/queries/errors';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { usersPnlHistory } from '@/lib/contracts/track-record';
import { formatFraction, PNL_PRODUCTS, PNL_RANGE_TABS, PNL_RANGE_WORDS, pnlChartLabel, productValue, type TPnlProduct, type TPnlRangeTab } from './pnl-summary';

export type TPnlHistory = TEndpointResponse<typeof usersPnlHistory>;

export const pnlHistoryKey = (userId: string, range: TPnlRangeTab) => ['pnl-history', userId, range] as const;

const usePnlHistory = (userId: string, range: TPnlRangeTab) =>
  useQuery({
    queryKey: pnlHistoryKey(userId, range),
    queryFn: () => api(usersPnlHistory, { params: { userId }, query: { range } }),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });

const Figure = ({ label, value, className, testId }: { label: string; value: string; className?: string; testId?: string }) => (
  <div>
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd data-testid={testId} className={cn('mt-0.5 text-base font-semibold tabular-nums', className)}>
      {value}
    </dd>
  </div>
);

const Chart = ({ data, product, range }: { data: TPnlHistory; product: TPnlProduct; range: TPnlRangeTab }) => {
  const [ref, width] = useWidth();
  const height = width > 0 && width < 480 ? 180 : 220;
  const productLabel = PNL_PRODUCTS.find((p) => p.value === product)!.label;
  const series = data.points
    .map((p) => ({ time: Math.floor(new Date(p.at).getTime() / 1000), raw: productValue(p, product) }))
    .filter((p): p is { time: number; raw: string } => p.raw !== null)
    .map((p) => ({ ...p, value: Number(p.raw) }));
  if (series.length < 2) {
    return (
      <p data-testid="pnl-history-empty" className="flex h-32 items-center justify-center rounded-xl border border-dashed border-line-strong px-4 text-center text-sm text-ink-muted">
        Not enough history yet: the chart starts after the first daily close.
      </p>
    );
  }
  const values = series.map((p) => p.value);
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  const padV = Math.max((hi - lo) * 0.1, 1);
  const change = product === 'total' ? data.summary.pnl : (data.summary.products?.[product] ?? '0');
  const label = pnlChartLabel({
    range,
    productLabel,
    start: series[0]!.raw,
    end: series.at(-1)!.raw,
    change,
    roi: data.summary.roi,
    maxDrawdown: data.summary.maxDrawdown.fraction,
  });
  return (
    <div ref={ref} data-testid="pnl-history-chart" className="w-full" style={{ height }}>
      {width > 0 && (
        <LineChart
          series={series}
          width={width}
          height={height}
          label={label}
          value={(p) => p.value}
          min={lo - padV}
          max={hi + padV}
          axisWidth={64}
          formatAxis={(v) => formatSignedMoney(v.toFixed(2))}
          formatHover={(p) => formatSignedMoney(p.raw)}
          hoverHalfWidth={90}
        />
      )}
    </div>
  );
};

/** The P&L-over-time card of an account (`userId`): range tabs, a product choice, figures and the chart. */
export const PnlHistoryCard = ({ userId, className }: { userId: string; className?: string }) => {
  const titleId = useId();
  const tabsId = useId();
  const [range, setRange] = useState<TPnlRangeTab>('month');
  const [product, setProduct] = useState<TPnlProduct>('total');
  const history = usePnlHistory(userId, range);
  const data = history.data;
  const change = data ? (product === 'total' ? data.summary.pnl : (data.summary.products?.[product] ?? null)) : null;
  return (
    <Card aria-labelledby={titleId} data-testid="pnl-history" className={cn('flex flex-col gap-4', className)}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <CardTitle id={titleId}>P&L over time</CardTitle>
        <SegmentedControl label="P&L of" value={product} options={PNL_PRODUCTS} onChange={setProduct} size="sm" className="w-full sm:w-auto" />
      </div>
      <Tabs label="P&L range" idPrefix={tabsId} value={range} tabs={PNL_RANGE_TABS} onChange={setRange} />
      <div {...tabPanelProps(tabsId, range)} aria-busy={history.isFetching || undefined} className="flex flex-col gap-4">
        {history.isError && !data ? (
          <div role="alert" className="flex h-32 flex-col items-center justify-center gap-3 rounded-xl border border-dashed border-line-strong text-sm text-ink-muted">
            The P&L history did not load: {describeError(history.error)}
            <Button variant="secondary" size="sm" onClick={() => history.refetch()} isLoading={history.isFetching}>
              Try again
            </Button>
          </div>
        ) : !data ? (
          <div role="status" aria-label="Loading P&L history" className="flex flex-col gap-3">
            <Skeleton className="h-12 w-full rounded-xl" />
            <Skeleton className="h-48 w-full rounded-xl" />
          </div>
        ) : (
          <>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
              <Figure
                label={`P&L ${PNL_RANGE_WORDS[range]}`}
                value={change === null ? '—' : formatSignedMoney(change)}
                className={change === null ? 'text-ink-muted' : signedAmountClass(change, 'text-ink')}
                testId="pnl-history-change"
              />
              <Figure label="ROI" value={formatFraction(data.summary.roi)} className={signedAmountClass(data.summary.roi, 'text-ink')} testId="pnl-history-roi" />
              <Figure
                label="Max drawdown"
                value={`${formatFraction(data.summary.maxDrawdown.fraction).replace(/^[+-]/, '')}${data.summary.maxDrawdown.amount ? ` (${formatMoney(data.summary.maxDrawdown.amount)})` : ''}`}
                className="text-ink"
                testId="pnl-history-drawdown"
              />
              {data.showsEquity && data.summary.endEquity !== null && (
                <Figure label="Equity" value={formatMoney(data.summary.endEquity)} className="text-ink" />
              )}
            </dl>
            <Chart data={data} product={product} range={range} />
          </>
        )}
      </div>
    </Card>
  );
};
