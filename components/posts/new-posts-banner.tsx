'use client';

import { Spinner } from '@/components/ui/button';
import { ArrowUpIcon } from '@/components/ui/icons';

/** "1 new post", "3 new posts", "50+ new posts". */
export const newPostsLabel = (count: number, isCapped = false) => `${count}${isCapped ? '+' : ''} new ${count === 1 && !isCapped ? 'post' : 'posts'}`;

/**
 * The pill that says posts are waiting above the feed. It sits in the flow above the list, in a
 * row of its own, so it covers nothing (it used to float over the first post's @handle, issue
 * 35); pressing it loads them and brings the reader to the top. The count is also announced
 * politely to screen readers, which is how a reader far down the feed learns of it.
 */
export const NewPostsBanner = ({
  count,
  isCapped,
  isLoading,
  onShow,
}: {
  count: number;
  isCapped?: boolean;
  isLoading: boolean;
  onShow: () => void;
}) => (
  <>
    <p role="status" className="sr-only">
      {count > 0 ? `${newPostsLabel(count, isCapped)} available at the top of the feed` : ''}
    </p>
    {count > 0 && (
      <div className="mb-3 flex justify-center">
        <button
          type="button"
          onClick={onShow}
          disabled={isLoading}
          aria-busy={isLoading || undefined}
          data-testid="new-posts-banner"
          className="inline-flex h-9 items-center gap-2 rounded-full bg-accent px-4 text-sm font-semibold text-canvas shadow-lg shadow-black/40 transition-colors hover:bg-accent-strong hover:text-white disabled:opacity-80"
        >
          {isLoading ? <Spinner /> : <ArrowUpIcon className="size-4" />}
          Show {newPostsLabel(count, isCapped)}
        </button>
      </div>
    )}
  </>
);
