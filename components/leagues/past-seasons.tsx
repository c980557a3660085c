import Link from 'next/link';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { formatCount } from '@/components/ui/format';
import { leagueViewToParams, type TSeason } from '@/lib/client/queries/leagues';
import { formatSeasonDays } from './format';

/** The seasons before the current one, newest first: each opens its final table, with who went up and who went down. */
export const PastSeasons = ({ seasons, currentId, selectedId }: { seasons: readonly TSeason[]; currentId: string; selectedId: string | undefined }) => {
  const past = seasons.filter((s) => s.id !== currentId);
  return (
    <Card aria-labelledby="past-seasons-title" isPadded={false} className="overflow-hidden">
      <div className="px-5 pt-5 pb-4 sm:px-6">
        <CardTitle id="past-seasons-title">Past seasons</CardTitle>
        <CardDescription>Open a season to see its final table: ↑ promoted, ↓ relegated.</CardDescription>
      </div>
      {past.length === 0 ? (
        <p className="border-t border-line px-5 py-4 text-sm text-ink-muted sm:px-6">No season has ended yet: season {currentId} is the first.</p>
      ) : (
        <ul aria-label="Past seasons" className="border-t border-line">
          {past.map((s) => {
            const isSelected = s.id === selectedId;
            return (
              <li key={s.id} className="border-t border-line first:border-t-0">
                <Link
                  href={`/leagues?${leagueViewToParams({ season: s.id })}`}
                  aria-current={isSelected ? 'page' : undefined}
                  scroll={false}
                  className={cn(
                    'flex items-center justify-between gap-3 px-5 py-3 text-sm transition-colors hover:bg-elevated/60 sm:px-6',
                    isSelected && 'bg-accent-soft',
                  )}
                >
                  <span className="flex flex-col">
                    <span className="font-medium text-ink">Season {s.id}</span>
                    <span className="text-xs text-ink-muted">{formatSeasonDays(s.startsAt, s.endsAt)}</span>
                  </span>
                  <span className="text-right text-xs text-ink-muted">
                    {formatCount(s.members)} {s.members === 1 ? 'player' : 'players'}
                    <span className="block">{s.status === 'closed' ? 'Final' : 'Closing'}</span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
};
