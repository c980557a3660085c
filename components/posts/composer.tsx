'use client';

import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { BannedNotice } from '@/components/moderation/banned-notice';
import { Avatar } from '@/components/ui/avatar';
import { Button, Spinner } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Notice } from '@/components/ui/error-state';
import { CloseIcon, ImageIcon } from '@/components/ui/icons';
import { Textarea } from '@/components/ui/textarea';
import { describeError, getFieldErrors } from '@/lib/client/queries/errors';
import {
  IMAGE_TYPES,
  imageFileProblem,
  POST_ERROR_MESSAGES,
  POST_MAX_CHARS,
  postDraftProblem,
  useCreatePost,
  useUploadPostImage,
  visibleLength,
  type TUploadedImage,
} from '@/lib/client/queries/posts';
import type { TUser } from '@/lib/contracts/users';

/**
 * Writing a post: the text with a live count of characters as a reader sees them (red past
 * 280), an optional image (uploaded as soon as it is picked, shown as a thumbnail that can be
 * removed), and "Post".
 */
export const Composer = ({ user }: { user: TUser }) => {
  const id = useId();
  const textId = `${id}-text`;
  const counterId = `${id}-counter`;
  const fileRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [image, setImage] = useState<TUploadedImage | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [posted, setPosted] = useState(false);
  const create = useCreatePost();
  const upload = useUploadPostImage();

  const count = visibleLength(text);
  const draftProblem = postDraftProblem(text);
  const isOver = count > POST_MAX_CHARS;

  const onPick = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setPosted(false);
    const local = imageFileProblem(file);
    if (local) {
      setProblem(local);
      return;
    }
    setProblem(null);
    setImage(null);
    upload.mutate(file, {
      onSuccess: (img) => setImage(img),
      onError: (err) => setProblem(`The image was not uploaded: ${describeError(err, POST_ERROR_MESSAGES)}`),
    });
  };

  const onRemoveImage = () => {
    setImage(null);
    upload.reset();
    fileRef.current?.focus();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setPosted(false);
    if (draftProblem === 'empty') return setProblem('Write something first.');
    if (draftProblem === 'too-long') return setProblem(`Posts can be at most ${POST_MAX_CHARS} characters.`);
    if (upload.isPending) return setProblem('Wait for the image to finish uploading.');
    setProblem(null);
    create.mutate(
      { content: text.trim(), imageUrl: image?.url ?? null },
      {
        onSuccess: () => {
          setText('');
          setImage(null);
          upload.reset();
          setPosted(true);
        },
        onError: (err) => setProblem(getFieldErrors(err).content ?? describeError(err, POST_ERROR_MESSAGES)),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} aria-label="New post" className="rounded-2xl border border-line bg-surface p-4 sm:p-5">
      <div className="flex gap-3">
        <span className="hidden sm:block">
          <Avatar src={user.profileImageUrl} name={user.displayName || user.username} />
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-3">
          <label htmlFor={textId} className="sr-only">
            Write a post
          </label>
          <Textarea
            id={textId}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setPosted(false);
              if (problem) setProblem(null);
            }}
            placeholder="What's your call? Use #tags and @mentions."
            aria-describedby={counterId}
            aria-invalid={isOver || undefined}
            rows={3}
            className="min-h-20"
          />
          {(image || upload.isPending) && (
            <div className="relative w-fit">
              {image ? (
                <>
                  {/* eslint-disable-next-line @next/next/no-img-element -- a just-uploaded image */}
                  <img src={image.url} alt="Image to attach" className="max-h-48 max-w-full rounded-xl border border-line object-cover" />
                  <button
                    type="button"
                    onClick={onRemoveImage}
                    aria-label="Remove image"
                    className="absolute top-2 right-2 inline-flex size-8 items-center justify-center rounded-full bg-canvas/85 text-ink hover:bg-canvas focus-visible:ring-2 focus-visible:ring-accent/60 focus-visible:outline-none"
                  >
                    <CloseIcon className="size-4" />
                  </button>
                </>
              ) : (
                <div role="status" className="flex h-24 w-40 items-center justify-center gap-2 rounded-xl border border-dashed border-line-strong text-xs text-ink-muted">
                  <Spinner /> Uploading image…
                </div>
              )}
            </div>
          )}
          <BannedNotice />
          {problem && <Notice tone="error">{problem}</Notice>}
          {posted && <Notice tone="success">Your post is live.</Notice>}
          <div className="flex items-center gap-3">
            <input ref={fileRef} id={`${id}-file`} type="file" accept={IMAGE_TYPES.join(',')} onChange={onPick} className="peer sr-only" aria-label="Add image" />
            <label
              htmlFor={`${id}-file`}
              aria-hidden="true"
              title="Add image"
              className="inline-flex size-9 cursor-pointer items-center justify-center rounded-lg text-accent transition-colors peer-focus-visible:ring-2 peer-focus-visible:ring-accent/50 hover:bg-accent-soft"
            >
              <ImageIcon />
            </label>
            <span
              id={counterId}
              className={cn('ml-auto text-xs tabular-nums', isOver ? 'font-semibold text-down' : count > POST_MAX_CHARS - 20 ? 'text-warn' : 'text-ink-faint')}
            >
              {count}/{POST_MAX_CHARS}
              <span className="sr-only"> characters{isOver ? `, ${count - POST_MAX_CHARS} over the limit` : ''}</span>
            </span>
            <Button type="submit" isLoading={create.isPending} disabled={draftProblem !== null || upload.isPending}>
              Post
            </Button>
          </div>
        </div>
      </div>
    </form>
  );
};
