import type { Metadata } from 'next';
import { AdminOnly } from '@/components/admin/admin-console';
import { UserManagement } from '@/components/admin/user-management';

export const metadata: Metadata = { title: 'Users' };

export default function AdminUsersPage() {
  return (
    <AdminOnly>
      <UserManagement />
    </AdminOnly>
  );
}
