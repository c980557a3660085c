import type { Metadata } from 'next';
import { PointsView } from '@/components/points/points-view';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Points' };

export default function PointsPage() {
  return (
    <>
      <PageHeader title="Points" description="Your points, the milestones that earn them and every change to them." />
      <PointsView />
    </>
  );
}
