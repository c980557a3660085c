'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { CommentForm } from '@/components/comments/comment-form';
import { CommentThread } from '@/components/comments/comment-thread';
import { SectionError, SectionLoading } from '@/components/markets/section-states';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { useCommentThread, useCreateComment } from '@/lib/client/queries/comments';
import { useMarketPosts, type TMarketPostSummary } from '@/lib/client/queries/markets';
import { usePost } from '@/lib/client/queries/posts';
import { useSession } from '@/lib/client/queries/users';
import { PostCard, PostCardSkeleton } from './post-card';

/** One post's comment thread, with a reply box for signed-in players. */
const PostComments = ({ postId, id }: { postId: string; id: string }) => {
  const router = useRouter();
  const session = useSession();
  const thread = useCommentThread(postId);
  const create = useCreateComment(postId);
  return (
    <div id={id} className="flex flex-col gap-4 border-l-2 border-line pl-3 sm:pl-4">
      {session.isSignedIn && (
        <CommentForm label="Reply to this post" submitLabel="Comment" isPending={create.isPending} onSubmit={(content) => create.mutateAsync({ content })} />
      )}
      {thread.isPending ? (
        <SectionLoading label="Loading comments" rows={2} />
      ) : thread.isError ? (
        <SectionError error={thread.error} onRetry={() => thread.refetch()} isRetrying={thread.isFetching} />
      ) : thread.data.length === 0 ? (
        <p className="text-sm text-ink-muted">No comments yet.</p>
      ) : (
        <CommentThread comments={thread.data} postId={postId} viewerId={session.user?.id ?? null} onRequireSignIn={() => router.push('/sign-in')} />
      )}
    </div>
  );
};

/** A post about the market (the posts API's own card) and its comments, open on request. */
const DiscussionItem = ({ summary, isInitiallyOpen }: { summary: TMarketPostSummary; isInitiallyOpen: boolean }) => {
  const post = usePost(summary.id);
  const [isOpen, setIsOpen] = useState(isInitiallyOpen);
  const threadId = useId();
  const comments = post.data?.commentsCount ?? summary.commentsCount;
  return (
    <li className="flex flex-col gap-3">
      {post.isPending ? <PostCardSkeleton /> : post.isError ? null : <PostCard post={post.data} />}
      <div>
        <Button size="sm" variant="ghost" aria-expanded={isOpen} aria-controls={threadId} onClick={() => setIsOpen(!isOpen)}>
          {isOpen ? 'Hide comments' : comments === 0 ? 'Comment' : `Show ${comments} ${comments === 1 ? 'comment' : 'comments'}`}
        </Button>
      </div>
      {isOpen && <PostComments postId={summary.id} id={threadId} />}
    </li>
  );
};

/** What players say about this market: the posts about it, each with its threaded comments. */
export const MarketDiscussion = ({ marketId }: { marketId: string }) => {
  const posts = useMarketPosts(marketId);
  // The first post with comments opens its thread, so the conversation is visible at once.
  const firstWithComments = posts.data?.find((p) => p.commentsCount > 0)?.id;
  return (
    <Card aria-labelledby="discussion-title" className="flex flex-col gap-4">
      <CardTitle id="discussion-title">
        Discussion {posts.data && <span className="font-normal text-ink-muted tabular-nums">({posts.data.length})</span>}
      </CardTitle>
      {posts.isPending ? (
        <SectionLoading label="Loading the discussion" rows={2} />
      ) : posts.isError ? (
        <SectionError error={posts.error} onRetry={() => posts.refetch()} isRetrying={posts.isFetching} />
      ) : posts.data.length === 0 ? (
        <p className="text-sm text-ink-muted">Nobody has posted about this market yet.</p>
      ) : (
        <ul aria-label="Posts about this market, newest first" className="flex flex-col gap-5">
          {posts.data.map((p) => (
            <DiscussionItem key={p.id} summary={p} isInitiallyOpen={p.id === firstWithComments} />
          ))}
        </ul>
      )}
    </Card>
  );
};
