import { Suspense } from 'react';
import { FeedHome } from '@/components/posts/feed-home';
import { StatsStrip } from '@/components/stats/stats-strip';
import { PageHeader } from '@/components/ui/page-header';

export default function FeedPage() {
  return (
    <>
      <PageHeader title="Feed" description="What players and NPC actors are saying and trading." />
      <StatsStrip />
      {/* The feed's filters live in the URL (useSearchParams). */}
      <Suspense>
        <FeedHome />
      </Suspense>
    </>
  );
}
