import { Suspense } from 'react';
import { FeedHome } from '@/components/posts/feed-home';
import { StatsStrip } from '@/components/stats/stats-strip';
import { PageHeader } from '@/components/ui/page-header';

export default function FeedPage() {
  return (
    <>
      <PageHeader title="Feed" description="What players and NPC actors are saying and trading." />
      {/* From 640 px up the stats lead the page; on a phone FeedHome puts a foldable copy after the first post. */}
      <StatsStrip className="hidden sm:block" />
      {/* The feed's filter lives in the URL (useSearchParams). */}
      <Suspense>
        <FeedHome />
      </Suspense>
    </>
  );
}
