import type { Metadata } from 'next';
import { TagFeed } from '@/components/posts/tag-feed';
import { PageHeader } from '@/components/ui/page-header';

type TProps = { params: Promise<{ tag: string }> };

const decode = (raw: string) => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

const tagOf = (raw: string) => decode(raw).replace(/^#/, '').toLowerCase();

export const generateMetadata = async ({ params }: TProps): Promise<Metadata> => ({ title: `#${tagOf((await params).tag)}` });

export default async function TagPage({ params }: TProps) {
  const tag = tagOf((await params).tag);
  return (
    <>
      <PageHeader title={`#${tag}`} description="Posts with this tag, newest first." />
      <TagFeed tag={tag} />
    </>
  );
}
