'use client';

import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { formatShortDate } from '@/components/ui/format';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError, hasErrorCode } from '@/lib/client/queries/errors';
import { BeatTimeline } from './beat-item';
import { plural } from './format';
import { useTickerStories } from './queries';
import type { TStory } from './types';

const TITLE_ID = 'ticker-stories-title';
const linkClass = 'rounded font-medium text-ink hover:text-accent hover:underline focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none';
/** A developing story shows its latest beats; the market page has the rest. */
const BEATS_SHOWN = 3;

const marketHref = (story: TStory) => `/markets/${encodeURIComponent(story.marketId)}`;

const Developing = ({ story }: { story: TStory }) => {
  const beats = [...story.beats].sort((a, b) => b.seq - a.seq);
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-line p-4" data-testid="ticker-story">
      <div>
        <Link href={marketHref(story)} className={linkClass}>
          {story.title}
        </Link>
        <p className="mt-0.5 text-xs text-ink-muted">
          {story.question} · resolves {formatShortDate(story.endsAt)}
        </p>
      </div>
      {beats.length === 0 ? (
        <p className="text-sm text-ink-muted">Nothing has surfaced yet.</p>
      ) : (
        <>
          <BeatTimeline beats={beats.slice(0, BEATS_SHOWN)} label={`Latest on ${story.title}`} />
          {beats.length > BEATS_SHOWN && (
            <Link href={marketHref(story)} className="text-xs text-ink-muted hover:text-ink hover:underline">
              {plural(beats.length - BEATS_SHOWN, 'earlier beat')} on the market page
            </Link>
          )}
        </>
      )}
    </li>
  );
};

const Resolved = ({ story }: { story: TStory }) => (
  <li className="flex flex-wrap items-center justify-between gap-2 py-2.5" data-testid="ticker-resolved-story">
    <span className="min-w-0">
      <Link href={marketHref(story)} className={linkClass}>
        {story.title}
      </Link>
      <span className="block text-xs text-ink-muted">
        {story.question} · {plural(story.calls.length, 'call')}
      </span>
    </span>
    {story.outcome && <Badge tone={story.outcome === 'YES' ? 'up' : 'down'}>Resolved {story.outcome}</Badge>}
  </li>
);

/**
 * A ticker's storylines: the company's developing stories with their latest public beats, and the
 * last resolved ones (each links to its market, where "How it happened" tells the whole arc).
 */
export const TickerStories = ({ ticker }: { ticker: string }) => {
  const query = useTickerStories(ticker);
  return (
    <Card aria-labelledby={TITLE_ID} data-testid="ticker-stories" className="flex flex-col gap-4">
      <div>
        <CardTitle id={TITLE_ID}>Storylines</CardTitle>
        <CardDescription>What is surfacing about {ticker.toUpperCase()}: rumours, leaks and filings behind its questions.</CardDescription>
      </div>
      {query.isPending ? (
        <div role="status" aria-label="Loading storylines" className="flex flex-col gap-3">
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : query.isError && hasErrorCode(query.error, 'NOT_FOUND') ? (
        <p className="text-sm text-ink-muted">No company behind this ticker tells stories yet.</p>
      ) : query.isError ? (
        <ErrorState title="Storylines did not load" message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />
      ) : (
        <>
          <section aria-labelledby="ticker-developing-title" className="flex flex-col gap-2">
            <h3 id="ticker-developing-title" className="text-sm font-semibold text-ink">
              Developing
            </h3>
            {query.data.developing.length === 0 ? (
              <p className="text-sm text-ink-muted">No open story about this company right now.</p>
            ) : (
              <ul className="flex flex-col gap-3">
                {query.data.developing.map((s) => (
                  <Developing key={s.id} story={s} />
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="ticker-resolved-title" className="flex flex-col gap-1">
            <h3 id="ticker-resolved-title" className="text-sm font-semibold text-ink">
              Recently resolved
            </h3>
            {query.data.resolved.length === 0 ? (
              <p className="text-sm text-ink-muted">No story about this company has resolved yet.</p>
            ) : (
              <ul className="divide-y divide-line">
                {query.data.resolved.map((s) => (
                  <Resolved key={s.id} story={s} />
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </Card>
  );
};
