import type { Metadata } from 'next';
import { GroupDetail } from '@/components/groups/group-detail';

type TProps = { params: Promise<{ groupId: string }> };

export const metadata: Metadata = { title: 'Group' };

export default async function GroupPage({ params }: TProps) {
  const groupId = decodeURIComponent((await params).groupId);
  return <GroupDetail key={groupId} groupId={groupId} />;
}
