'use client';

import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { cn } from '@/components/ui/cn';
import { ErrorState } from '@/components/ui/error-state';
import { CheckIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { useOnchainStatus } from '@/lib/client/queries/identity';
import { useOnboard } from '@/lib/client/queries/onboarding';
import { useSession } from '@/lib/client/queries/users';
import { OnchainStep } from './onchain-step';
import { PointsEarned } from './points-earned';
import { ProfileStep } from './profile-step';
import { StartTradingStep } from './start-trading-step';

const STEPS = ['Your profile', 'On-chain identity', 'Start trading'] as const;

type TStep = 0 | 1 | 2;

const StepList = ({ current }: { current: TStep }) => (
  <ol className="flex flex-wrap gap-2 text-sm" aria-label="Onboarding steps">
    {STEPS.map((label, i) => {
      const isDone = i < current;
      const isCurrent = i === current;
      return (
        <li
          key={label}
          aria-current={isCurrent ? 'step' : undefined}
          className={cn(
            'inline-flex items-center gap-2 rounded-full border px-3 py-1',
            isCurrent ? 'border-accent/40 bg-accent-soft text-ink' : 'border-line text-ink-muted',
          )}
        >
          <span aria-hidden="true" className="flex size-5 items-center justify-center rounded-full bg-elevated text-xs tabular-nums">
            {isDone ? <CheckIcon className="size-3.5 text-up" /> : i + 1}
          </span>
          <span>
            Step {i + 1}: {label}
            {isDone && <span className="sr-only"> (done)</span>}
          </span>
        </li>
      );
    })}
  </ol>
);

const WizardSkeleton = () => (
  <div role="status" aria-label="Loading" className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-6">
    <Skeleton className="h-5 w-40" />
    {[0, 1, 2].map((i) => (
      <Skeleton key={i} className="h-10 w-full" />
    ))}
  </div>
);

/**
 * The onboarding wizard: step 1 completes the profile (and applies a referral code), step 2
 * follows the on-chain registration it started, step 3 leads into the game (the markets). A player
 * whose profile is complete sees steps 2 and 3 together: trading need not wait for the registry.
 */
export const OnboardingWizard = () => {
  const session = useSession();
  // Owned here, not by the profile step: its success completes the profile and unmounts that step.
  const onboard = useOnboard();
  const result = onboard.data;
  const profileDone = !!session.user?.profileComplete || !!result;
  // The same query the on-chain step polls (one request): a finished registration moves the list to step 3.
  const onchain = useOnchainStatus({ enabled: profileDone });
  const registered = onchain.data?.onChainRegistered === true || onchain.data?.onboardingIntent?.status === 'COMPLETED';

  if (session.isPending) return <WizardSkeleton />;
  if (session.isSignedOut) return <SignInPrompt description="Sign in to set up your player profile." />;
  if (!session.user) {
    return <ErrorState message={describeError(session.failure)} onRetry={() => session.refetch()} isRetrying={session.isFetching} />;
  }
  const user = session.user;
  const step: TStep = !profileDone ? 0 : registered ? 2 : 1;

  return (
    <div className="flex flex-col gap-6">
      <StepList current={step} />
      {step === 0 ? (
        <ProfileStep key={user.id} user={user} onboard={onboard} />
      ) : (
        <>
          {result && <PointsEarned userId={user.id} awarded={result.pointsAwarded} />}
          <OnchainStep />
          <StartTradingStep />
        </>
      )}
    </div>
  );
};
