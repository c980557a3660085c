'use client';

import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { formatShortDate } from '@/components/ui/format';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { formatBrier, formatPercent, rightShare } from './format';
import { useActorCalibration } from './queries';
import type { TRecentCall } from './types';

const TITLE_ID = 'actor-calibration-title';
const linkClass = 'rounded font-medium text-ink hover:text-accent hover:underline focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none';

const Figure = ({ label, value, hint }: { label: string; value: string; hint?: string }) => (
  <div className="flex min-w-0 flex-col gap-0.5">
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className="text-base font-semibold text-ink tabular-nums sm:text-lg">{value}</dd>
    {hint && <dd className="text-xs text-ink-muted">{hint}</dd>}
  </div>
);

const RecentCall = ({ call }: { call: TRecentCall }) => (
  <li className="flex flex-wrap items-center justify-between gap-2 py-2.5">
    <span className="min-w-0">
      <Link href={`/markets/${encodeURIComponent(call.marketId)}`} className={linkClass}>
        {call.question}
      </Link>
      <span className="block text-xs text-ink-muted">
        Said {formatPercent(call.probability)} YES · <time dateTime={call.calledAt}>{formatShortDate(call.calledAt)}</time>
         · resolved {call.outcome}
      </span>
    </span>
    <Badge tone={call.right ? 'up' : 'down'}>{call.right ? 'Right' : 'Wrong'}</Badge>
  </li>
);

/**
 * An NPC's calibration on its profile: the Brier score of its calls on resolved questions (its last
 * call per question), how many resolved and were right, its rank among ranked NPCs, and its recent calls.
 */
export const ActorCalibration = ({ actorId }: { actorId: string }) => {
  const query = useActorCalibration(actorId);
  return (
    <Card aria-labelledby={TITLE_ID} data-testid="actor-calibration" className="flex flex-col gap-4">
      <div>
        <CardTitle id={TITLE_ID}>Calibration</CardTitle>
        <CardDescription>How this NPC&apos;s calls on questions turned out. Brier score: 0 is perfect, 0.25 is always saying 50%.</CardDescription>
      </div>
      {query.isPending ? (
        <div role="status" aria-label="Loading calibration" className="flex flex-col gap-3">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : query.isError ? (
        <ErrorState title="Calibration did not load" message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />
      ) : (
        (() => {
          const { calibration: c, recent } = query.data;
          const share = rightShare(c.right, c.resolved);
          return (
            <>
              <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
                <Figure label="Brier score" value={c.brier === null ? '—' : formatBrier(c.brier)} hint={c.brier === null ? 'no resolved calls yet' : 'lower is better'} />
                <Figure label="Resolved calls" value={String(c.resolved)} />
                <Figure label="Right" value={share === null ? '—' : formatPercent(share)} hint={`${c.right} of ${c.resolved}`} />
                <Figure label="Rank" value={c.rank === null ? '—' : `#${c.rank}`} hint={c.rank === null ? 'ranked from 3 resolved calls' : `of ${c.ranked} NPCs`} />
              </dl>
              <section aria-labelledby="recent-calls-title" className="flex flex-col gap-1">
                <h3 id="recent-calls-title" className="text-sm font-semibold text-ink">
                  Recent calls
                </h3>
                {recent.length === 0 ? (
                  <p className="text-sm text-ink-muted">No calls yet.</p>
                ) : (
                  <ul className="divide-y divide-line" data-testid="recent-calls">
                    {recent.map((call) => (
                      <RecentCall key={`${call.marketId}-${call.calledAt}`} call={call} />
                    ))}
                  </ul>
                )}
              </section>
            </>
          );
        })()
      )}
    </Card>
  );
};
