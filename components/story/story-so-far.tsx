'use client';

import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { BeatTimeline } from './beat-item';
import { PublishedArc } from './published-arc';
import { useMarketStory } from './queries';
import type { TStory } from './types';

const TITLE_ID = 'story-so-far-title';

const newestFirst = (story: TStory) => [...story.beats].sort((a, b) => b.seq - a.seq);

/** Title, theme and the company, over the beats (developing) or the revealed arc (published). */
export const StoryBody = ({ story }: { story: TStory }) => (
  <div className="flex flex-col gap-4">
    <div>
      <p className="text-sm font-semibold text-ink">{story.title}</p>
      {story.theme && <p className="mt-0.5 text-sm text-ink-muted">{story.theme}</p>}
      {story.organization && (
        <p className="mt-1 text-xs text-ink-muted">
          About{' '}
          <Link
            href={`/perps/${encodeURIComponent(story.organization.ticker)}`}
            className="rounded font-medium text-ink hover:text-accent hover:underline focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none"
          >
            {story.organization.name} ({story.organization.ticker})
          </Link>
        </p>
      )}
    </div>
    {story.status === 'published' ? (
      <PublishedArc story={story} />
    ) : story.beats.length === 0 ? (
      <p className="text-sm text-ink-muted">Nothing has surfaced yet. Rumours, leaks and filings will show here as they land.</p>
    ) : (
      <BeatTimeline beats={newestFirst(story)} label="What has surfaced, newest first" />
    )}
  </div>
);

/**
 * The market page's "Story so far": the storyline behind the question. While it develops, the
 * beats that have landed (newest first: when, kind, headline, body, who said it); once the question
 * resolves, "How it happened": the whole arc with roles and truth, and the calls.
 */
export const StorySoFar = ({ marketId }: { marketId: string }) => {
  const query = useMarketStory(marketId);
  const story = query.data?.story ?? null;
  return (
    <Card aria-labelledby={TITLE_ID} data-testid="story-so-far" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <CardTitle id={TITLE_ID}>Story so far</CardTitle>
        {story && <Badge tone={story.status === 'published' ? 'accent' : 'warn'}>{story.status === 'published' ? 'Revealed' : 'Developing'}</Badge>}
      </div>
      {query.isPending ? (
        <div role="status" aria-label="Loading the story" className="flex flex-col gap-3">
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      ) : query.isError ? (
        <ErrorState title="The story did not load" message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />
      ) : story ? (
        <StoryBody story={story} />
      ) : (
        <CardDescription>No storyline behind this question: it resolves on the numbers alone.</CardDescription>
      )}
    </Card>
  );
};
