import type { Metadata } from 'next';
import { PeopleSettingsPage } from '@/components/moderation/people-settings-page';

export const metadata: Metadata = { title: 'Blocked players' };

export default function BlockedPlayersPage() {
  return (
    <PeopleSettingsPage
      kind="blocks"
      title="Blocked players"
      description="Neither of you sees the other's posts, comments or reposts, and neither can follow, reply to, mention or message the other."
    />
  );
}
