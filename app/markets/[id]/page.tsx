import type { Metadata } from 'next';
import { MarketDetail } from '@/components/markets/market-detail';
import { MarketDiscussion } from '@/components/posts/market-discussion';
import { marketMetadata } from '@/lib/og/metadata';

type TProps = { params: Promise<{ id: string }> };

// The share image is ./opengraph-image.tsx; this adds the absolute base, title and description.
export const generateMetadata = async ({ params }: TProps): Promise<Metadata> => marketMetadata((await params).id);

export default async function MarketPage({ params }: TProps) {
  const { id } = await params;
  // The discussion (posts about the market) is composed here: components/markets never imports posts.
  return <MarketDetail id={id} discussion={<MarketDiscussion marketId={id} />} />;
}
