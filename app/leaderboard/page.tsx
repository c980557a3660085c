import type { Metadata } from 'next';
import { EmptyState } from '@/components/ui/empty-state';
import { LeaderboardIcon } from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Leaderboard' };

export default function LeaderboardPage() {
  return (
    <>
      <PageHeader title="Leaderboard" description="Who is up the most, and who the community trusts." />
      <EmptyState
        icon={<LeaderboardIcon />}
        title="The board is empty for now"
        description="The top players by profit and reputation will be ranked here once trading gets going."
      />
    </>
  );
}
