'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { LeagueHistory } from '@/components/leagues/league-history';
import { SafetyLinks } from '@/components/moderation/safety-links';
import { ReputationCard } from '@/components/reputation/reputation-card';
import { Button, LinkButton } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { ErrorState, Notice } from '@/components/ui/error-state';
import { formatMoney } from '@/components/ui/format';
import { WaitlistCard } from '@/components/waitlist/waitlist-card';
import { describeError } from '@/lib/client/queries/errors';
import { useSession, useSignOut } from '@/lib/client/queries/users';
import { profileHref } from '@/lib/users/links';
import { ProfileActivity } from './profile-activity';
import { TrackRecord } from './track-record';
import { ProfileCard, ProfileSkeleton, StatsGrid } from './profile-card';

export const OwnProfile = () => {
  const router = useRouter();
  const session = useSession();
  const signOut = useSignOut();

  if (session.isPending) return <ProfileSkeleton />;
  if (session.isSignedOut) {
    return <SignInPrompt headingLevel={1} title="Your profile lives here" description="Sign in to see your balance, stats and how other players see you." />;
  }
  if (!session.user) {
    return <ErrorState message={describeError(session.failure)} onRetry={() => session.refetch()} isRetrying={session.isFetching} />;
  }

  const user = session.user;
  return (
    <div className="flex flex-col gap-6">
      {!user.profileComplete && (
        <Notice tone="info">
          Your profile is not set up yet. <Link href="/onboarding" className="font-medium text-accent underline underline-offset-2">Pick a name and avatar</Link> so other players recognise you.
        </Notice>
      )}
      <ProfileCard
        user={user}
        actions={
          <>
            <LinkButton href="/profile/edit" variant="secondary" size="sm">
              Edit profile
            </LinkButton>
            <Button
              variant="ghost"
              size="sm"
              isLoading={signOut.isPending}
              onClick={() => signOut.mutate(undefined, { onSuccess: () => router.push('/') })}
            >
              Sign out
            </Button>
          </>
        }
        aside={
          <Link
            href="/wallet"
            className="flex shrink-0 flex-col rounded-xl border border-line bg-elevated px-4 py-3 transition-colors hover:border-line-strong sm:min-w-44 sm:text-right"
          >
            <span className="text-xs text-ink-muted">Balance</span>
            <span className="text-xl font-semibold text-ink tabular-nums">{formatMoney(user.virtualBalance)}</span>
            <span className="mt-0.5 text-xs text-accent">Open wallet →</span>
          </Link>
        }
      />
      {signOut.isError && <Notice tone="error">{describeError(signOut.error)}</Notice>}
      <section aria-labelledby="stats-title" className="flex flex-col gap-3">
        <h2 id="stats-title" className="text-sm font-medium text-ink-muted">
          Stats
        </h2>
        <StatsGrid user={user} />
      </section>
      <TrackRecord userId={user.id} />
      <ReputationCard userId={user.id} />
      <LeagueHistory userId={user.id} isOwn />
      <WaitlistCard showEmailBonus={false} />
      <ProfileActivity user={user} />
      <Card aria-labelledby="account-title">
        <CardTitle id="account-title">Account</CardTitle>
        <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-ink-muted">Email</dt>
            <dd className="mt-0.5 break-all text-ink">{user.email ?? 'Not provided'}</dd>
          </div>
          <div>
            <dt className="text-ink-muted">Referral code</dt>
            <dd className="mt-0.5 font-mono text-ink">{user.referralCode ?? '—'}</dd>
          </div>
          <div>
            <dt className="text-ink-muted">Public profile</dt>
            <dd className="mt-0.5">
              <Link href={profileHref(user)} className="text-accent underline-offset-2 hover:underline">
                /u/{user.username}
              </Link>
            </dd>
          </div>
          <div>
            <dt className="text-ink-muted">Only you can see</dt>
            <dd className="mt-0.5 text-ink">Your email, referral code and wallet history</dd>
          </div>
        </dl>
      </Card>
      <SafetyLinks />
    </div>
  );
};
