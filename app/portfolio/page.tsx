import type { Metadata } from 'next';
import { PortfolioView } from '@/components/portfolio/portfolio-view';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Portfolio' };

export default function PortfolioPage() {
  return (
    <>
      <PageHeader title="Portfolio" description="Your open prediction and perpetual positions and your pool deposits, valued at current prices." />
      <PortfolioView />
    </>
  );
}
