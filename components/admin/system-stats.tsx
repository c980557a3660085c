'use client';

import Link from 'next/link';
import { useState } from 'react';
import { Card, CardTitle } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { formatCompactMoney, formatCount, formatMoney } from '@/components/ui/format';
import { LineChart, useWidth } from '@/components/ui/line-chart';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { Skeleton } from '@/components/ui/skeleton';
import {
  isForbidden,
  STATS_RANGES,
  toDaySeries,
  useAdminStats,
  useReportStats,
  type TAdminDay,
  type TDayMetric,
  type TDayPoint,
  type TStatsRange,
} from '@/lib/client/queries/admin';
import { describeError } from '@/lib/client/queries/errors';
import { reportCategoryLabel } from '@/lib/client/queries/moderation';
import { profileHref } from '@/lib/users/links';
import { NotAllowed } from './admin-console';
import { PRIORITY_LABEL } from './format';

const RANGE_OPTIONS = STATS_RANGES.map((d) => ({ value: String(d) as `${TStatsRange}`, label: `${d} days` }));

const CHARTS: readonly { metric: TDayMetric; title: string; unit: string; isMoney?: boolean }[] = [
  { metric: 'trades', title: 'Trades per day', unit: 'trades' },
  { metric: 'volume', title: 'Volume per day', unit: 'volume', isMoney: true },
  { metric: 'signups', title: 'Sign-ups per day', unit: 'sign-ups' },
  { metric: 'reports', title: 'Reports per day', unit: 'reports' },
];

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A whole-number scale from zero (counts never go below), with a little room above the highest day. */
const scaleOf = (values: readonly number[], isMoney: boolean) => {
  const hi = Math.max(0, ...values);
  const max = hi === 0 ? 1 : hi * 1.1;
  return { min: 0, max, formatAxis: (v: number) => (isMoney ? formatCompactMoney(v) : formatCount(Math.round(v))) };
};

/** One daily series as a chart (the shared LineChart, as the markets and pools draw prices). */
const DayChart = ({ byDay, metric, title, unit, isMoney = false, days }: { byDay: readonly TAdminDay[]; metric: TDayMetric; title: string; unit: string; isMoney?: boolean; days: number }) => {
  const [ref, width] = useWidth();
  const series = toDaySeries(byDay, metric);
  const total = series.reduce((sum, p) => sum + p.value, 0);
  const format = (v: number) => (isMoney ? formatMoney(v) : formatCount(v));
  const titleId = `chart-${metric}`;
  const height = width > 0 && width < 420 ? 160 : 200;
  return (
    <Card aria-labelledby={titleId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <CardTitle id={titleId}>{title}</CardTitle>
        <span className="text-sm text-ink-muted tabular-nums">
          {format(total)} in {days} days
        </span>
      </div>
      <div ref={ref} className="w-full" style={{ height }}>
        {series.length === 0 ? (
          <p className="flex h-full items-center justify-center rounded-xl border border-dashed border-line-strong text-sm text-ink-muted">No days to show yet.</p>
        ) : width === 0 ? (
          <Skeleton className="h-full w-full rounded-xl" />
        ) : (
          <LineChart<TDayPoint>
            series={series}
            width={width}
            height={height}
            label={`${title} over the last ${days} days: ${format(total)} ${unit} in total, ${format(series.at(-1)!.value)} on the last day`}
            value={(p) => p.value}
            {...scaleOf(
              series.map((p) => p.value),
              isMoney,
            )}
            axisWidth={isMoney ? 64 : 48}
            formatHover={(p) => `${format(p.value)} on ${dayFormat.format(new Date(p.time * 1000))}`}
            hoverHalfWidth={width < 420 ? 90 : 130}
          />
        )}
      </div>
    </Card>
  );
};

const Figures = ({ id, title, figures }: { id: string; title: string; figures: readonly { label: string; value: string }[] }) => (
  <Card aria-labelledby={id} className="flex flex-col gap-3">
    <CardTitle id={id}>{title}</CardTitle>
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {figures.map((f) => (
        <div key={f.label} className="flex flex-col-reverse gap-0.5">
          <dt className="text-xs text-ink-muted">{f.label}</dt>
          <dd className="text-lg font-semibold text-ink tabular-nums">{f.value}</dd>
        </div>
      ))}
    </dl>
  </Card>
);

/** Horizontal bars of counts, the longest full width. */
const Bars = ({ rows }: { rows: readonly { label: string; count: number }[] }) => {
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <ul className="flex flex-col gap-2">
      {rows.map((r) => (
        <li key={r.label} className="grid grid-cols-[8rem_minmax(0,1fr)_3rem] items-center gap-2 text-sm">
          <span className="truncate text-ink-muted">{r.label}</span>
          <span className="h-2 rounded-full bg-elevated" aria-hidden="true">
            <span className="block h-2 rounded-full bg-accent" style={{ width: `${(r.count / max) * 100}%` }} />
          </span>
          <span className="text-right text-ink tabular-nums">{formatCount(r.count)}</span>
        </li>
      ))}
    </ul>
  );
};

const ReportBreakdown = () => {
  const stats = useReportStats();
  if (stats.isPending) return <Skeleton className="h-64 w-full rounded-2xl" />;
  if (stats.isError) return <ErrorState message={describeError(stats.error)} onRetry={() => stats.refetch()} isRetrying={stats.isFetching} />;
  const s = stats.data;
  const people = (title: string, list: typeof s.topReportedUsers) => (
    <div className="flex flex-col gap-2">
      <h3 className="text-sm font-medium text-ink">{title}</h3>
      {list.length === 0 ? (
        <p className="text-sm text-ink-muted">Nobody yet.</p>
      ) : (
        <ol className="flex flex-col gap-1 text-sm">
          {list.map((e) => (
            <li key={e.user.id} className="flex justify-between gap-2">
              <Link href={profileHref(e.user)} className="truncate text-ink hover:underline">
                @{e.user.username}
              </Link>
              <span className="text-ink-muted tabular-nums">{formatCount(e.reportCount)}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
  return (
    <Card aria-labelledby="report-breakdown-title" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <CardTitle id="report-breakdown-title">Reports</CardTitle>
        <span className="text-sm text-ink-muted">
          {formatCount(s.recentActivity.last7Days)} filed and {formatCount(s.recentActivity.resolved7Days)} resolved in the last 7 days
        </span>
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <div className="flex flex-col gap-2">
          <h3 className="text-sm font-medium text-ink">By category</h3>
          <Bars rows={s.byCategory.map((c) => ({ label: reportCategoryLabel(c.category), count: c.count }))} />
        </div>
        <div className="flex flex-col gap-2">
          <h3 className="text-sm font-medium text-ink">By priority</h3>
          <Bars rows={s.byPriority.map((p) => ({ label: PRIORITY_LABEL[p.priority], count: p.count }))} />
        </div>
        {people('Most reported users', s.topReportedUsers)}
        {people('Most active reporters', s.topReporters)}
      </div>
    </Card>
  );
};

/**
 * System statistics (administrators): players and activity, trading (volume, open interest),
 * reports, and the daily series of trades, volume, sign-ups and reports as charts over 7, 30 or
 * 90 days; then the report breakdown.
 */
export const SystemStats = () => {
  const [range, setRange] = useState<`${TStatsRange}`>('30');
  const days = Number(range) as TStatsRange;
  const query = useAdminStats(days);

  let body;
  if (query.isPending) {
    body = (
      <div role="status" aria-label="Loading statistics" className="grid gap-4 md:grid-cols-2">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-48 w-full rounded-2xl" />
        ))}
      </div>
    );
  } else if (query.isError && !query.data) {
    body = isForbidden(query.error) ? (
      <NotAllowed title="Administrators only" description="Only administrators see the system statistics." />
    ) : (
      <ErrorState message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />
    );
  } else {
    const s = query.data!;
    body = (
      <div className="flex flex-col gap-4" aria-busy={query.isPlaceholderData || undefined}>
        <Figures
          id="stats-users"
          title="Users"
          figures={[
            { label: 'Total', value: formatCount(s.users.total) },
            { label: 'Players', value: formatCount(s.users.players) },
            { label: 'NPC actors', value: formatCount(s.users.actors) },
            { label: 'Agents', value: formatCount(s.users.agents) },
            { label: 'Active 24 h', value: formatCount(s.users.active24h) },
            { label: 'Active 7 days', value: formatCount(s.users.active7d) },
            { label: 'New 24 h', value: formatCount(s.users.new24h) },
            { label: 'Banned', value: formatCount(s.users.banned) },
          ]}
        />
        <Figures
          id="stats-trading"
          title="Trading"
          figures={[
            { label: 'Trades', value: formatCount(s.trading.trades) },
            { label: 'Trades 24 h', value: formatCount(s.trading.trades24h) },
            { label: 'Volume', value: formatCompactMoney(s.trading.volume) },
            { label: 'Volume 24 h', value: formatCompactMoney(s.trading.volume24h) },
            { label: 'Open interest', value: formatCompactMoney(s.trading.openInterest) },
            { label: 'Perps', value: formatCompactMoney(s.trading.perpOpenInterest) },
            { label: 'Predictions', value: formatCompactMoney(s.trading.predictionOpenInterest) },
            { label: 'Active markets', value: formatCount(s.trading.activeMarkets) },
            { label: 'Open orders', value: formatCount(s.trading.openOrders) },
            { label: 'Orders 24 h', value: formatCount(s.trading.orders24h) },
            { label: 'Held by orders', value: formatCompactMoney(s.trading.ordersReserved) },
          ]}
        />
        <Figures
          id="stats-reports"
          title="Report totals"
          figures={[
            { label: 'All', value: formatCount(s.reports.total) },
            { label: 'Pending', value: formatCount(s.reports.pending) },
            { label: 'Reviewing', value: formatCount(s.reports.reviewing) },
            { label: 'Last 24 h', value: formatCount(s.reports.last24h) },
          ]}
        />
        <div className="grid gap-4 md:grid-cols-2">
          {CHARTS.map((c) => (
            <DayChart key={c.metric} byDay={s.byDay} days={days} {...c} />
          ))}
        </div>
      </div>
    );
  }

  return (
    <section aria-labelledby="stats-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="stats-title" className="text-lg font-semibold tracking-tight text-ink">
          System statistics
        </h2>
        <SegmentedControl label="Days shown" value={range} options={RANGE_OPTIONS} onChange={setRange} size="sm" />
      </div>
      {body}
      <ReportBreakdown />
    </section>
  );
};
