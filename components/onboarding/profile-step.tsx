'use client';

import { useState, useSyncExternalStore, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { Notice } from '@/components/ui/error-state';
import { Field, describedBy } from '@/components/ui/field';
import { CheckIcon, SparkIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import type { TUser } from '@/lib/contracts/users';
import { describeError } from '@/lib/client/queries/errors';
import {
  buildOnboardBody,
  ONBOARDING_ERROR_MESSAGES,
  onboardFieldErrors,
  readReferralCookie,
  type TOnboardFormValues,
  type useOnboard,
} from '@/lib/client/queries/onboarding';
import { useCheckUsername, useGenerateProfile, type TUsernameStatus } from '@/lib/client/queries/users';
import { AvatarPicker } from '@/components/users/avatar-picker';
import { UsernameField } from '@/components/users/username-field';

const DISPLAY_NAME_MAX = 50;
const BIO_MAX = 500;

const usernameMessage = (status: TUsernameStatus): { hint?: ReactNode; error?: string } => {
  switch (status.state) {
    case 'unchanged':
      return { hint: 'This is the name we picked for you. Keep it or choose your own.' };
    case 'checking':
      return { hint: 'Checking availability…' };
    case 'available':
      return {
        hint: (
          <span className="inline-flex items-center gap-1 font-medium text-up">
            <CheckIcon className="size-4" /> Available.
          </span>
        ),
      };
    case 'error':
      return { hint: 'Could not check availability right now; submitting will still check.' };
    case 'invalid':
    case 'unavailable':
      return { error: status.reason };
  }
};

const noSubscribe = () => () => {};

/**
 * Step 1: the profile (username, display name, bio, image) and an optional referral code. The
 * wizard owns the submit (`onboard`): success completes the profile, which unmounts this step.
 */
export const ProfileStep = ({ user, onboard }: { user: TUser; onboard: ReturnType<typeof useOnboard> }) => {
  const [values, setValues] = useState<Omit<TOnboardFormValues, 'referralCode'>>(() => ({
    username: user.username,
    displayName: user.displayName,
    bio: user.bio ?? '',
    profileImageUrl: user.profileImageUrl ?? '',
  }));
  // The code a referral link left in the cookie, until the player edits the field.
  const cookieCode = useSyncExternalStore(noSubscribe, () => readReferralCookie(), () => '');
  const [typedCode, setTypedCode] = useState<string | null>(null);
  const referralCode = typedCode ?? cookieCode;
  const [isDisplayNameMissing, setIsDisplayNameMissing] = useState(false);

  const suggest = useGenerateProfile();
  const usernameStatus = useCheckUsername(values.username, user.username);

  const setField = (field: keyof typeof values, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (field === 'displayName') setIsDisplayNameMissing(false);
    if (!onboard.isIdle) onboard.reset();
  };

  const onSuggest = () =>
    suggest.mutate(undefined, {
      onSuccess: (s) => {
        setValues({ displayName: s.displayName, username: s.username, bio: s.bio, profileImageUrl: s.profileImageUrl });
        if (!onboard.isIdle) onboard.reset();
      },
    });

  const isUsernameBlocked = usernameStatus.state === 'invalid' || usernameStatus.state === 'unavailable';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!values.displayName.trim()) return setIsDisplayNameMissing(true);
    if (isUsernameBlocked) return;
    onboard.mutate(buildOnboardBody({ ...values, referralCode }));
  };

  const fieldErrors = onboard.isError ? onboardFieldErrors(onboard.error) : {};
  const hasFieldErrors = Object.keys(fieldErrors).length > 0;
  const username = usernameMessage(usernameStatus);
  const usernameError = fieldErrors.username ?? username.error;
  const displayNameError = isDisplayNameMissing ? 'Enter the name other players will see.' : fieldErrors.displayName;
  const referralHint = cookieCode && typedCode === null ? 'Filled in from the invite link you followed.' : 'Optional: the code of the player who invited you.';

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="profile-step-title" className="flex flex-col gap-6">
      <Card className="flex flex-col gap-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <CardTitle id="profile-step-title">Set up your profile</CardTitle>
            <CardDescription>This is how other players see you. You can change it later.</CardDescription>
          </div>
          <Button variant="secondary" size="sm" onClick={onSuggest} isLoading={suggest.isPending}>
            {!suggest.isPending && <SparkIcon className="size-4" />}
            Suggest a profile
          </Button>
        </div>
        {suggest.isError && <Notice tone="error">{describeError(suggest.error)}</Notice>}

        <UsernameField id="onb-username" value={values.username} onChange={(v) => setField('username', v)} hint={username.hint} error={usernameError} />

        <Field id="onb-displayName" label="Display name" error={displayNameError} counter={{ value: values.displayName.length, max: DISPLAY_NAME_MAX }}>
          <Input
            id="onb-displayName"
            name="displayName"
            autoComplete="nickname"
            maxLength={DISPLAY_NAME_MAX}
            value={values.displayName}
            onChange={(e) => setField('displayName', e.target.value)}
            aria-invalid={!!displayNameError}
            aria-describedby={describedBy('onb-displayName', { error: displayNameError, counter: true })}
          />
        </Field>

        <Field id="onb-bio" label="Bio (optional)" error={fieldErrors.bio} counter={{ value: values.bio.length, max: BIO_MAX }}>
          <Textarea
            id="onb-bio"
            name="bio"
            rows={3}
            maxLength={BIO_MAX}
            placeholder="What do you trade, and why should anyone follow you?"
            value={values.bio}
            onChange={(e) => setField('bio', e.target.value)}
            aria-invalid={!!fieldErrors.bio}
            aria-describedby={describedBy('onb-bio', { error: fieldErrors.bio, counter: true })}
          />
        </Field>

        <AvatarPicker value={values.profileImageUrl} name={values.displayName || values.username} onChange={(url) => setField('profileImageUrl', url)} />
        {fieldErrors.profileImageUrl && <Notice tone="error">{fieldErrors.profileImageUrl}</Notice>}

        <Field id="onb-referral" label="Referral code" hint={referralHint} error={fieldErrors.referralCode}>
          <Input
            id="onb-referral"
            name="referralCode"
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
            className="font-mono uppercase"
            value={referralCode}
            onChange={(e) => {
              setTypedCode(e.target.value);
              if (!onboard.isIdle) onboard.reset();
            }}
            aria-invalid={!!fieldErrors.referralCode}
            aria-describedby={describedBy('onb-referral', { error: fieldErrors.referralCode, hint: referralHint })}
          />
        </Field>
      </Card>

      {onboard.isError && (
        <Notice tone="error">{hasFieldErrors ? 'Some fields need attention.' : describeError(onboard.error, ONBOARDING_ERROR_MESSAGES)}</Notice>
      )}

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-ink-faint">Next: we register your player identity on chain. It takes about a minute.</p>
        <Button type="submit" isLoading={onboard.isPending} disabled={isUsernameBlocked}>
          Continue
        </Button>
      </div>
    </form>
  );
};
