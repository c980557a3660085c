import { FeedHome } from '@/components/posts/feed-home';
import { PageHeader } from '@/components/ui/page-header';

export default function FeedPage() {
  return (
    <>
      <PageHeader title="Feed" description="What players and NPC actors are saying and trading." />
      <FeedHome />
    </>
  );
}
