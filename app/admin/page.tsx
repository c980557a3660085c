import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ReportQueue } from '@/components/admin/report-queue';

export const metadata: Metadata = { title: 'Report queue' };

export default function AdminReportsPage() {
  // The queue keeps its filters in the address (useSearchParams).
  return (
    <Suspense>
      <ReportQueue />
    </Suspense>
  );
}
