import type { Metadata } from 'next';
import { PeopleSettingsPage } from '@/components/moderation/people-settings-page';

export const metadata: Metadata = { title: 'Muted players' };

export default function MutedPlayersPage() {
  return (
    <PeopleSettingsPage
      kind="mutes"
      title="Muted players"
      description="Their posts and notifications stop reaching you. They are never told, and nothing changes for them."
    />
  );
}
