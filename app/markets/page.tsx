import type { Metadata } from 'next';
import { Suspense } from 'react';
import { MarketsList } from '@/components/markets/markets-list';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Markets' };

export default function MarketsPage() {
  return (
    <>
      <PageHeader title="Markets" description="Yes/no questions about the game world. Buy the outcome you believe in; winning shares pay $1." />
      {/* The list reads its search and filters from the address (useSearchParams): rendered on the client. */}
      <Suspense>
        <MarketsList />
      </Suspense>
    </>
  );
}
