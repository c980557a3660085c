import type { Metadata } from 'next';
import { PerpsList } from '@/components/perps/perps-list';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Perps' };

export default function PerpsPage() {
  return (
    <>
      <PageHeader
        title="Perps"
        description="Perpetual futures on the game world's companies. Go long or short with up to 100x leverage; funding settles every 8 hours."
      />
      <PerpsList />
    </>
  );
}
