'use client';

import Link from 'next/link';
import { DivisionTable } from '@/components/leagues/division-table';
import { LinkButton } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { LeaguesIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError, hasErrorCode } from '@/lib/client/queries/errors';
import { TIER_LABELS, defaultLeagueView, leagueViewToParams, useLeagueDivision, useLeaguesOverview } from '@/lib/client/queries/leagues';

const BoardSkeleton = () => (
  <Card role="status" aria-label="Loading your division" className="flex flex-col gap-3">
    <Skeleton className="h-5 w-48" />
    {Array.from({ length: 5 }, (_, i) => (
      <Skeleton key={i} className="h-10 w-full" />
    ))}
  </Card>
);

const NoSeason = () => (
  <EmptyState
    icon={<LeaguesIcon />}
    title="No league season yet"
    description="The first season starts at the world's first daily close. Players are then seated in divisions by size."
    action={
      <LinkButton href="/leagues" variant="secondary">
        How the league works
      </LinkButton>
    }
  />
);

/**
 * The leaderboard's League tab: the caller's division of the current season (else the highest
 * tier anyone plays in), compactly, with a link to the league page.
 */
export const LeagueBoard = () => {
  const overview = useLeaguesOverview();
  const view = overview.data?.season ? defaultLeagueView(overview.data) : undefined;
  const division = useLeagueDivision(view ?? {}, { isEnabled: !!view });

  if (overview.isPending || (view && division.isPending)) return <BoardSkeleton />;
  if (overview.isError) {
    return <ErrorState title="The league did not load" message={describeError(overview.error)} onRetry={() => overview.refetch()} isRetrying={overview.isFetching} />;
  }
  if (!overview.data.season) return <NoSeason />;
  if (division.isError && !division.data) {
    if (hasErrorCode(division.error, 'NOT_FOUND')) return <NoSeason />;
    return <ErrorState title="The division did not load" message={describeError(division.error)} onRetry={() => division.refetch()} isRetrying={division.isFetching} />;
  }
  const d = division.data!;
  const where = `${TIER_LABELS[d.placement.tierName]}, division ${d.placement.division}`;
  const href = `/leagues?${leagueViewToParams({ tier: d.placement.tier, division: d.placement.division })}`;
  const isMine = !!overview.data.me;
  return (
    <Card isPadded={false} aria-labelledby="league-board-title">
      <div className="flex flex-wrap items-end justify-between gap-3 px-5 pt-5 pb-4 sm:px-6">
        <div>
          <CardTitle id="league-board-title">
            {isMine ? 'Your division' : 'Top division'}: {where}
          </CardTitle>
          <CardDescription>
            Season {d.season.id}. Ranked by risk-adjusted return; the top of each division moves up a tier when the season ends.
          </CardDescription>
        </div>
        <Link href={href} className="text-sm font-medium text-accent hover:underline">
          Open the league page <span aria-hidden="true">→</span>
        </Link>
      </div>
      {d.entries.length === 0 ? (
        <p className="border-t border-line px-5 py-6 text-sm text-ink-muted sm:px-6">No one is seated in this division yet. Players are seated at the next daily close.</p>
      ) : (
        <div className="pb-2">
          <DivisionTable division={d} caption={`${where}, season ${d.season.id}`} isCompact />
        </div>
      )}
    </Card>
  );
};
