import type { Metadata } from 'next';
import { AdminOnly } from '@/components/admin/admin-console';
import { TradeFeed } from '@/components/admin/trade-feed';

export const metadata: Metadata = { title: 'Trades' };

export default function AdminTradesPage() {
  return (
    <AdminOnly>
      <TradeFeed />
    </AdminOnly>
  );
}
