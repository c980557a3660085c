'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { CommentForm } from '@/components/comments/comment-form';
import { CommentThread } from '@/components/comments/comment-thread';
import { FollowButton } from '@/components/follows/follow-button';
import { LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { ChatIcon, FeedIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { useCommentThread, useCreateComment, type TCommentNode } from '@/lib/client/queries/comments';
import { describeError, hasErrorCode } from '@/lib/client/queries/errors';
import { usePost } from '@/lib/client/queries/posts';
import { useSession } from '@/lib/client/queries/users';
import { PostCard, PostCardSkeleton } from './post-card';

/** The comments a loaded thread shows (deleted ones keep their place but are not counted, as the post's count does). */
const countLiveComments = (nodes: readonly TCommentNode[]): number => nodes.reduce((n, c) => n + (c.deleted ? 0 : 1) + countLiveComments(c.replies), 0);

const Comments = ({ postId, count }: { postId: string; count: number }) => {
  const router = useRouter();
  const session = useSession();
  const thread = useCommentThread(postId);
  // The thread is the newer read (it refetches on its own, and a comment may have arrived since
  // the post was read): once it is loaded, its count is the heading's.
  const shown = thread.isSuccess ? countLiveComments(thread.data) : count;
  const create = useCreateComment(postId);
  const isLoaded = thread.isSuccess;
  // A notification links to "#comment-<id>": the thread renders after it loads, so scroll then.
  useEffect(() => {
    if (!isLoaded || !window.location.hash.startsWith('#comment-')) return;
    document.getElementById(decodeURIComponent(window.location.hash.slice(1)))?.scrollIntoView({ block: 'center' });
  }, [isLoaded]);
  return (
    <section id="comments" aria-labelledby="comments-title" className="flex flex-col gap-5 rounded-2xl border border-line bg-surface p-4 sm:p-6">
      <h2 id="comments-title" className="text-base font-semibold text-ink">
        Comments <span className="text-ink-muted tabular-nums">({shown})</span>
      </h2>
      {session.isPending ? (
        <Skeleton className="h-28 w-full rounded-xl" />
      ) : session.isSignedIn ? (
        <CommentForm
          id="comment-form"
          label="Add a comment"
          submitLabel="Comment"
          isPending={create.isPending}
          onSubmit={(content) => create.mutateAsync({ content })}
        />
      ) : (
        <SignInPrompt title="Join the conversation" description="Sign in to comment, reply and like comments." />
      )}
      {thread.isPending ? (
        <div role="status" aria-label="Loading comments" className="flex flex-col gap-3">
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      ) : thread.isError ? (
        <ErrorState title="The comments did not load" message={describeError(thread.error)} onRetry={() => thread.refetch()} isRetrying={thread.isFetching} />
      ) : thread.data.length === 0 ? (
        <EmptyState icon={<ChatIcon />} headingLevel={3} title="No comments yet" description="Start the conversation: what do you make of this call?" className="py-8" />
      ) : (
        <CommentThread comments={thread.data} postId={postId} viewerId={session.user?.id ?? null} onRequireSignIn={() => router.push('/sign-in')} />
      )}
    </section>
  );
};

/** One post with its author, actions and the comment thread. */
export const PostDetail = ({ id }: { id: string }) => {
  const post = usePost(id);
  const back = (
    <Link href="/" className="inline-flex items-center gap-1 text-sm text-ink-muted hover:text-ink">
      <span aria-hidden="true">←</span> Feed
    </Link>
  );
  if (post.isPending) {
    return (
      <div role="status" aria-label="Loading post" className="flex flex-col gap-6">
        {back}
        <PostCardSkeleton />
        <Skeleton className="h-40 w-full rounded-2xl" />
      </div>
    );
  }
  if (post.isError) {
    if (hasErrorCode(post.error, 'NOT_FOUND', 'INVALID_PARAMETER')) {
      return (
        <EmptyState
          icon={<FeedIcon />}
          headingLevel={1}
          title="This post is gone"
          description="It may have been removed, or the link is wrong."
          action={
            <LinkButton href="/" variant="secondary">
              Back to the feed
            </LinkButton>
          }
        />
      );
    }
    return <ErrorState message={describeError(post.error)} onRetry={() => post.refetch()} isRetrying={post.isFetching} />;
  }
  const p = post.data;
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-5">
      <div className="flex items-center justify-between gap-3">
        {back}
        <FollowButton userId={p.author.id} username={p.author.username} />
      </div>
      <h1 className="sr-only">Post by {p.author.displayName || p.author.username}</h1>
      <PostCard post={p} isDetail />
      <Comments postId={p.id} count={p.commentsCount} />
    </div>
  );
};
