'use client';

import { useState } from 'react';
import { FollowList } from '@/components/follows/follow-list';
import { PostList } from '@/components/posts/post-list';
import { EmptyState } from '@/components/ui/empty-state';
import { formatCount } from '@/components/ui/format';
import { FeedIcon } from '@/components/ui/icons';
import { Tabs, tabPanelProps } from '@/components/ui/tabs';
import { useUserPosts } from '@/lib/client/queries/posts';
import type { TUser } from '@/lib/contracts/users';

type TTab = 'posts' | 'followers' | 'following';

const UserPosts = ({ user }: { user: TUser }) => {
  const posts = useUserPosts(user.id);
  return (
    <PostList
      query={posts}
      label={`Posts by @${user.username}`}
      empty={<EmptyState icon={<FeedIcon />} headingLevel={3} title="No posts yet" description="New posts from this profile will show up here, newest first." />}
    />
  );
};

/** A profile's posts, followers and following, as tabs. */
export const ProfileActivity = ({ user }: { user: TUser }) => {
  const [tab, setTab] = useState<TTab>('posts');
  const tabs = [
    { value: 'posts', label: 'Posts' },
    { value: 'followers', label: `Followers (${formatCount(user.stats.followersCount)})` },
    { value: 'following', label: `Following (${formatCount(user.stats.followingCount)})` },
  ] as const;
  return (
    <section aria-label="Activity" className="flex flex-col gap-4">
      <Tabs label="Profile activity" idPrefix="profile" value={tab} tabs={tabs} onChange={setTab} />
      <div {...tabPanelProps('profile', tab)}>
        {tab === 'posts' ? <UserPosts user={user} /> : <FollowList kind={tab} user={user} />}
      </div>
    </section>
  );
};
