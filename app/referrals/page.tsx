import type { Metadata } from 'next';
import { ReferralsView } from '@/components/referrals/referrals-view';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Referrals' };

export default function ReferralsPage() {
  return (
    <>
      <PageHeader title="Referrals" description="Invite players, earn points and a share of their trading fees." />
      <ReferralsView />
    </>
  );
}
