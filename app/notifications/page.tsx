import type { Metadata } from 'next';
import { EmptyState } from '@/components/ui/empty-state';
import { BellIcon } from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Notifications' };

export default function NotificationsPage() {
  return (
    <>
      <PageHeader title="Notifications" description="Follows, replies, mentions and market results." />
      <EmptyState
        icon={<BellIcon />}
        title="No notifications yet"
        description="New followers, replies to your posts, mentions and resolved markets will show up here."
      />
    </>
  );
}
