import type { Metadata } from 'next';
import { PublicProfile } from '@/components/users/public-profile';
import { profileMetadata } from '@/lib/og/metadata';

type TProps = { params: Promise<{ username: string }> };

// The share image is ./opengraph-image.tsx; this adds the absolute base, title and description.
export const generateMetadata = async ({ params }: TProps): Promise<Metadata> => profileMetadata((await params).username);

export default async function UserPage({ params }: TProps) {
  const { username } = await params;
  return <PublicProfile username={username} />;
}
