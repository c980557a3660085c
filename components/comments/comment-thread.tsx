'use client';

import Link from 'next/link';
import { useState } from 'react';
import { ModerationMenu } from '@/components/moderation/moderation-menu';
import { Avatar } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { formatCount } from '@/components/ui/format';
import { HeartIcon } from '@/components/ui/icons';
import { RelativeTime } from '@/components/ui/relative-time';
import { RichText } from '@/components/ui/rich-text';
import {
  COMMENT_ERROR_MESSAGES,
  useCreateComment,
  useDeleteComment,
  useToggleCommentLike,
  useUpdateComment,
  type TCommentNode,
} from '@/lib/client/queries/comments';
import { describeError } from '@/lib/client/queries/errors';
import { removedText } from '@/lib/contracts/comments';
import { profileHref } from '@/lib/users/links';
import { CommentForm } from './comment-form';

/** Replies deeper than this stop indenting further (the thread stays readable on a phone). */
const MAX_INDENT_DEPTH = 4;

type TThreadContext = { postId: string; viewerId: string | null; onRequireSignIn: () => void };

const CommentItem = ({ comment, depth, ctx }: { comment: TCommentNode; depth: number; ctx: TThreadContext }) => {
  const [mode, setMode] = useState<'idle' | 'reply' | 'edit' | 'confirm-delete'>('idle');
  const [problem, setProblem] = useState<string | null>(null);
  const reply = useCreateComment(ctx.postId);
  const update = useUpdateComment(ctx.postId);
  const remove = useDeleteComment(ctx.postId);
  const like = useToggleCommentLike(ctx.postId);
  const isOwn = ctx.viewerId !== null && comment.authorId === ctx.viewerId && !comment.deleted;
  const removed = comment.deleted ? null : comment.removed;
  const name = comment.author.displayName || comment.author.username;
  const authorHref = profileHref(comment.author);

  const onLike = () => {
    if (!ctx.viewerId) return ctx.onRequireSignIn();
    setProblem(null);
    like.mutate({ commentId: comment.id, like: !comment.userReacted }, { onError: (e) => setProblem(describeError(e, COMMENT_ERROR_MESSAGES)) });
  };
  const onReply = () => {
    if (!ctx.viewerId) return ctx.onRequireSignIn();
    setMode(mode === 'reply' ? 'idle' : 'reply');
  };
  const onDelete = () => {
    setProblem(null);
    remove.mutate(comment.id, { onSuccess: () => setMode('idle'), onError: (e) => setProblem(describeError(e, COMMENT_ERROR_MESSAGES)) });
  };

  return (
    <li id={`comment-${comment.id}`} className="flex flex-col gap-3">
      <article aria-label={comment.deleted ? 'Deleted comment' : `Comment by @${comment.author.username}`} className="flex gap-3">
        {comment.deleted ? (
          <span aria-hidden="true" className="size-8 shrink-0 rounded-full border border-dashed border-line-strong" />
        ) : (
          <Link href={authorHref} tabIndex={-1} aria-hidden="true" className="shrink-0 rounded-full">
            <Avatar src={comment.author.profileImageUrl} name={name} size="sm" />
          </Link>
        )}
        <div className="min-w-0 flex-1">
          {comment.deleted ? (
            <p className="text-sm text-ink-faint italic">[deleted]</p>
          ) : (
            <>
              <div className="flex flex-wrap items-baseline gap-x-2 text-sm">
                <Link href={authorHref} className="flex min-w-0 items-baseline gap-2 hover:underline">
                  <span className="truncate font-semibold text-ink">{name}</span>
                  <span className="truncate text-ink-muted">@{comment.author.username}</span>
                </Link>
                {comment.author.isActor && <Badge tone="accent">NPC</Badge>}
                <span aria-hidden="true" className="text-ink-faint">
                  ·
                </span>
                <RelativeTime iso={comment.createdAt} className="text-ink-muted" />
                {comment.editedAt && <span className="text-xs text-ink-faint">(edited)</span>}
              </div>
              {mode === 'edit' ? (
                <CommentForm
                  className="mt-2"
                  label="Edit your comment"
                  submitLabel="Save"
                  initialText={comment.content}
                  autoFocus
                  isPending={update.isPending}
                  onCancel={() => setMode('idle')}
                  onSubmit={async (content) => {
                    await update.mutateAsync({ commentId: comment.id, content });
                    setMode('idle');
                  }}
                />
              ) : removed ? (
                <>
                  <p data-testid="comment-removed" className="mt-0.5 text-sm text-ink-muted italic">
                    {removedText(removed.reason)}
                  </p>
                  {/* Moderators still get the text (everyone else an empty string): shown muted, for context. */}
                  {comment.content && (
                    <RichText text={comment.content} className="mt-1 text-sm leading-relaxed break-words whitespace-pre-wrap text-ink-faint line-through" />
                  )}
                </>
              ) : (
                <RichText text={comment.content} className="mt-0.5 text-sm leading-relaxed break-words whitespace-pre-wrap text-ink" />
              )}
            </>
          )}
          {mode !== 'edit' && (
            <div className="-ml-2 mt-1 flex flex-wrap items-center gap-1 text-xs">
              {!comment.deleted && (
                <button
                  type="button"
                  onClick={onLike}
                  aria-pressed={comment.userReacted}
                  aria-label={`Like, ${formatCount(comment.likesCount)} ${comment.likesCount === 1 ? 'like' : 'likes'}`}
                  className={cn(
                    'inline-flex h-8 items-center gap-1 rounded-md px-2 tabular-nums transition-colors',
                    comment.userReacted ? 'text-down hover:bg-down-soft' : 'text-ink-muted hover:bg-elevated hover:text-ink',
                  )}
                >
                  <HeartIcon className="size-4" fill={comment.userReacted ? 'currentColor' : 'none'} />
                  <span aria-hidden="true">{formatCount(comment.likesCount)}</span>
                </button>
              )}
              <Button variant="ghost" size="sm" className="h-8 px-2 text-xs" aria-expanded={mode === 'reply'} onClick={onReply}>
                Reply
              </Button>
              {isOwn && (
                <>
                  {!removed && (
                    <Button variant="ghost" size="sm" className="h-8 px-2 text-xs" onClick={() => setMode('edit')}>
                      Edit
                    </Button>
                  )}
                  <Button variant="ghost" size="sm" className="h-8 px-2 text-xs" onClick={() => setMode('confirm-delete')} aria-expanded={mode === 'confirm-delete'}>
                    Delete
                  </Button>
                </>
              )}
            </div>
          )}
          {mode === 'confirm-delete' && (
            <div role="group" aria-label="Confirm delete" className="mt-2 flex flex-wrap items-center gap-2 rounded-lg border border-down/30 bg-down-soft px-3 py-2 text-sm">
              <span className="text-ink">Delete this comment? Replies stay.</span>
              <Button variant="danger" size="sm" isLoading={remove.isPending} onClick={onDelete}>
                Delete comment
              </Button>
              <Button variant="ghost" size="sm" onClick={() => setMode('idle')}>
                Keep it
              </Button>
            </div>
          )}
          {problem && (
            <p role="alert" className="mt-1 text-xs text-down">
              {problem}
            </p>
          )}
          {mode === 'reply' && (
            <CommentForm
              className="mt-2"
              label={comment.deleted ? 'Your reply' : `Reply to @${comment.author.username}`}
              submitLabel="Reply"
              autoFocus
              isPending={reply.isPending}
              onCancel={() => setMode('idle')}
              onSubmit={async (content) => {
                await reply.mutateAsync({ content, parentCommentId: comment.id });
                setMode('idle');
              }}
            />
          )}
        </div>
        {!comment.deleted && <ModerationMenu person={comment.author} where={{ kind: 'comment', commentId: comment.id, postId: ctx.postId }} className="-mt-1.5 -mr-2 shrink-0" />}
      </article>
      {comment.replies.length > 0 && (
        <ul
          aria-label={`Replies to ${comment.deleted ? 'a deleted comment' : `@${comment.author.username}`}`}
          className={cn('flex flex-col gap-4', depth < MAX_INDENT_DEPTH && 'ml-4 border-l border-line pl-4 sm:ml-5 sm:pl-5')}
        >
          {comment.replies.map((r) => (
            <CommentItem key={r.id} comment={r} depth={depth + 1} ctx={ctx} />
          ))}
        </ul>
      )}
    </li>
  );
};

/** A post's comments as a thread: replies nested and indented under what they answer. */
export const CommentThread = ({ comments, ...ctx }: { comments: TCommentNode[] } & TThreadContext) => (
  <ul aria-label="Comments" className="flex flex-col gap-5">
    {comments.map((c) => (
      <CommentItem key={c.id} comment={c} depth={0} ctx={ctx} />
    ))}
  </ul>
);
