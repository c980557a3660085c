'use client';

import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { Avatar } from '@/components/ui/avatar';
import { UsernameField } from '@/components/users/username-field';
import { AvatarPicker } from './avatar-picker';
import { Button, LinkButton } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ErrorState, Notice } from '@/components/ui/error-state';
import { Field, describedBy } from '@/components/ui/field';
import { formatDate, formatDateTime } from '@/components/ui/format';
import { CheckIcon, SparkIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import type { TUser } from '@/lib/contracts/users';
import { describeError, getFieldErrors, hasErrorCode, isApiError } from '@/lib/client/queries/errors';
import {
  buildProfileUpdate,
  toProfileFormValues,
  useCheckUsername,
  useGenerateProfile,
  useSession,
  useUpdateProfile,
  type TProfileFormValues,
  type TUsernameStatus,
} from '@/lib/client/queries/users';

const DISPLAY_NAME_MAX = 50;
const BIO_MAX = 500;

const usernameMessage = (status: TUsernameStatus, user: TUser) => {
  const rule = 'Usernames can be changed once every 30 days.';
  switch (status.state) {
    case 'unchanged':
      return { hint: user.usernameChangedAt ? `${rule} Last changed on ${formatDate(user.usernameChangedAt)}.` : rule };
    case 'checking':
      return { hint: 'Checking availability…' };
    case 'available':
      return {
        hint: (
          <span className="inline-flex items-center gap-1">
            <span className="inline-flex items-center gap-1 font-medium text-up">
              <CheckIcon className="size-4" /> Available.
            </span>
            {rule}
          </span>
        ),
      };
    case 'error':
      return { hint: `Could not check availability right now; saving will still check. ${rule}` };
    case 'invalid':
    case 'unavailable':
      return { error: status.reason };
  }
};

/** Field messages from a failed save, by error code. */
const serverFieldErrors = (error: unknown): Partial<Record<keyof TProfileFormValues, string>> => {
  if (hasErrorCode(error, 'USERNAME_TAKEN')) return { username: 'That username is already taken. Try another one.' };
  if (isApiError(error) && error.code === 'USERNAME_CHANGE_TOO_SOON') {
    const next = error.details?.nextChangeAllowedAt;
    return {
      username:
        typeof next === 'string'
          ? `You changed your username recently. You can change it again on ${formatDateTime(next)}.`
          : 'You changed your username recently. Usernames can be changed once every 30 days.',
    };
  }
  return getFieldErrors(error);
};

const EditProfileFormBody = ({ user }: { user: TUser }) => {
  const [values, setValues] = useState<TProfileFormValues>(() => toProfileFormValues(user));
  const update = useUpdateProfile();
  const suggest = useGenerateProfile();
  const usernameStatus = useCheckUsername(values.username, user.username);

  const setField = (field: keyof TProfileFormValues, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    // Edits make the last save's message stale.
    if (!update.isIdle) update.reset();
  };

  const onSuggest = () =>
    suggest.mutate(undefined, {
      onSuccess: (s) => {
        setValues({ displayName: s.displayName, username: s.username, bio: s.bio, profileImageUrl: s.profileImageUrl });
        if (!update.isIdle) update.reset();
      },
    });

  const isUsernameBlocked = usernameStatus.state === 'invalid' || usernameStatus.state === 'unavailable';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (isUsernameBlocked) return;
    update.mutate({ userId: user.id, body: buildProfileUpdate(user, values) });
  };

  const fieldErrors = update.isError ? serverFieldErrors(update.error) : {};
  const hasFieldErrors = Object.keys(fieldErrors).length > 0;
  const username = usernameMessage(usernameStatus, user);
  const usernameError = fieldErrors.username ?? username.error;

  const imageHint = 'An https:// link to an image, or upload one or pick a built-in avatar below.';

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <Card className="flex flex-col gap-6">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <div className="flex items-center gap-4">
            <Avatar src={values.profileImageUrl.trim() || null} name={values.displayName || values.username || user.username} size="lg" />
            <div className="min-w-0">
              <p className="truncate font-medium text-ink">{values.displayName || 'Your name'}</p>
              <p className="truncate text-sm text-ink-muted">@{values.username || user.username}</p>
            </div>
          </div>
          <Button variant="secondary" size="sm" onClick={onSuggest} isLoading={suggest.isPending}>
            {!suggest.isPending && <SparkIcon className="size-4" />}
            Suggest a profile
          </Button>
        </div>
        {suggest.isError && <Notice tone="error">{describeError(suggest.error)}</Notice>}

        <Field
          id="displayName"
          label="Display name"
          error={fieldErrors.displayName}
          counter={{ value: values.displayName.length, max: DISPLAY_NAME_MAX }}
        >
          <Input
            id="displayName"
            name="displayName"
            autoComplete="nickname"
            maxLength={DISPLAY_NAME_MAX}
            value={values.displayName}
            onChange={(e) => setField('displayName', e.target.value)}
            aria-invalid={!!fieldErrors.displayName}
            aria-describedby={describedBy('displayName', { error: fieldErrors.displayName, counter: true })}
          />
        </Field>

        <UsernameField id="username" value={values.username} onChange={(v) => setField('username', v)} hint={username.hint} error={usernameError} />

        <Field id="bio" label="Bio" error={fieldErrors.bio} counter={{ value: values.bio.length, max: BIO_MAX }}>
          <Textarea
            id="bio"
            name="bio"
            rows={4}
            maxLength={BIO_MAX}
            placeholder="What do you trade, and why should anyone follow you?"
            value={values.bio}
            onChange={(e) => setField('bio', e.target.value)}
            aria-invalid={!!fieldErrors.bio}
            aria-describedby={describedBy('bio', { error: fieldErrors.bio, counter: true })}
          />
        </Field>

        <Field id="profileImageUrl" label="Profile image URL" hint={imageHint} error={fieldErrors.profileImageUrl}>
          <Input
            id="profileImageUrl"
            name="profileImageUrl"
            type="url"
            inputMode="url"
            spellCheck={false}
            autoCapitalize="none"
            placeholder="https://…"
            value={values.profileImageUrl}
            onChange={(e) => setField('profileImageUrl', e.target.value)}
            aria-invalid={!!fieldErrors.profileImageUrl}
            aria-describedby={describedBy('profileImageUrl', { error: fieldErrors.profileImageUrl, hint: imageHint })}
          />
        </Field>
        {/* The same upload (and built-in avatars) as onboarding's profile step. */}
        <AvatarPicker
          preview={false}
          value={values.profileImageUrl}
          name={values.displayName || values.username || user.username}
          onChange={(url) => setField('profileImageUrl', url)}
        />
      </Card>

      {update.isSuccess && (
        <Notice tone="success">
          Profile saved.{' '}
          <Link href="/profile" className="font-medium underline underline-offset-2">
            View your profile
          </Link>
        </Notice>
      )}
      {update.isError && (
        <Notice tone="error">
          {hasFieldErrors ? 'Some fields need attention.' : describeError(update.error)}
        </Notice>
      )}

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <LinkButton href="/profile" variant="ghost">
          Cancel
        </LinkButton>
        <Button type="submit" isLoading={update.isPending} disabled={isUsernameBlocked}>
          Save profile
        </Button>
      </div>
    </form>
  );
};

const EditProfileSkeleton = () => (
  <div className="flex flex-col gap-6 rounded-2xl border border-line bg-surface p-6" role="status" aria-label="Loading your profile">
    <div className="flex items-center gap-4">
      <Skeleton className="size-16 rounded-full" />
      <div className="flex flex-col gap-2">
        <Skeleton className="h-4 w-32" />
        <Skeleton className="h-3 w-20" />
      </div>
    </div>
    {[0, 1, 2, 3].map((i) => (
      <div key={i} className="flex flex-col gap-2">
        <Skeleton className="h-4 w-28" />
        <Skeleton className={i === 2 ? 'h-24' : 'h-10'} />
      </div>
    ))}
  </div>
);

export const EditProfile = () => {
  const session = useSession();
  if (session.isPending) return <EditProfileSkeleton />;
  if (session.isSignedOut) return <SignInPrompt description="Sign in to edit your name, bio and avatar." />;
  if (!session.user) {
    return <ErrorState message={describeError(session.failure)} onRetry={() => session.refetch()} isRetrying={session.isFetching} />;
  }
  // Keyed by id: a different account gets a fresh form.
  return <EditProfileFormBody key={session.user.id} user={session.user} />;
};
