'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ModerationMenu } from '@/components/moderation/moderation-menu';
import { AuthorCalibration } from '@/components/story/calibration-badge';
import { Avatar } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { formatCount } from '@/components/ui/format';
import { ChatIcon, HeartIcon, ReplyIcon, RepostIcon } from '@/components/ui/icons';
import { RelativeTime } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { describeError } from '@/lib/client/queries/errors';
import { POST_ERROR_MESSAGES, useTogglePostLike, useTogglePostShare, type TPost } from '@/lib/client/queries/posts';
import { useSession } from '@/lib/client/queries/users';
import { profileHref } from '@/lib/users/links';
import { PostMarketCard } from './post-market-card';
import { PostText } from './post-text';
import { PostTradeChip } from './post-trade-chip';

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

const actionClass = (isActive: boolean, activeClass: string) =>
  cn(
    'inline-flex h-9 min-w-16 items-center gap-1.5 rounded-lg px-2.5 text-sm tabular-nums transition-colors',
    'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/50',
    isActive ? activeClass : 'text-ink-muted hover:bg-elevated hover:text-ink',
  );

/** Comment (a link to the post), Like and Share (toggles, optimistic). Signed-out clicks go to sign in. */
export const PostActions = ({ post, commentHref }: { post: TPost; commentHref: string }) => {
  const router = useRouter();
  const session = useSession();
  const like = useTogglePostLike();
  const share = useTogglePostShare();
  const [problem, setProblem] = useState<string | null>(null);
  const [quote, setQuote] = useState<string | null>(null);
  const requireSession = () => {
    if (session.isSignedIn) return true;
    router.push('/sign-in');
    return false;
  };
  const onLike = () => {
    if (!requireSession()) return;
    setProblem(null);
    like.mutate({ postId: post.id, like: !post.userLiked }, { onError: (e) => setProblem(describeError(e, POST_ERROR_MESSAGES)) });
  };
  const onShare = () => {
    if (!requireSession()) return;
    setProblem(null);
    share.mutate({ postId: post.id, share: !post.userShared }, { onError: (e) => setProblem(describeError(e, POST_ERROR_MESSAGES)) });
  };
  const onQuote = () => {
    if (!requireSession()) return;
    setProblem(null);
    setQuote((q) => (q === null ? '' : null));
  };
  const submitQuote = () => {
    const text = (quote ?? '').trim();
    share.mutate(
      { postId: post.id, share: true, quoteComment: text },
      { onError: (e) => setProblem(describeError(e, POST_ERROR_MESSAGES)), onSuccess: () => setQuote(null) },
    );
  };
  return (
    <div className="mt-3 flex flex-col gap-1">
      <div className="-ml-2.5 flex flex-wrap items-center gap-1" role="group" aria-label="Post actions">
        <Link href={commentHref} className={actionClass(false, '')} aria-label={`Comment, ${plural(post.commentsCount, 'comment', 'comments')}`}>
          <ChatIcon className="size-4.5" />
          <span aria-hidden="true">{formatCount(post.commentsCount)}</span>
        </Link>
        <button
          type="button"
          onClick={onLike}
          aria-pressed={post.userLiked}
          aria-label={`Like, ${plural(post.likesCount, 'like', 'likes')}`}
          className={actionClass(post.userLiked, 'text-down hover:bg-down-soft')}
        >
          <HeartIcon className="size-4.5" fill={post.userLiked ? 'currentColor' : 'none'} />
          <span aria-hidden="true">{formatCount(post.likesCount)}</span>
        </button>
        <button
          type="button"
          onClick={onShare}
          aria-pressed={post.userShared}
          aria-label={`Share, ${plural(post.sharesCount, 'share', 'shares')}`}
          className={actionClass(post.userShared, 'text-up hover:bg-up-soft')}
        >
          <RepostIcon className="size-4.5" />
          <span aria-hidden="true">{formatCount(post.sharesCount)}</span>
        </button>
        {!post.userShared && (
          <button type="button" onClick={onQuote} aria-expanded={quote !== null} aria-label="Share with a quote" className={actionClass(quote !== null, 'text-up')}>
            <ReplyIcon className="size-4.5" />
          </button>
        )}
      </div>
      {quote !== null && (
        <form
          className="flex flex-col gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            submitQuote();
          }}
        >
          <Textarea
            aria-label="Your quote"
            value={quote}
            maxLength={280}
            rows={2}
            placeholder="Say something about it (optional)"
            onChange={(e) => setQuote(e.target.value)}
          />
          <div className="flex gap-2">
            <Button type="submit" size="sm" isLoading={share.isPending}>
              Share with quote
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setQuote(null)}>
              Cancel
            </Button>
          </div>
        </form>
      )}
      {problem && (
        <p role="alert" className="text-xs text-down">
          {problem}
        </p>
      )}
    </div>
  );
};

/**
 * In a removed post's place: who removed it and why. Everyone but a moderator gets no content with
 * it (lib/posts/dto toPostDto); a moderator sees the content below it, set apart.
 */
const RemovedNotice = ({ removed }: { removed: NonNullable<TPost['removed']> }) => (
  <p className="mt-1 rounded-lg bg-elevated/60 px-3 py-2 text-sm text-ink-muted italic" data-testid="post-removed">
    {removed.reason ? `Removed by a moderator: ${removed.reason}` : 'Removed by a moderator.'}
  </p>
);

/**
 * One post in a feed or on its own page: author, time, text with linked #tags, @mentions and
 * $TICKERs, the trade it reports, the image, the live card of the market it is about, a repost
 * header when someone the reader follows shared it, and the actions.
 */
export const PostCard = ({
  post,
  isDetail = false,
  posInSet,
  setSize,
}: {
  post: TPost;
  isDetail?: boolean;
  /** Position in an ARIA feed (setSize -1 while more can load). */
  posInSet?: number;
  setSize?: number;
}) => {
  const postHref = `/posts/${encodeURIComponent(post.id)}`;
  const name = post.author.displayName || post.author.username;
  const repost = post.repost;
  return (
    <article
      aria-posinset={posInSet}
      aria-setsize={setSize}
      aria-label={`${repost ? `Repost by @${repost.user.username} of a post` : 'Post'} by ${name}`}
      data-npc={post.author.isActor || undefined}
      className={cn('rounded-2xl border border-line bg-surface px-4 py-4 sm:px-5', isDetail && 'sm:px-6 sm:py-5')}
    >
      {repost && (
        <div className="mb-3 flex flex-col gap-2">
          <p className="flex items-center gap-2 text-xs font-medium text-ink-muted">
            <RepostIcon className="size-4 text-up" />
            <Link href={profileHref(repost.user)} className="hover:text-ink hover:underline">
              @{repost.user.username}
            </Link>
            reposted
            <span aria-hidden="true">·</span>
            <RelativeTime iso={repost.createdAt} />
          </p>
          {repost.quote && (
            <blockquote className="rounded-lg border-l-2 border-accent/60 bg-elevated/60 px-3 py-2 text-sm text-ink">{repost.quote}</blockquote>
          )}
        </div>
      )}
      <div className="flex gap-3">
        <Link href={profileHref(post.author)} className="shrink-0 rounded-full" tabIndex={-1} aria-hidden="true">
          <Avatar src={post.author.profileImageUrl} name={name} />
        </Link>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5 text-sm">
            <Link href={profileHref(post.author)} className="flex min-w-0 items-baseline gap-2 hover:underline">
              <span className="truncate font-semibold text-ink">{name}</span>
              <span className="truncate text-ink-muted">@{post.author.username}</span>
            </Link>
            {post.author.isActor && <Badge tone="accent">NPC</Badge>}
            {post.author.isActor && <AuthorCalibration author={post.author} />}
            <span aria-hidden="true" className="text-ink-faint">
              ·
            </span>
            {isDetail ? (
              <RelativeTime iso={post.createdAt} className="text-ink-muted" />
            ) : (
              <Link href={postHref} className="text-ink-muted hover:text-ink hover:underline">
                <RelativeTime iso={post.createdAt} />
              </Link>
            )}
          </div>
          {post.removed && <RemovedNotice removed={post.removed} />}
          {post.content && (
            <PostText
              text={post.content}
              tickers={post.tickers ?? []}
              className={cn(
                'mt-1 leading-relaxed break-words whitespace-pre-wrap text-ink',
                isDetail ? 'text-base sm:text-lg' : 'text-sm sm:text-[15px]',
                // A moderator reads what was removed, set apart from what everyone reads.
                post.removed && 'rounded-lg border border-dashed border-line px-3 py-2 text-ink-muted',
              )}
            />
          )}
          {post.trade && <PostTradeChip trade={post.trade} className="mt-2" />}
          {post.imageUrl && (
            // eslint-disable-next-line @next/next/no-img-element -- uploaded images and remote URLs of any size
            <img
              src={post.imageUrl}
              alt={`Image posted by @${post.author.username}`}
              loading="lazy"
              className="mt-3 max-h-[28rem] w-full rounded-xl border border-line bg-canvas object-contain"
            />
          )}
          {post.market && <PostMarketCard post={post} />}
          <PostActions post={post} commentHref={isDetail ? '#comment-form' : `${postHref}#comments`} />
        </div>
        <ModerationMenu person={post.author} where={{ kind: 'post', postId: post.id }} className="-mt-1.5 -mr-2 shrink-0" />
      </div>
    </article>
  );
};

export const PostCardSkeleton = () => (
  <div className="flex gap-3 rounded-2xl border border-line bg-surface px-4 py-4 sm:px-5">
    <Skeleton className="size-10 rounded-full" />
    <div className="flex flex-1 flex-col gap-2">
      <Skeleton className="h-4 w-40" />
      <Skeleton className="h-4 w-full" />
      <Skeleton className="h-4 w-2/3" />
      <div className="mt-2 flex gap-4">
        <Skeleton className="h-6 w-12" />
        <Skeleton className="h-6 w-12" />
        <Skeleton className="h-6 w-12" />
      </div>
    </div>
  </div>
);
