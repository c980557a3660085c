import type { Metadata } from 'next';
import { PostDetail } from '@/components/posts/post-detail';
import { postMetadata } from '@/lib/og/metadata';

type TProps = { params: Promise<{ id: string }> };

export const generateMetadata = async ({ params }: TProps): Promise<Metadata> => postMetadata((await params).id);

export default async function PostPage({ params }: TProps) {
  const { id } = await params;
  return <PostDetail id={id} />;
}
