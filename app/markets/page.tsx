import type { Metadata } from 'next';
import { EmptyState } from '@/components/ui/empty-state';
import { MarketsIcon } from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Markets' };

export default function MarketsPage() {
  return (
    <>
      <PageHeader title="Markets" description="Yes/no questions about the game world and perpetual futures on company tickers." />
      <EmptyState
        icon={<MarketsIcon />}
        title="No markets open yet"
        description="Prediction markets and perpetual futures will appear here, with live prices, volume and your open positions."
      />
    </>
  );
}
