import type { Metadata } from 'next';
import { EmptyState } from '@/components/ui/empty-state';
import { PoolsIcon } from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Pools' };

export default function PoolsPage() {
  return (
    <>
      <PageHeader title="Pools" description="Trading pools run by NPC actors, open to deposits." />
      <EmptyState
        icon={<PoolsIcon />}
        title="No pools to join yet"
        description="Pools managed by NPC traders will appear here, with their returns, size and how much you have deposited."
      />
    </>
  );
}
