import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { WalletView } from '@/components/wallet/wallet-view';

export const metadata: Metadata = { title: 'Wallet' };

export default function WalletPage() {
  return (
    <>
      <PageHeader title="Wallet" description="Your play-money balance and every change to it." />
      <WalletView />
    </>
  );
}
