'use client';

import { useId, useState, type ChangeEvent } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Spinner } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Notice } from '@/components/ui/error-state';
import { ImageIcon } from '@/components/ui/icons';
import { describeError } from '@/lib/client/queries/errors';
import { useUploadProfileImage } from '@/lib/client/queries/onboarding';
import { imageFileProblem } from '@/lib/client/queries/posts';
import { BuiltInAvatarGrid } from './avatars';

/**
 * A profile image: upload one (sent as soon as it is picked, the upload API of useUploadProfileImage), or
 * pick a built-in avatar (public/avatars). The chosen image is previewed unless `preview` is false
 * (the Edit profile form previews it in its own header); `value` is its URL ('' for none). Used by
 * onboarding's profile step and by Edit profile (components/users/edit-profile-form.tsx).
 */
export const AvatarPicker = ({
  value,
  name,
  onChange,
  preview = true,
}: {
  value: string;
  name: string;
  onChange: (url: string) => void;
  preview?: boolean;
}) => {
  const inputId = useId();
  const upload = useUploadProfileImage();
  const [problem, setProblem] = useState<string | null>(null);

  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const local = imageFileProblem(file);
    setProblem(local);
    if (local) return;
    upload.mutate(file, {
      onSuccess: (image) => onChange(image.url),
      onError: (err) => setProblem(`The image was not uploaded: ${describeError(err)}`),
    });
  };

  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="text-sm font-medium text-ink">Profile image</legend>
      <div className="flex flex-wrap items-center gap-4">
        {preview && <Avatar src={value || null} name={name} size="lg" />}
        <div className="flex flex-col gap-1">
          <input id={inputId} type="file" accept="image/jpeg,image/png,image/webp,image/gif" className="peer sr-only" onChange={onFile} />
          <label
            htmlFor={inputId}
            className={cn(
              'inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-md border border-line-strong bg-elevated px-3 text-sm font-medium text-ink hover:bg-line',
              'peer-focus-visible:ring-2 peer-focus-visible:ring-accent/50',
            )}
          >
            {upload.isPending ? <Spinner /> : <ImageIcon className="size-4" />}
            {upload.isPending ? 'Uploading…' : 'Upload an image'}
          </label>
          <span className="text-xs text-ink-faint">JPEG, PNG, WebP or GIF, up to 5 MB.</span>
        </div>
        {value && (
          <button type="button" className="text-sm text-ink-muted underline underline-offset-2 hover:text-ink" onClick={() => onChange('')}>
            Remove image
          </button>
        )}
      </div>
      {problem && <Notice tone="error">{problem}</Notice>}
      <div>
        <p className="text-sm text-ink-muted">Or pick one of ours</p>
        <BuiltInAvatarGrid value={value} onPick={onChange} />
      </div>
    </fieldset>
  );
};
