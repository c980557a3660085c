'use client';

import { Fragment, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { ErrorState } from '@/components/ui/error-state';
import { describeError } from '@/lib/client/queries/errors';
import { feedItemKey, type TPost } from '@/lib/client/queries/posts';
import { groupReceipts, type TFeedItem } from '@/lib/posts/receipts';
import { PostCard, PostCardSkeleton } from './post-card';
import { ReceiptsDigest } from './receipts-digest';

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

const asItems = (posts: TPost[]): TFeedItem<TPost>[] => posts.map((post, index) => ({ kind: 'post', post, index }));

/**
 * Posts newest first as an ARIA feed, with loading, empty and error states. More pages load as
 * the end scrolls into view, or with the "Load more" button (keyboards, and no observer).
 * `foldReceipts` folds runs of NPC trade receipts into one digest item (the home feed);
 * `afterFirst` is shown after the first item (the phone's stats), as an article of the feed so the
 * feed keeps only articles, or after the empty state when there is no post.
 */
export const PostList = ({
  query,
  label,
  empty,
  foldReceipts = false,
  afterFirst,
}: {
  query: TPostListQuery;
  label: string;
  empty: ReactNode;
  foldReceipts?: boolean;
  afterFirst?: { label: string; node: ReactNode; className?: string };
}) => {
  const canLoadMore = query.hasNextPage && !query.isFetchingNextPage && !query.isError;
  const sentinel = useLoadOnScroll(canLoadMore, () => query.fetchNextPage());
  const data = query.data;
  const items = useMemo(() => (foldReceipts ? groupReceipts(data ?? [], feedItemKey) : asItems(data ?? [])), [data, foldReceipts]);

  if (query.isPending) return <PostListSkeleton />;
  if (query.isError && !query.data) {
    return <ErrorState title="The posts did not load" message={describeError(query.error)} onRetry={() => query.refetch()} isRetrying={query.isFetching} />;
  }
  if (items.length === 0) {
    return (
      <>
        {empty}
        {afterFirst && <div className={cn('mt-3', afterFirst.className)}>{afterFirst.node}</div>}
      </>
    );
  }
  const setSize = query.hasNextPage ? -1 : items.length;
  return (
    <div className="flex flex-col gap-3">
      <div role="feed" aria-label={label} aria-busy={query.isFetchingNextPage || undefined} className="flex flex-col gap-3">
        {items.map((item) => (
          <Fragment key={item.kind === 'post' ? feedItemKey(item.post) : item.key}>
            {item.kind === 'post' ? (
              <PostCard post={item.post} posInSet={item.index + 1} setSize={setSize} />
            ) : (
              <ReceiptsDigest posts={item.posts} summary={item.summary} posInSet={item.index + 1} setSize={setSize} />
            )}
            {item.index === 0 && afterFirst && (
              <article aria-label={afterFirst.label} className={afterFirst.className}>
                {afterFirst.node}
              </article>
            )}
          </Fragment>
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
