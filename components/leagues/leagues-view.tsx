'use client';

import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatCount } from '@/components/ui/format';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError, hasErrorCode } from '@/lib/client/queries/errors';
import {
  TIER_LABELS,
  defaultLeagueView,
  leagueViewFromParams,
  leagueViewToParams,
  useLeagueDivision,
  useLeaguesOverview,
  type TLeagueView,
  type TLeaguesOverview,
  type TSeason,
} from '@/lib/client/queries/leagues';
import { useSession } from '@/lib/client/queries/users';
import { ChoiceGroup } from './choice-group';
import { DivisionTable } from './division-table';
import { formatSeasonDays } from './format';
import { LeaguesIcon } from '@/components/ui/icons';
import { LeagueRules } from './league-rules';
import { PastSeasons } from './past-seasons';
import { SeasonCountdown } from './season-countdown';

const TIER_VALUES = [4, 3, 2, 1, 0] as const;
const TIER_NAMES = ['bronze', 'silver', 'gold', 'platinum', 'diamond'] as const;

const Figure = ({ label, children }: { label: string; children: ReactNode }) => (
  <div className="flex flex-col gap-0.5">
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className="text-base text-ink">{children}</dd>
  </div>
);

/** The current season: its week, days, a live countdown to its end in game time, its players and the caller's place. */
const SeasonSummary = ({ overview, receivedAt }: { overview: TLeaguesOverview & { season: TSeason }; receivedAt: number }) => {
  const { season, me } = overview;
  const session = useSession();
  return (
    <Card aria-labelledby="season-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <CardTitle id="season-title" className="text-lg">
          Season {season.id}
        </CardTitle>
        <Badge tone={season.status === 'open' ? 'up' : 'neutral'}>{season.status === 'open' ? 'Open' : 'Closed'}</Badge>
        <span className="text-sm text-ink-muted">{formatSeasonDays(season.startsAt, season.endsAt)} (game time, UTC)</span>
      </div>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
        <Figure label="Season ends in">
          {season.status === 'open' ? <SeasonCountdown endsAt={season.endsAt} serverNow={overview.now} receivedAt={receivedAt} /> : 'Ended'}
        </Figure>
        <Figure label="Players">
          <span className="font-semibold tabular-nums">{formatCount(season.members)}</span>
        </Figure>
        <Figure label="Your division">
          {me ? (
            <Link href={`/leagues?${leagueViewToParams({ tier: me.tier, division: me.division })}`} scroll={false} className="font-semibold text-accent hover:underline">
              {TIER_LABELS[me.tierName]} {me.division}
            </Link>
          ) : session.isSignedOut ? (
            <Link href="/sign-in" className="text-sm font-medium text-accent hover:underline">
              Sign in to play
            </Link>
          ) : (
            <span className="text-sm text-ink-muted">Seated at the next daily close</span>
          )}
        </Figure>
      </dl>
    </Card>
  );
};

const TableSkeleton = () => (
  <div role="status" aria-label="Loading the division" className="flex flex-col gap-3 px-5 pb-5 sm:px-6">
    {Array.from({ length: 6 }, (_, i) => (
      <Skeleton key={i} className="h-10 w-full" />
    ))}
  </div>
);

/** The division picker and its table, for the current season or a past one. */
const DivisionCard = ({ overview, view, onView }: { overview: TLeaguesOverview & { season: TSeason }; view: TLeagueView; onView: (v: TLeagueView) => void }) => {
  const isPast = !!view.season && view.season !== overview.season.id;
  // The current season without a choice in the address opens on the caller's division (or the
  // highest tier anyone plays in); a past one leaves the choice to the API (the caller's division then).
  const fallback = defaultLeagueView(overview);
  const request: TLeagueView = isPast
    ? view
    : { tier: view.tier ?? fallback.tier, division: view.division ?? (view.tier === undefined ? fallback.division : 1) };
  const division = useLeagueDivision(request);
  const d = division.data;
  const shownTier = request.tier ?? d?.placement.tier;
  const shownDivision = request.division ?? d?.placement.division;
  const tierInfo = overview.tiers.find((t) => t.tier === shownTier);
  const divisionCount = isPast ? (d && d.placement.tier === shownTier ? d.divisions : 0) : (tierInfo?.divisions ?? 0);
  const seasonId = isPast ? view.season! : overview.season.id;
  const where = shownTier === undefined ? '' : `${TIER_LABELS[TIER_NAMES[shownTier]!]}${shownDivision ? `, division ${shownDivision}` : ''}`;

  let body: ReactNode;
  if (division.isPending) body = <TableSkeleton />;
  else if (division.isError && !d) {
    body = hasErrorCode(division.error, 'NOT_FOUND') ? (
      <p className="border-t border-line px-5 py-6 text-sm text-ink-muted sm:px-6">
        {isPast ? `There is no season ${view.season}, or no such division in it.` : 'There is no such division this season.'}
      </p>
    ) : (
      <ErrorState className="m-5" message={describeError(division.error)} onRetry={() => division.refetch()} isRetrying={division.isFetching} />
    );
  } else if (!d || d.entries.length === 0) {
    body = (
      <p className="border-t border-line px-5 py-6 text-sm text-ink-muted sm:px-6">
        {isPast ? 'No one played in this division that season.' : 'No one is seated in this division yet. Players are seated at the daily close.'}
      </p>
    );
  } else {
    body = (
      <div aria-busy={division.isPlaceholderData || undefined} className="pb-2">
        <DivisionTable division={d} caption={`${where}, season ${d.season.id}${d.season.status === 'closed' ? ', final table' : ''}`} />
      </div>
    );
  }

  return (
    <Card isPadded={false} aria-labelledby="division-title">
      <div className="flex flex-col gap-4 px-5 pt-5 pb-4 sm:px-6">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <CardTitle id="division-title">{where || 'Division'}</CardTitle>
            <CardDescription>
              {isPast ? `Final table of season ${seasonId}.` : `Live standings of season ${seasonId}, scored at each daily close.`}
            </CardDescription>
          </div>
          {isPast && (
            <Link href="/leagues" scroll={false} className="text-sm font-medium text-accent hover:underline">
              Back to the current season
            </Link>
          )}
        </div>
        <div className="flex flex-col gap-2">
          <span className="text-xs font-medium text-ink-muted">
            Tier
          </span>
          <ChoiceGroup
            label="Tier"
            value={shownTier}
            onChange={(tier) => onView({ season: isPast ? view.season : undefined, tier })}
            choices={TIER_VALUES.map((tier) => {
              const t = overview.tiers.find((x) => x.tier === tier);
              const name = TIER_LABELS[TIER_NAMES[tier]];
              return {
                value: tier,
                label: isPast || !t ? name : `${name}, ${t.members} ${t.members === 1 ? 'player' : 'players'}`,
                content: (
                  <span className="flex items-baseline gap-1.5">
                    {name}
                    {!isPast && t && <span className="text-xs font-normal text-ink-faint tabular-nums">{formatCount(t.members)}</span>}
                  </span>
                ),
              };
            })}
          />
        </div>
        {divisionCount > 1 && (
          <div className="flex flex-col gap-2">
            <span className="text-xs font-medium text-ink-muted">Division</span>
            <ChoiceGroup
              label="Division"
              value={shownDivision}
              onChange={(n) => onView({ season: isPast ? view.season : undefined, tier: shownTier, division: n })}
              chipClassName="min-w-10 text-center tabular-nums"
              choices={Array.from({ length: divisionCount }, (_, i) => ({ value: i + 1, label: `Division ${i + 1}`, content: String(i + 1) }))}
            />
          </div>
        )}
        {!isPast && (
          <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-ink-muted">
            <span>
              <span aria-hidden="true" className="mr-1.5 inline-block size-2.5 rounded-sm bg-up align-middle" />
              Promotion zone: moves up a tier
            </span>
            <span>
              <span aria-hidden="true" className="mr-1.5 inline-block size-2.5 rounded-sm bg-down align-middle" />
              Relegation zone: moves down a tier
            </span>
          </p>
        )}
      </div>
      {body}
    </Card>
  );
};

/**
 * The league page: the current season with its countdown, a division picked by tier and number
 * (in the address: ?season&tier&division), its table with the promotion and relegation zones,
 * how the score works, and past seasons' final tables.
 */
export const LeaguesView = () => {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const here = searchParams.toString();
  const [pending, setPending] = useState<{ view: TLeagueView; from: string } | null>(null);
  const view = pending && pending.from === here ? pending.view : leagueViewFromParams(searchParams);
  const overview = useLeaguesOverview();

  const onView = (next: TLeagueView) => {
    setPending({ view: next, from: here });
    const qs = leagueViewToParams(next).toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };

  if (overview.isPending) {
    return (
      <div role="status" aria-label="Loading the league" className="flex flex-col gap-6">
        <Skeleton className="h-36 w-full rounded-2xl" />
        <Skeleton className="h-96 w-full rounded-2xl" />
      </div>
    );
  }
  if (overview.isError) {
    return <ErrorState title="The league did not load" message={describeError(overview.error)} onRetry={() => overview.refetch()} isRetrying={overview.isFetching} />;
  }
  const data = overview.data;
  if (!data.season) {
    return (
      <div className="flex flex-col gap-6">
        <EmptyState
          icon={<LeaguesIcon />}
          title="No league season yet"
          description="The first season starts at the world's first daily close. Players are then seated in divisions by size, and the countdown starts."
        />
        <LeagueRules rules={data.rules} />
      </div>
    );
  }
  const withSeason = data as TLeaguesOverview & { season: TSeason };
  return (
    <div className="flex flex-col gap-6">
      <SeasonSummary overview={withSeason} receivedAt={overview.dataUpdatedAt} />
      <DivisionCard overview={withSeason} view={view} onView={onView} />
      <PastSeasons seasons={data.seasons} currentId={data.season.id} selectedId={view.season} />
      <LeagueRules rules={data.rules} />
    </div>
  );
};
