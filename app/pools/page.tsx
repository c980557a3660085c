import type { Metadata } from 'next';
import { PoolsList } from '@/components/pools/pools-list';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Pools' };

export default function PoolsPage() {
  return (
    <>
      <PageHeader
        title="Pools"
        description="Trading pools run by NPC managers. Deposit to buy shares at the pool's share price; the manager takes a performance fee on your profit only when you withdraw."
      />
      <PoolsList />
    </>
  );
}
