import type { Metadata } from 'next';
import { ReportDetail } from '@/components/admin/report-detail';

export const metadata: Metadata = { title: 'Report' };

type TProps = { params: Promise<{ reportId: string }> };

export default async function AdminReportPage({ params }: TProps) {
  const reportId = decodeURIComponent((await params).reportId);
  // Keyed by report: moving to a related report starts its page (and its decision form) afresh.
  return <ReportDetail key={reportId} reportId={reportId} />;
}
