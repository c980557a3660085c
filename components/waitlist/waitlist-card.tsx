'use client';

import { useState, type FormEvent } from 'react';
import { Button, LinkButton } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { ErrorState, Notice } from '@/components/ui/error-state';
import { Field, describedBy } from '@/components/ui/field';
import { formatCount } from '@/components/ui/format';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { BONUS_ERROR_MESSAGES, useClaimEmailBonus } from '@/lib/client/queries/points';
import { useWaitlistPosition } from '@/lib/client/queries/waitlist';

const EmailBonusForm = () => {
  const [email, setEmail] = useState('');
  const [isEmpty, setIsEmpty] = useState(false);
  const claim = useClaimEmailBonus();
  const error = isEmpty ? 'Enter an email address.' : claim.isError ? describeError(claim.error, BONUS_ERROR_MESSAGES) : undefined;
  const hint = 'Add an email for a one-time bonus. We only use it for launch news.';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const value = email.trim();
    setIsEmpty(!value);
    if (!value) return;
    claim.mutate(value, { onSuccess: () => setEmail('') });
  };

  if (claim.isSuccess) {
    return (
      <Notice tone="success">
        {claim.data.bonusAwarded > 0 ? `Added ${claim.data.email}: +${claim.data.bonusAwarded} points.` : `Added ${claim.data.email}.`}
      </Notice>
    );
  }
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
              if (!claim.isIdle) claim.reset();
            }}
            aria-invalid={!!error}
            aria-describedby={describedBy('waitlist-email', { error, hint })}
          />
        </Field>
      </div>
      <Button type="submit" variant="secondary" className="sm:mt-7" isLoading={claim.isPending}>
        Claim bonus
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

/** The signed-in player's place on the waitlist, a nudge to invite players and the email bonus. */
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
      {showEmailBonus && <EmailBonusForm />}
    </Card>
  );
};
