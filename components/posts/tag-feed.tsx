'use client';

import { EmptyState } from '@/components/ui/empty-state';
import { HashIcon } from '@/components/ui/icons';
import { TrendingSidebar } from '@/components/widgets/trending-sidebar';
import { useTagPosts } from '@/lib/client/queries/posts';
import { PostList } from './post-list';

/** The posts carrying one tag, newest first, with the trending column beside them. */
export const TagFeed = ({ tag }: { tag: string }) => {
  const posts = useTagPosts(tag);
  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="min-w-0">
        <PostList
          query={posts}
          label={`Posts tagged #${tag}`}
          empty={<EmptyState icon={<HashIcon />} title={`No posts with #${tag} yet`} description={`Write a post with #${tag} in it and it will be listed here.`} />}
        />
      </div>
      <TrendingSidebar />
    </div>
  );
};
