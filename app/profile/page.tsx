import type { Metadata } from 'next';
import { OwnProfile } from '@/components/users/own-profile';

export const metadata: Metadata = { title: 'Your profile' };

export default function ProfilePage() {
  return <OwnProfile />;
}
