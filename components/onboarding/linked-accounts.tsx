'use client';

import { useState, type FormEvent } from 'react';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { ErrorState, Notice } from '@/components/ui/error-state';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import type { TUser } from '@/lib/contracts/users';
import { describeError, getFieldErrors } from '@/lib/client/queries/errors';
import { ONBOARDING_ERROR_MESSAGES, useLinkSocial, useUpdateVisibility, type TSocialPlatform, type TVisibility } from '@/lib/client/queries/onboarding';
import { useSession } from '@/lib/client/queries/users';

const PLATFORMS: readonly { platform: TSocialPlatform; label: string }[] = [
  { platform: 'social_a', label: 'social_a' },
  { platform: 'social_b', label: 'social_b' },
];

const LinkSocialForm = ({ user, platform, label }: { user: TUser; platform: TSocialPlatform; label: string }) => {
  const link = useLinkSocial();
  const [username, setUsername] = useState('');
  const [token, setToken] = useState('');
  const [missing, setMissing] = useState<{ username?: boolean; token?: boolean }>({});
  const isLinked = platform === 'social_a' ? user.hasSocialA : user.hasSocialB;
  const handle = platform === 'social_a' ? user.socialAUsername : user.socialBUsername;
  const server = link.isError ? getFieldErrors(link.error) : {};
  const usernameError = missing.username ? `Enter your ${label} username.` : server.username;
  const tokenError = missing.token ? 'Paste an access token.' : server.accessToken;
  const id = `link-${platform}`;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const next = { username: !username.trim(), token: !token.trim() };
    setMissing(next);
    if (next.username || next.token) return;
    link.mutate({ userId: user.id, platform, username, accessToken: token.trim() }, { onSuccess: () => setToken('') });
  };

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 border-t border-line pt-5 first:border-t-0 first:pt-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${id}-title`} className="text-sm font-semibold text-ink">
          {label}
        </h3>
        {isLinked ? <Badge tone="up">Linked{handle ? ` as @${handle}` : ''}</Badge> : <Badge>Not linked</Badge>}
      </div>
      {link.isSuccess && (
        <Notice tone="success">
          Linked @{link.data.username}.{link.data.pointsAwarded > 0 ? ` You earned ${link.data.pointsAwarded} points.` : ''}
        </Notice>
      )}
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label={`Link ${label}`}>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id={`${id}-username`} label={`${label} username`} error={usernameError}>
            <Input
              id={`${id}-username`}
              autoCapitalize="none"
              autoComplete="off"
              spellCheck={false}
              maxLength={100}
              value={username}
              onChange={(e) => {
                setUsername(e.target.value);
                setMissing((m) => ({ ...m, username: false }));
              }}
              aria-invalid={!!usernameError}
              aria-describedby={describedBy(`${id}-username`, { error: usernameError })}
            />
          </Field>
          <Field id={`${id}-token`} label="Access token" error={tokenError}>
            <Input
              id={`${id}-token`}
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={token}
              onChange={(e) => {
                setToken(e.target.value);
                setMissing((m) => ({ ...m, token: false }));
              }}
              aria-invalid={!!tokenError}
              aria-describedby={describedBy(`${id}-token`, { error: tokenError })}
            />
          </Field>
        </div>
        {link.isError && !usernameError && !tokenError && <Notice tone="error">{describeError(link.error, ONBOARDING_ERROR_MESSAGES)}</Notice>}
        <Button type="submit" variant="secondary" size="sm" className="self-start" isLoading={link.isPending}>
          {isLinked ? `Re-link ${label}` : `Link ${label}`}
        </Button>
      </form>
    </section>
  );
};

const TOGGLES: readonly { key: keyof TVisibility; label: string; hint: string }[] = [
  { key: 'showSocialAPublic', label: 'Show my social_a handle', hint: 'On your public profile, when linked.' },
  { key: 'showSocialBPublic', label: 'Show my social_b handle', hint: 'On your public profile, when linked.' },
  { key: 'showWalletPublic', label: 'Show my wallet address', hint: 'On your public profile, when connected.' },
];

const VisibilityToggles = ({ user }: { user: TUser }) => {
  const update = useUpdateVisibility();
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="text-sm font-semibold text-ink">Public profile</legend>
      {TOGGLES.map((t) => {
        const checked = user[t.key] ?? false;
        const id = `visibility-${t.key}`;
        const isSaving = update.isPending && update.variables?.[t.key] !== undefined;
        return (
          <div key={t.key} className="flex items-start justify-between gap-4">
            <div>
              <label htmlFor={id} className="text-sm text-ink">
                {t.label}
              </label>
              <p id={`${id}-hint`} className="text-xs text-ink-muted">
                {t.hint}
              </p>
            </div>
            <span className="inline-flex items-center gap-2">
              <span className="text-xs text-ink-muted" aria-hidden="true">
                {isSaving ? 'Saving…' : checked ? 'On' : 'Off'}
              </span>
              <input
                id={id}
                type="checkbox"
                role="switch"
                className="size-5 accent-[var(--color-accent)]"
                checked={checked}
                disabled={update.isPending}
                aria-describedby={`${id}-hint`}
                onChange={(e) => update.mutate({ userId: user.id, [t.key]: e.target.checked })}
              />
            </span>
          </div>
        );
      })}
      {update.isError && <Notice tone="error">{describeError(update.error)}</Notice>}
    </fieldset>
  );
};

/** Settings: link social accounts (each pays its milestone once) and choose what the public profile shows. */
export const LinkedAccounts = () => {
  const session = useSession();
  if (session.isPending) {
    return (
      <Card role="status" aria-label="Loading linked accounts" className="flex flex-col gap-3">
        <Skeleton className="h-5 w-40" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </Card>
    );
  }
  if (session.isSignedOut) return <SignInPrompt description="Sign in to link accounts and choose what your profile shows." />;
  if (!session.user) return <ErrorState message={describeError(session.failure)} onRetry={() => session.refetch()} isRetrying={session.isFetching} />;
  const user = session.user;
  return (
    <Card aria-labelledby="linked-accounts-title" className="flex flex-col gap-6">
      <div>
        <CardTitle id="linked-accounts-title">Linked accounts</CardTitle>
        <CardDescription>Link your social accounts for milestone points. Outside production any access token is accepted.</CardDescription>
      </div>
      <div className="flex flex-col gap-5">
        {PLATFORMS.map((p) => (
          <LinkSocialForm key={p.platform} user={user} platform={p.platform} label={p.label} />
        ))}
      </div>
      <div className="border-t border-line pt-5">
        <VisibilityToggles user={user} />
      </div>
    </Card>
  );
};
