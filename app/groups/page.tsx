import type { Metadata } from 'next';
import { GroupsHub } from '@/components/groups/groups-hub';

export const metadata: Metadata = { title: 'Groups' };

export default function GroupsPage() {
  return <GroupsHub />;
}
