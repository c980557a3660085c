'use client';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { formatCount, formatDateTime } from '@/components/ui/format';
import { Skeleton } from '@/components/ui/skeleton';
import { barPercent, formatMs, GROUP_LABELS, targetText, verdictOf } from './latency-format';
import { useLatencyStatus, type TGroupLatency } from './use-latency-status';

const Bar = ({ label, ms, maxMs, targetMs, tone }: { label: string; ms: number | null; maxMs: number; targetMs: number | null; tone: string }) => (
  <div className="flex items-center gap-2">
    <span className="w-8 shrink-0 text-xs text-ink-muted">{label}</span>
    {/* The figures are in the table cells; the bar only shows them. */}
    <div aria-hidden="true" className="relative h-2.5 min-w-16 flex-1 rounded-full bg-elevated">
      <div className={`absolute inset-y-0 left-0 rounded-full ${tone}`} style={{ width: `${barPercent(ms, maxMs)}%` }} />
      {targetMs !== null && <div className="absolute inset-y-[-3px] w-0.5 bg-ink" style={{ left: `${barPercent(targetMs, maxMs)}%` }} />}
    </div>
  </div>
);

const Row = ({ g, maxMs }: { g: TGroupLatency; maxMs: number }) => {
  const verdict = verdictOf(g);
  const tone = verdict.tone === 'down' ? 'bg-down' : verdict.tone === 'up' ? 'bg-up' : 'bg-accent';
  return (
    <tr className="border-t border-line align-middle">
      <th scope="row" className="py-3 pr-3 text-left text-sm font-medium text-ink">
        {GROUP_LABELS[g.group]}
      </th>
      <td className="py-3 pr-3 text-right text-sm tabular-nums text-ink-muted">{formatCount(g.count)}</td>
      <td className="py-3 pr-3 text-right text-sm tabular-nums text-ink">{formatMs(g.p50Ms)}</td>
      <td className="py-3 pr-3 text-right text-sm tabular-nums text-ink">{formatMs(g.p99Ms)}</td>
      <td className="hidden w-1/4 py-3 pr-3 sm:table-cell">
        <div className="flex flex-col gap-1">
          <Bar label="p50" ms={g.p50Ms} maxMs={maxMs} targetMs={g.target?.p50Ms ?? null} tone={tone} />
          <Bar label="p99" ms={g.p99Ms} maxMs={maxMs} targetMs={g.target?.p99Ms ?? null} tone={tone} />
        </div>
      </td>
      <td className="py-3 pr-3 text-sm text-ink-muted">{targetText(g.target)}</td>
      <td className="py-3 text-sm">
        <Badge tone={verdict.tone}>{verdict.label}</Badge>
      </td>
    </tr>
  );
};

/**
 * The published latency: p50 and p99 per route group and of live-update delivery over the last
 * hour, against the targets, refreshed every 15 s. The figures are in a table (its caption names
 * it); the bars beside them, on a log scale with the target as a tick, are decoration.
 */
export const LatencyBoard = () => {
  const status = useLatencyStatus();
  if (status.isError && !status.data) {
    return (
      <ErrorState
        title="The status could not be loaded"
        message="The latency figures did not load. They refresh by themselves every 15 seconds."
        onRetry={() => void status.refetch()}
        isRetrying={status.isFetching}
      />
    );
  }
  const data = status.data;
  const maxMs = Math.max(1000, ...(data?.groups ?? []).flatMap((g) => [g.p99Ms ?? 0, g.target?.p99Ms ?? 0]));
  const targets = data?.targets ?? [];
  return (
    <div className="flex flex-col gap-6">
      <Card aria-labelledby="status-targets-title">
        <CardTitle id="status-targets-title">Published targets</CardTitle>
        <CardDescription>Over the last hour{data ? (data.source === 'redis' ? ', across every server' : ', as measured by the server that answered') : ''}.</CardDescription>
        <ul className="mt-4 grid grid-cols-1 gap-2 sm:grid-cols-3" aria-busy={!data}>
          {data
            ? targets.map((t) => {
                const tone = t.met === null ? 'neutral' : t.met ? 'up' : 'down';
                return (
                  <li key={`${t.group}-${t.percentile}`} className="rounded-lg border border-line bg-surface px-3 py-2">
                    <p className="text-xs text-ink-muted">
                      {GROUP_LABELS[t.group]} {t.percentile} &lt; {formatMs(t.thresholdMs)}
                    </p>
                    <p className="mt-0.5 flex items-center justify-between gap-2">
                      <span className="text-base font-semibold tabular-nums text-ink">{formatMs(t.valueMs)}</span>
                      <Badge tone={tone}>{t.met === null ? 'No data' : t.met ? 'Met' : 'Missed'}</Badge>
                    </p>
                  </li>
                );
              })
            : Array.from({ length: 3 }, (_, i) => <Skeleton key={i} className="h-16 w-full" />)}
        </ul>
      </Card>

      <Card isPadded={false} aria-labelledby="status-groups-title">
        <div className="flex flex-wrap items-end justify-between gap-3 p-5 sm:p-6">
          <div>
            <CardTitle id="status-groups-title">Latency by kind of request</CardTitle>
            <CardDescription>
              {data ? <>Updated {formatDateTime(data.generatedAt)}; refreshes every 15 seconds.</> : 'Loading the latest figures…'}
            </CardDescription>
          </div>
          <Button variant="secondary" onClick={() => void status.refetch()} isLoading={status.isFetching} aria-label="Refresh the latency figures">
            Refresh
          </Button>
        </div>
        {status.isError && <p role="status" className="px-5 pb-3 text-sm text-down sm:px-6">The last refresh failed; showing the previous figures.</p>}
        <div className="overflow-x-auto px-5 pb-5 sm:px-6" tabIndex={0} role="region" aria-label="Latency table (scrolls sideways on small screens)">
          <table className="w-full min-w-[36rem] border-collapse" aria-busy={!data}>
            <caption className="sr-only">p50 and p99 latency per kind of request over the last hour, with the published targets</caption>
            <thead>
              <tr className="text-left text-xs font-medium text-ink-muted">
                <th scope="col" className="pb-2 pr-3">Kind</th>
                <th scope="col" className="pb-2 pr-3 text-right">Measured</th>
                <th scope="col" className="pb-2 pr-3 text-right">p50</th>
                <th scope="col" className="pb-2 pr-3 text-right">p99</th>
                <th scope="col" className="hidden pb-2 pr-3 sm:table-cell">
                  <span className="sr-only">Chart</span>
                </th>
                <th scope="col" className="pb-2 pr-3">Target</th>
                <th scope="col" className="pb-2">Status</th>
              </tr>
            </thead>
            <tbody>
              {data
                ? data.groups.map((g) => <Row key={g.group} g={g} maxMs={maxMs} />)
                : Array.from({ length: 6 }, (_, i) => (
                    <tr key={i} className="border-t border-line">
                      <td colSpan={7} className="py-3">
                        <Skeleton className="h-5 w-full" />
                      </td>
                    </tr>
                  ))}
            </tbody>
          </table>
        </div>
      </Card>
    </div>
  );
};
