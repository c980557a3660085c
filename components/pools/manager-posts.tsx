'use client';

import Link from 'next/link';
import { PostCard, PostCardSkeleton } from '@/components/posts/post-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { describeError } from '@/lib/client/queries/errors';
import { feedItemKey, useUserPosts } from '@/lib/client/queries/posts';
import type { TPool } from '@/lib/client/queries/pools';
import { profileHref } from '@/lib/users/links';

/** How many of the manager's posts the pool page shows; the rest are on their profile. */
const SHOWN = 3;

/** The manager's latest posts (their market calls), with a link to their profile for the rest. */
export const ManagerPosts = ({ manager }: { manager: TPool['manager'] }) => {
  const posts = useUserPosts(manager.id);
  const name = manager.displayName || manager.username;
  const managerHref = profileHref(manager);
  return (
    <section aria-labelledby="manager-posts-title" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="manager-posts-title" className="text-base font-semibold tracking-tight text-ink">
          Latest from {name}
        </h2>
        <Link href={managerHref} className="text-sm text-accent hover:underline">
          View profile
        </Link>
      </div>
      {posts.isPending ? (
        <div role="status" aria-label="Loading the manager's posts" className="flex flex-col gap-3">
          <PostCardSkeleton />
        </div>
      ) : posts.isError && !posts.data ? (
        <Card role="alert" className="flex items-center justify-between gap-3 text-sm text-ink-muted">
          {describeError(posts.error)}
          <Button size="sm" variant="secondary" onClick={() => posts.refetch()} isLoading={posts.isFetching}>
            Try again
          </Button>
        </Card>
      ) : (posts.data ?? []).length === 0 ? (
        <Card>
          <p className="text-sm text-ink-muted">{name} has not posted yet.</p>
        </Card>
      ) : (
        <div role="feed" aria-label={`Posts by @${manager.username}`} className="flex flex-col gap-3">
          {posts.data!.slice(0, SHOWN).map((post, i) => (
            <PostCard key={feedItemKey(post)} post={post} posInSet={i + 1} setSize={-1} />
          ))}
        </div>
      )}
    </section>
  );
};
