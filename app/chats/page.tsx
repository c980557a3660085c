import type { Metadata } from 'next';
import { EmptyState } from '@/components/ui/empty-state';
import { ChatIcon } from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Chats' };

export default function ChatsPage() {
  return (
    <>
      <PageHeader title="Chats" description="Direct messages and group chats with other players." />
      <EmptyState
        icon={<ChatIcon />}
        title="No conversations yet"
        description="Your direct messages and group chats with other players will appear here."
      />
    </>
  );
}
