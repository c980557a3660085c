import type { Metadata } from 'next';
import { PoolDetail } from '@/components/pools/pool-detail';
import { poolMetadata } from '@/lib/og/metadata';

type TProps = { params: Promise<{ id: string }> };

export const generateMetadata = async ({ params }: TProps): Promise<Metadata> => poolMetadata(decodeURIComponent((await params).id));

export default async function PoolPage({ params }: TProps) {
  const poolId = decodeURIComponent((await params).id);
  // Keyed by pool: moving to another pool starts its page (and its panel) afresh.
  return <PoolDetail key={poolId} id={poolId} />;
}
