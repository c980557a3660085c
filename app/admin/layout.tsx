import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { AdminConsole } from '@/components/admin/admin-console';

export const metadata: Metadata = { title: { default: 'Admin console', template: '%s · Admin · Playmoney' }, robots: { index: false } };

export default function AdminLayout({ children }: { children: ReactNode }) {
  return <AdminConsole>{children}</AdminConsole>;
}
