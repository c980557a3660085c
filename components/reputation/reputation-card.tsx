'use client';

import { Badge, type TBadgeTone } from '@/components/ui/badge';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { formatCount } from '@/components/ui/format';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import {
  LEVEL_LABELS,
  formatRawFigure,
  rawFigureLabel,
  useReputationBreakdown,
  type TReputationBreakdown,
  type TReputationLevel,
} from '@/lib/client/queries/reputation';
import { BreakdownChart } from './breakdown-chart';

const LEVEL_TONES: Record<TReputationLevel, TBadgeTone> = {
  newcomer: 'neutral',
  contributor: 'accent',
  trusted: 'accent',
  respected: 'up',
  legendary: 'warn',
};

const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

const RawFigures = ({ raw }: { raw: Record<string, number | null> }) => (
  <ul className="flex flex-col gap-0.5">
    {Object.entries(raw).map(([key, value]) => (
      <li key={key}>
        <span className="text-ink-muted">{rawFigureLabel(key)}:</span> <span className="text-ink tabular-nums">{formatRawFigure(key, value)}</span>
      </li>
    ))}
  </ul>
);

/** The breakdown's figures as a table, for reading and for screen readers: weight, value, points and the raw figures behind each. */
const ReputationFigures = ({ data }: { data: TReputationBreakdown }) => {
  const { breakdown, reputation } = data;
  return (
    <details className="group rounded-lg border border-line">
      <summary className="cursor-pointer px-4 py-2.5 text-sm font-medium text-ink-muted hover:text-ink">Show the figures</summary>
      <div className="overflow-x-auto border-t border-line">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">The parts and penalties of this reputation, with their raw figures</caption>
          <thead className="text-xs text-ink-faint">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">
                Part
              </th>
              <th scope="col" className="px-4 py-2 text-right font-medium">
                Weight
              </th>
              <th scope="col" className="px-4 py-2 text-right font-medium">
                Value
              </th>
              <th scope="col" className="px-4 py-2 text-right font-medium">
                Points
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                From
              </th>
            </tr>
          </thead>
          <tbody className="align-top">
            {breakdown.parts.map((p) => (
              <tr key={p.key} className="border-t border-line">
                <th scope="row" className="px-4 py-2 font-medium text-ink">
                  {p.label}
                </th>
                <td className="px-4 py-2 text-right tabular-nums">{percent.format(p.weight)}</td>
                <td className="px-4 py-2 text-right tabular-nums">{percent.format(p.value)}</td>
                <td className="px-4 py-2 text-right tabular-nums">
                  {formatCount(p.contribution)} of {formatCount(Math.round(p.weight * reputation.maxScore))}
                </td>
                <td className="px-4 py-2 text-xs">
                  <RawFigures raw={p.raw} />
                </td>
              </tr>
            ))}
            {breakdown.penalties.map((p) => (
              <tr key={p.key} className="border-t border-line">
                <th scope="row" className="px-4 py-2 font-medium text-ink">
                  {p.label} <span className="font-normal text-ink-faint">(penalty)</span>
                </th>
                <td className="px-4 py-2 text-right text-ink-faint">—</td>
                <td className="px-4 py-2 text-right text-ink-faint">—</td>
                <td className={p.contribution < 0 ? 'px-4 py-2 text-right text-down tabular-nums' : 'px-4 py-2 text-right tabular-nums'}>
                  {p.contribution < 0 ? `−${formatCount(-p.contribution)}` : '0'}
                </td>
                <td className="px-4 py-2 text-xs">
                  <RawFigures raw={p.raw} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="border-t border-line px-4 py-3 text-xs leading-relaxed text-ink-muted">{breakdown.formula}</p>
    </details>
  );
};

/**
 * An account's reputation on its profile: the score out of 1000 with its level, and what makes it
 * up as a chart (each part out of the most it can give, penalties below zero) with the figures in
 * a table underneath.
 */
export const ReputationCard = ({ userId }: { userId: string }) => {
  const query = useReputationBreakdown(userId);
  const titleId = `reputation-${userId}`;
  if (query.isPending) {
    return (
      <Card role="status" aria-label="Loading reputation" className="flex flex-col gap-4">
        <Skeleton className="h-5 w-32" />
        <Skeleton className="h-10 w-40" />
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-4 w-full" />
        ))}
      </Card>
    );
  }
  if (query.isError) {
    return <ErrorState title="Reputation did not load" message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />;
  }
  const { reputation, breakdown } = query.data;
  return (
    <Card aria-labelledby={titleId} className="flex flex-col gap-5">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <CardTitle id={titleId}>Reputation</CardTitle>
          <CardDescription>A score from trading, forecasting, the community and the points earned.</CardDescription>
        </div>
        <div className="flex items-center gap-3">
          <p className="text-right">
            <span className="text-3xl font-semibold tracking-tight text-ink tabular-nums" data-testid="reputation-score">
              {formatCount(reputation.score)}
            </span>
            <span className="text-sm text-ink-muted"> / {formatCount(reputation.maxScore)}</span>
          </p>
          <Badge tone={LEVEL_TONES[reputation.level]}>{LEVEL_LABELS[reputation.level]}</Badge>
        </div>
      </div>
      <div aria-hidden="true" className="h-1.5 overflow-hidden rounded-full bg-elevated">
        <div className="h-full rounded-full bg-accent" style={{ width: `${(reputation.score / reputation.maxScore) * 100}%` }} />
      </div>
      <BreakdownChart breakdown={breakdown} score={reputation.score} maxScore={reputation.maxScore} />
      <ReputationFigures data={query.data} />
    </Card>
  );
};
