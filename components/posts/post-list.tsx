'use client';

import { useEffect, useRef, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ErrorState } from '@/components/ui/error-state';
import { describeError } from '@/lib/client/queries/errors';
import { feedItemKey, type TPost } from '@/lib/client/queries/posts';
import { PostCard, PostCardSkeleton } from './post-card';

/** The parts of an infinite query a post list needs (useFeed, useTagPosts, useUserPosts). */
export type TPostListQuery = {
  data: TPost[] | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  isFetchingNextPage: boolean;
  hasNextPage: boolean;
  fetchNextPage: () => unknown;
  refetch: () => unknown;
};

export const PostListSkeleton = ({ label = 'Loading posts', count = 3 }: { label?: string; count?: number }) => (
  <div role="status" aria-label={label} className="flex flex-col gap-3">
    {Array.from({ length: count }, (_, i) => (
      <PostCardSkeleton key={i} />
    ))}
  </div>
);

/** Asks for the next page when the sentinel scrolls near the viewport. */
const useLoadOnScroll = (isEnabled: boolean, load: () => unknown) => {
  const ref = useRef<HTMLDivElement>(null);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });
  useEffect(() => {
    const el = ref.current;
    if (!el || !isEnabled || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) loadRef.current();
    }, { rootMargin: '600px 0px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, [isEnabled]);
  return ref;
};

/**
 * Posts newest first as an ARIA feed, with loading, empty and error states. More pages load as
 * the end scrolls into view, or with the "Load more" button (keyboards, and no observer).
 */
export const PostList = ({ query, label, empty }: { query: TPostListQuery; label: string; empty: ReactNode }) => {
  const canLoadMore = query.hasNextPage && !query.isFetchingNextPage && !query.isError;
  const sentinel = useLoadOnScroll(canLoadMore, () => query.fetchNextPage());

  if (query.isPending) return <PostListSkeleton />;
  if (query.isError && !query.data) {
    return <ErrorState title="The posts did not load" message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />;
  }
  const posts = query.data ?? [];
  if (posts.length === 0) return <>{empty}</>;
  return (
    <div className="flex flex-col gap-3">
      <div role="feed" aria-label={label} aria-busy={query.isFetchingNextPage || undefined} className="flex flex-col gap-3">
        {posts.map((post, i) => (
          <PostCard key={feedItemKey(post)} post={post} posInSet={i + 1} setSize={query.hasNextPage ? -1 : posts.length} />
        ))}
      </div>
      {query.isFetchingNextPage && <PostListSkeleton label="Loading more posts" count={1} />}
      {query.isError && <ErrorState title="More posts did not load" message={describeError(query.error)} onRetry={() => query.fetchNextPage()} />}
      <div ref={sentinel} aria-hidden="true" className="h-px" />
      {query.hasNextPage ? (
        <Button variant="secondary" className="self-center" onClick={() => query.fetchNextPage()} isLoading={query.isFetchingNextPage}>
          Load more
        </Button>
      ) : (
        <p className="py-4 text-center text-xs text-ink-faint">You are all caught up.</p>
      )}
    </div>
  );
};
