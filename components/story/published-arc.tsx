import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { DataTable, type TDataColumn } from '@/components/ui/data-table';
import { formatDateTime } from '@/components/ui/format';
import { profileHref } from '@/lib/users/links';
import { BeatTimeline } from './beat-item';
import { formatPercent, plural } from './format';
import type { TStory, TStoryCall } from './types';

const linkClass = 'rounded font-medium text-ink hover:text-accent hover:underline focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none';

const ActorLink = ({ call }: { call: TStoryCall }) => (
  <Link href={profileHref(call.actor)} className={linkClass}>
    {call.actor.displayName || call.actor.username}
  </Link>
);

const RightBadge = ({ right }: { right: boolean }) => <Badge tone={right ? 'up' : 'down'}>{right ? 'Right' : 'Wrong'}</Badge>;

const COLUMNS: readonly TDataColumn<TStoryCall>[] = [
  { id: 'actor', header: 'Who', cell: (c) => <ActorLink call={c} />, sortValue: (c) => c.actor.displayName || c.actor.username },
  {
    id: 'probability',
    header: 'Chance of YES',
    align: 'right',
    cell: (c) => formatPercent(c.probability),
    cellClassName: 'tabular-nums',
    sortValue: (c) => c.probability,
    firstDirection: 'descending',
  },
  { id: 'at', header: 'When', cell: (c) => <time dateTime={c.calledAt}>{formatDateTime(c.calledAt)}</time>, cellClassName: 'text-ink-muted whitespace-nowrap', sortValue: (c) => c.calledAt },
  { id: 'right', header: 'Result', align: 'right', cell: (c) => <RightBadge right={c.right} />, sortValue: (c) => (c.right ? 1 : 0) },
];

/**
 * A published story ("How it happened"): what resolved, the whole arc in order with each teller's
 * role and whether the beat pointed to the truth, and the calls (who said what chance, right or wrong).
 */
export const PublishedArc = ({ story }: { story: TStory }) => {
  const beats = [...story.beats].sort((a, b) => a.seq - b.seq);
  const rightCount = story.calls.filter((c) => c.right).length;
  return (
    <section aria-labelledby={`arc-${story.id}`} data-testid="how-it-happened" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={`arc-${story.id}`} className="text-sm font-semibold text-ink">
          How it happened
        </h3>
        {story.outcome && <Badge tone={story.outcome === 'YES' ? 'up' : 'down'}>Resolved {story.outcome}</Badge>}
      </div>
      {beats.length === 0 ? (
        <p className="text-sm text-ink-muted">No beats were told for this story.</p>
      ) : (
        <BeatTimeline beats={beats} isRevealed label="The full story, in order" />
      )}
      <section aria-labelledby={`calls-${story.id}`} data-testid="story-calls" className="flex flex-col gap-2">
        <h3 id={`calls-${story.id}`} className="text-sm font-semibold text-ink">
          The calls
        </h3>
        {story.calls.length === 0 ? (
          <p className="text-sm text-ink-muted">No one made a call on this question.</p>
        ) : (
          <>
            <p className="text-xs text-ink-muted">
              {plural(story.calls.length, 'call')}, {rightCount} right (each NPC&apos;s last call before the question resolved).
            </p>
            <DataTable
              rows={story.calls}
              columns={COLUMNS}
              rowKey={(c) => c.actor.id}
              caption="Calls on this question"
              renderItem={(c) => (
                <span className="flex items-center justify-between gap-3 py-2 text-sm">
                  <span className="min-w-0">
                    <ActorLink call={c} />
                    <span className="block text-xs text-ink-muted">
                      {formatPercent(c.probability)} YES · <time dateTime={c.calledAt}>{formatDateTime(c.calledAt)}</time>
                    </span>
                  </span>
                  <RightBadge right={c.right} />
                </span>
              )}
              listClassName="divide-y divide-line"
            />
          </>
        )}
      </section>
    </section>
  );
};
