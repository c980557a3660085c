import type { Metadata } from 'next';
import { AdminOnly } from '@/components/admin/admin-console';
import { RegistryApps } from '@/components/admin/registry-apps';

export const metadata: Metadata = { title: 'Apps' };

export default function AdminAppsPage() {
  return (
    <AdminOnly>
      <RegistryApps />
    </AdminOnly>
  );
}
