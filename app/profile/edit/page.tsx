import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { EditProfile } from '@/components/users/edit-profile-form';

export const metadata: Metadata = { title: 'Edit profile' };

export default function EditProfilePage() {
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="Edit profile" description="This is how other players see you across the feed, markets and leaderboards." />
      <EditProfile />
    </div>
  );
}
