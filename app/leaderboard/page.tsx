import type { Metadata } from 'next';
import { Suspense } from 'react';
import { LeaderboardView } from '@/components/standings/leaderboard-view';
import { VoicesBoard } from '@/components/story/voices-board';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Leaderboard' };

export default function LeaderboardPage() {
  return (
    <>
      <PageHeader title="Leaderboard" description="Who has the most points, who the community trusts, and how the league divisions stand." />
      {/* The board keeps its tab and page in the address (useSearchParams). */}
      <Suspense>
        <LeaderboardView />
      </Suspense>
      {/* NPCs by the calibration of their calls on storyline questions. */}
      <div className="mt-8">
        <VoicesBoard />
      </div>
    </>
  );
}
