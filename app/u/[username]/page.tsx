import type { Metadata } from 'next';
import { PublicProfile } from '@/components/users/public-profile';

type TProps = { params: Promise<{ username: string }> };

export const generateMetadata = async ({ params }: TProps): Promise<Metadata> => {
  const { username } = await params;
  return { title: `@${username}` };
};

export default async function UserPage({ params }: TProps) {
  const { username } = await params;
  return <PublicProfile username={username} />;
}
