'use client';

import Link from 'next/link';
import { useMemo } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { DataTable, type TDataColumn } from '@/components/ui/data-table';
import { ErrorState } from '@/components/ui/error-state';
import { formatCount } from '@/components/ui/format';
import { describeError } from '@/lib/client/queries/errors';
import { TIER_LABELS, leagueViewToParams, useUserLeagueHistory, type TLeagueHistoryRow } from '@/lib/client/queries/leagues';
import { formatSeasonDays } from './format';

const Outcome = ({ row }: { row: TLeagueHistoryRow }) => {
  if (row.status === 'open') return <Badge tone="accent">Playing</Badge>;
  if (!row.qualified) return <span className="text-xs text-ink-faint">Not qualified</span>;
  if (row.outcome === 'promoted') return <Badge tone="up">↑ Promoted</Badge>;
  if (row.outcome === 'relegated') return <Badge tone="down">↓ Relegated</Badge>;
  return <span className="text-xs text-ink-muted">Stayed</span>;
};

const hrefOf = (row: TLeagueHistoryRow) =>
  `/leagues?${leagueViewToParams({ season: row.status === 'closed' ? row.seasonId : undefined, tier: row.tier, division: row.division })}`;

const Rank = ({ rank }: { rank: number | null }) =>
  rank === null ? (
    <span className="text-ink-faint">
      <span aria-hidden="true">—</span>
      <span className="sr-only">No rank</span>
    </span>
  ) : (
    <span className="font-medium text-ink tabular-nums">{formatCount(rank)}</span>
  );

/** A player's league seasons on their profile, newest first: tier, division, final rank and outcome. */
export const LeagueHistory = ({ userId, isOwn = false }: { userId: string; isOwn?: boolean }) => {
  const history = useUserLeagueHistory(userId);
  const columns = useMemo<TDataColumn<TLeagueHistoryRow>[]>(
    () => [
      {
        id: 'season',
        header: 'Season',
        cell: (r) => (
          <Link href={hrefOf(r)} className="font-medium text-ink hover:underline">
            {r.seasonId}
          </Link>
        ),
      },
      { id: 'tier', header: 'Tier', cell: (r) => TIER_LABELS[r.tierName] },
      { id: 'division', header: 'Division', align: 'right', cell: (r) => <span className="tabular-nums">{r.division}</span> },
      { id: 'rank', header: 'Rank', align: 'right', cell: (r) => <Rank rank={r.rank} /> },
      { id: 'outcome', header: 'Outcome', cell: (r) => <Outcome row={r} /> },
    ],
    [],
  );

  let body;
  if (history.isPending) {
    body = <DataTable rows={[]} columns={columns} rowKey={(r) => r.seasonId} caption="League seasons" isLoading loadingLabel="Loading league seasons" loadingRows={2} />;
  } else if (history.isError) {
    body = <ErrorState className="mx-5 mb-5" message={describeError(history.error)} onRetry={() => history.refetch()} isRetrying={history.isFetching} />;
  } else if (history.data.length === 0) {
    body = (
      <p className="border-t border-line px-5 py-4 text-sm text-ink-muted sm:px-6">
        {isOwn ? 'You have not played a league season yet: you are seated at the next daily close.' : 'No league seasons yet.'}{' '}
        <Link href="/leagues" className="font-medium text-accent hover:underline">
          How the league works
        </Link>
      </p>
    );
  } else {
    body = (
      <div className="pb-2">
        <DataTable
          rows={history.data}
          columns={columns}
          rowKey={(r) => r.seasonId}
          caption="League seasons, newest first"
          listClassName="border-t border-line"
          itemClassName="border-t border-line first:border-t-0"
          renderItem={(r) => (
            <div className="flex items-center justify-between gap-3 px-5 py-3 text-sm">
              <div className="min-w-0">
                <Link href={hrefOf(r)} className="font-medium text-ink hover:underline">
                  {r.seasonId}
                </Link>
                <p className="text-xs text-ink-muted">
                  {TIER_LABELS[r.tierName]}, division {r.division} · {r.rank === null ? 'no rank' : `rank ${formatCount(r.rank)}`} · {formatSeasonDays(r.startsAt, r.endsAt)}
                </p>
              </div>
              <Outcome row={r} />
            </div>
          )}
        />
      </div>
    );
  }

  return (
    <Card isPadded={false} aria-labelledby={`league-history-${userId}`}>
      <div className="px-5 pt-5 pb-4 sm:px-6">
        <CardTitle id={`league-history-${userId}`}>League seasons</CardTitle>
        <CardDescription>Weekly seasons in divisions of players of a similar size; the top move up a tier, the bottom down.</CardDescription>
      </div>
      {body}
    </Card>
  );
};
