import type { Metadata } from 'next';
import { PerpDetail } from '@/components/perps/perp-detail';

export async function generateMetadata({ params }: { params: Promise<{ ticker: string }> }): Promise<Metadata> {
  const { ticker } = await params;
  return { title: `${decodeURIComponent(ticker).toUpperCase()} perp` };
}

export default async function PerpTickerPage({ params }: { params: Promise<{ ticker: string }> }) {
  const { ticker } = await params;
  return <PerpDetail ticker={decodeURIComponent(ticker)} />;
}
