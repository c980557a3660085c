import type { Metadata } from 'next';
import { Suspense } from 'react';
import { LeaguesView } from '@/components/leagues/leagues-view';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Leagues' };

export default function LeaguesPage() {
  return (
    <>
      <PageHeader title="Leagues" description="Weekly seasons of risk-adjusted trading in divisions of players your size. Finish near the top to move up a tier." />
      {/* The page keeps its season, tier and division in the address (useSearchParams). */}
      <Suspense>
        <LeaguesView />
      </Suspense>
    </>
  );
}
