'use client';

import { useState, type FormEvent } from 'react';
import { Button, LinkButton } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { ErrorState, Notice } from '@/components/ui/error-state';
import { Field, describedBy } from '@/components/ui/field';
import { formatCount } from '@/components/ui/format';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { ConnectWallet } from '@/components/wallets/connect-wallet';
import { describeError } from '@/lib/client/queries/errors';
import { BONUS_ERROR_MESSAGES, useRequestEmailBonus, useVerifyEmailBonus } from '@/lib/client/queries/points';
import { useWaitlistPosition } from '@/lib/client/queries/waitlist';

/** The code step: the address was sent a code; presenting it pays the bonus. */
const EmailCodeForm = ({ email, onRestart }: { email: string; onRestart: () => void }) => {
  const [code, setCode] = useState('');
  const [isEmpty, setIsEmpty] = useState(false);
  const verify = useVerifyEmailBonus();
  const error = isEmpty ? 'Enter the code from the email.' : verify.isError ? describeError(verify.error, BONUS_ERROR_MESSAGES) : undefined;
  const hint =
    process.env.NODE_ENV === 'production'
      ? `We sent a code to ${email}. It is valid for 24 hours.`
      : `We sent a code to ${email}. In development it is written to the server log.`;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const value = code.trim();
    setIsEmpty(!value);
    if (!value) return;
    verify.mutate(value);
  };

  if (verify.isSuccess) {
    return (
      <Notice tone="success">
        {verify.data.bonusAwarded > 0 ? `Confirmed ${verify.data.email}: +${verify.data.bonusAwarded} points.` : `Confirmed ${verify.data.email}.`}
      </Notice>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2" aria-label="Confirm your email">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <div className="flex-1">
          <Field id="waitlist-email-code" label="Verification code" hint={hint} error={error}>
            <Input
              id="waitlist-email-code"
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              value={code}
              onChange={(e) => {
                setCode(e.target.value);
                setIsEmpty(false);
                if (!verify.isIdle) verify.reset();
              }}
              aria-invalid={!!error}
              aria-describedby={describedBy('waitlist-email-code', { error, hint })}
            />
          </Field>
        </div>
        <Button type="submit" variant="secondary" className="sm:mt-7" isLoading={verify.isPending}>
          Confirm
        </Button>
      </div>
      <Button variant="ghost" size="sm" className="self-start" onClick={onRestart} disabled={verify.isPending}>
        Use another address or send a new code
      </Button>
    </form>
  );
};

const EmailBonusForm = () => {
  const [email, setEmail] = useState('');
  const [isEmpty, setIsEmpty] = useState(false);
  const request = useRequestEmailBonus();
  const error = isEmpty ? 'Enter an email address.' : request.isError ? describeError(request.error, BONUS_ERROR_MESSAGES) : undefined;
  const hint = 'Add an email for a one-time bonus: we send it a code to confirm it is yours. We only use it for launch news.';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const value = email.trim();
    setIsEmpty(!value);
    if (!value) return;
    request.mutate(value);
  };

  if (request.isSuccess) return <EmailCodeForm email={request.data.email} onRestart={() => request.reset()} />;
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-start" aria-label="Email bonus">
      <div className="flex-1">
        <Field id="waitlist-email" label="Email bonus" hint={hint} error={error}>
          <Input
            id="waitlist-email"
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder="you@example.com"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setIsEmpty(false);
              if (!request.isIdle) request.reset();
            }}
            aria-invalid={!!error}
            aria-describedby={describedBy('waitlist-email', { error, hint })}
          />
        </Field>
      </div>
      <Button type="submit" variant="secondary" className="sm:mt-7" isLoading={request.isPending}>
        Send code
      </Button>
    </form>
  );
};

const Stat = ({ label, value }: { label: string; value: string }) => (
  <div className="flex flex-col-reverse gap-0.5">
    <dt className="text-xs text-ink-muted">{label}</dt>
    <dd className="text-lg font-semibold text-ink tabular-nums">{value}</dd>
  </div>
);

/** The signed-in player's place on the waitlist, a nudge to invite players and the bonuses (email and wallet, each with proof). */
export const WaitlistCard = ({ showEmailBonus = true }: { showEmailBonus?: boolean }) => {
  const position = useWaitlistPosition();

  if (position.isPending) {
    return (
      <Card role="status" aria-label="Loading your waitlist position" className="flex flex-col gap-3">
        <Skeleton className="h-5 w-40" />
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-12" />
          ))}
        </div>
      </Card>
    );
  }
  if (position.isError) {
    return <ErrorState title="Your waitlist position could not be loaded" message={describeError(position.error)} onRetry={() => position.refetch()} isRetrying={position.isFetching} />;
  }

  const p = position.data;
  const isRanked = p.onWaitlist && p.rank !== null;
  return (
    <Card aria-labelledby="waitlist-title" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle id="waitlist-title">Waitlist</CardTitle>
          <CardDescription>
            {isRanked
              ? `You are #${formatCount(p.rank!)} of ${formatCount(p.totalPlayers)} players. More points move you up.`
              : 'You are not on the waitlist.'}
          </CardDescription>
        </div>
        <LinkButton href="/referrals" size="sm">
          Invite players
        </LinkButton>
      </div>
      {isRanked && (
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4" data-testid="waitlist-stats">
          <Stat label="Rank" value={`#${formatCount(p.rank!)}`} />
          <Stat label="Points" value={formatCount(p.points)} />
          <Stat label="Players ahead" value={formatCount(p.ahead)} />
          <Stat label="Referrals" value={formatCount(p.referralCount)} />
        </dl>
      )}
      {showEmailBonus && (
        <div className="flex flex-col gap-5 border-t border-line pt-5">
          <EmailBonusForm />
          <ConnectWallet heading="Wallet bonus" />
        </div>
      )}
    </Card>
  );
};
