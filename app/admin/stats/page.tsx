import type { Metadata } from 'next';
import { AdminOnly } from '@/components/admin/admin-console';
import { SystemStats } from '@/components/admin/system-stats';

export const metadata: Metadata = { title: 'Statistics' };

export default function AdminStatsPage() {
  return (
    <AdminOnly>
      <SystemStats />
    </AdminOnly>
  );
}
