'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { Notice } from '@/components/ui/error-state';
import { Field, describedBy } from '@/components/ui/field';
import { LogoMark } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { describeError, hasErrorCode } from '@/lib/client/queries/errors';
import { useDevSignIn, useSignedInDestination, useTokenSignIn } from '@/lib/client/queries/users';
import { isValidUsername } from '@/lib/users/names';

const DevSignInForm = ({ onSignedIn }: { onSignedIn: () => void }) => {
  const [username, setUsername] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const signIn = useDevSignIn();
  const shapeError = isTouched && !isValidUsername(username.trim()) ? 'Use 3 to 20 letters, digits or underscores.' : undefined;
  const serverError = signIn.error
    ? hasErrorCode(signIn.error, 'NOT_FOUND')
      ? 'Development sign-in is switched off on this server.'
      : describeError(signIn.error)
    : undefined;
  const error = shapeError ?? serverError;
  const hint = 'The same username always signs you in as the same player.';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setIsTouched(true);
    if (!isValidUsername(username.trim())) return;
    signIn.mutate(username.trim(), { onSuccess: onSignedIn });
  };

  return (
    <Card aria-labelledby="dev-sign-in-title">
      <div className="flex items-center gap-2">
        <CardTitle id="dev-sign-in-title">Development sign-in</CardTitle>
        <span className="rounded-full border border-warn/30 bg-warn-soft px-2 py-0.5 text-xs font-medium text-warn">Dev only</span>
      </div>
      <CardDescription>Pick any username to play as. This option is not available in production.</CardDescription>
      <form className="mt-5 flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <Field id="dev-username" label="Username" hint={hint} error={error}>
          <Input
            id="dev-username"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="e.g. alice_42"
            maxLength={20}
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            onBlur={() => username && setIsTouched(true)}
            aria-invalid={!!error}
            aria-describedby={describedBy('dev-username', { error, hint })}
          />
        </Field>
        <Button type="submit" isLoading={signIn.isPending}>
          Sign in as developer
        </Button>
      </form>
    </Card>
  );
};

const TokenSignInForm = ({ onSignedIn }: { onSignedIn: () => void }) => {
  const [token, setToken] = useState('');
  const [isEmptySubmit, setIsEmptySubmit] = useState(false);
  const signIn = useTokenSignIn();
  const error = isEmptySubmit
    ? 'Paste an access token first.'
    : signIn.error
      ? hasErrorCode(signIn.error, 'UNAUTHORIZED')
        ? 'That token is invalid or has expired. Get a fresh one from your identity provider.'
        : describeError(signIn.error)
      : undefined;
  const hint = 'A JWT issued by your identity provider. It is kept in a secure, HTTP-only cookie.';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const value = token.trim();
    setIsEmptySubmit(!value);
    if (!value) return;
    signIn.mutate(value, { onSuccess: onSignedIn });
  };

  return (
    <Card aria-labelledby="token-sign-in-title">
      <CardTitle id="token-sign-in-title">Sign in with an access token</CardTitle>
      <CardDescription>Use the token from your identity provider to open a session in this browser.</CardDescription>
      <form className="mt-5 flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <Field id="access-token" label="Access token" hint={hint} error={error}>
          <Textarea
            id="access-token"
            name="token"
            rows={4}
            spellCheck={false}
            autoCapitalize="none"
            autoComplete="off"
            placeholder="eyJhbGciOi…"
            className="font-mono text-xs break-all"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            aria-invalid={!!error}
            aria-describedby={describedBy('access-token', { error, hint })}
          />
        </Field>
        <Button type="submit" variant="secondary" isLoading={signIn.isPending}>
          Sign in with token
        </Button>
      </form>
    </Card>
  );
};

export const SignInForms = ({ isDevSignInEnabled }: { isDevSignInEnabled: boolean }) => {
  const router = useRouter();
  const destination = useSignedInDestination();
  // A new player (profile not complete) goes through the onboarding wizard first.
  const onSignedIn = () => void destination('/profile').then((href) => router.push(href));
  return (
    <div className="mx-auto flex max-w-lg flex-col gap-6">
      <div className="flex flex-col items-center text-center">
        <LogoMark className="size-12" />
        <h1 className="mt-4 text-2xl font-semibold tracking-tight sm:text-3xl">Sign in to Playmoney</h1>
        <p className="mt-2 text-sm text-ink-muted sm:text-base">New players start with a balance of virtual currency. Nothing here is real money.</p>
      </div>
      {isDevSignInEnabled && <DevSignInForm onSignedIn={onSignedIn} />}
      <TokenSignInForm onSignedIn={onSignedIn} />
      {!isDevSignInEnabled && (
        <Notice tone="info">Don&apos;t have a token? Ask the operator of this server which identity provider it trusts.</Notice>
      )}
    </div>
  );
};
