'use client';

import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { cn } from '@/components/ui/cn';
import { ErrorState } from '@/components/ui/error-state';
import { CheckIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { useOnboard } from '@/lib/client/queries/onboarding';
import { useSession } from '@/lib/client/queries/users';
import { OnchainStep } from './onchain-step';
import { PointsEarned } from './points-earned';
import { ProfileStep } from './profile-step';

const STEPS = ['Your profile', 'On-chain identity'] as const;

const StepList = ({ current }: { current: 0 | 1 }) => (
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
 * follows the on-chain registration it started. A player whose profile is complete sees step 2.
 */
export const OnboardingWizard = () => {
  const session = useSession();
  // Owned here, not by the profile step: its success completes the profile and unmounts that step.
  const onboard = useOnboard();
  const result = onboard.data;

  if (session.isPending) return <WizardSkeleton />;
  if (session.isSignedOut) return <SignInPrompt description="Sign in to set up your player profile." />;
  if (!session.user) {
    return <ErrorState message={describeError(session.failure)} onRetry={() => session.refetch()} isRetrying={session.isFetching} />;
  }
  const user = session.user;
  const step = user.profileComplete || result ? 1 : 0;

  return (
    <div className="flex flex-col gap-6">
      <StepList current={step} />
      {step === 0 ? (
        <ProfileStep key={user.id} user={user} onboard={onboard} />
      ) : (
        <>
          {result && <PointsEarned userId={user.id} awarded={result.pointsAwarded} />}
          <OnchainStep />
        </>
      )}
    </div>
  );
};
