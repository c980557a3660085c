'use client';

import { Badge } from '@/components/ui/badge';
import { Button, LinkButton, Spinner } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { ErrorState, Notice } from '@/components/ui/error-state';
import { AlertIcon, CheckIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/client/queries/errors';
import { useOnchainStatus, useStartOnchain, type TOnboardingIntent } from '@/lib/client/queries/identity';

type TStage = 'done' | 'current' | 'todo' | 'failed';

const STAGE_WORDS: Record<TStage, string> = { done: 'done', current: 'in progress', todo: 'to do', failed: 'failed' };

const Stage = ({ stage, children }: { stage: TStage; children: string }) => (
  <li className="flex items-center gap-3 text-sm">
    <span
      aria-hidden="true"
      className={cn(
        'flex size-6 shrink-0 items-center justify-center rounded-full border',
        stage === 'done' && 'border-up/40 bg-up-soft text-up',
        stage === 'current' && 'border-accent/40 bg-accent-soft text-accent',
        stage === 'todo' && 'border-line-strong text-ink-faint',
        stage === 'failed' && 'border-down/40 bg-down-soft text-down',
      )}
    >
      {stage === 'done' ? <CheckIcon className="size-3.5" /> : stage === 'current' ? <Spinner className="size-3.5" /> : stage === 'failed' ? <AlertIcon className="size-3.5" /> : null}
    </span>
    <span className={stage === 'todo' ? 'text-ink-muted' : 'text-ink'}>
      {children}
      <span className="sr-only"> ({STAGE_WORDS[stage]})</span>
    </span>
  </li>
);

const Progress = ({ intent }: { intent: TOnboardingIntent }) => {
  const confirm: TStage = intent.status === 'COMPLETED' ? 'done' : intent.status === 'FAILED' ? 'failed' : 'current';
  return (
    <ol className="flex flex-col gap-3" aria-label="Registration progress">
      <Stage stage="done">Profile saved</Stage>
      <Stage stage="done">{`Identity token #${intent.nftTokenId} reserved`}</Stage>
      <Stage stage={confirm}>Confirmed on the registry</Stage>
    </ol>
  );
};

const STATUS_BADGE = {
  ONCHAIN_IN_PROGRESS: { tone: 'accent', label: 'Registering' },
  COMPLETED: { tone: 'up', label: 'Registered' },
  FAILED: { tone: 'down', label: 'Failed' },
} as const;

/**
 * Step 2: the on-chain registration. Polls while it is in progress (the game tick confirms it),
 * then shows the success or the failure with a retry; starts it when it was never started.
 */
export const OnchainStep = () => {
  const status = useOnchainStatus();
  const start = useStartOnchain();

  if (status.isPending) {
    return (
      <Card role="status" aria-label="Loading your registration" className="flex flex-col gap-3">
        <Skeleton className="h-5 w-48" />
        <Skeleton className="h-4 w-64" />
        <Skeleton className="h-24 w-full" />
      </Card>
    );
  }
  if (status.isError) {
    return <ErrorState message={describeError(status.error)} onRetry={() => status.refetch()} isRetrying={status.isFetching} />;
  }

  const intent = status.data.onboardingIntent;
  if (!intent) {
    return (
      <Card aria-labelledby="onchain-title" className="flex flex-col gap-4">
        <div>
          <CardTitle id="onchain-title">Register your player identity</CardTitle>
          <CardDescription>
            {status.data.onChainRegistered
              ? 'You are already registered on chain. You’re all set.'
              : 'Your profile is ready. One last step: an identity token on the (simulated) registry.'}
          </CardDescription>
        </div>
        {start.isError && <Notice tone="error">{describeError(start.error)}</Notice>}
        {!status.data.onChainRegistered && (
          <Button className="self-start" onClick={() => start.mutate()} isLoading={start.isPending}>
            Register on chain
          </Button>
        )}
      </Card>
    );
  }

  const badge = STATUS_BADGE[intent.status];
  return (
    <Card aria-labelledby="onchain-title" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle id="onchain-title">
            {intent.status === 'COMPLETED' ? 'You’re registered on chain' : intent.status === 'FAILED' ? 'The registration failed' : 'Registering your identity'}
          </CardTitle>
          <CardDescription>Identity token #{intent.nftTokenId}</CardDescription>
        </div>
        <Badge tone={badge.tone} data-testid="onchain-status">
          {badge.label}
        </Badge>
      </div>
      <Progress intent={intent} />

      <div aria-live="polite">
        {intent.status === 'ONCHAIN_IN_PROGRESS' && (
          <p className="text-sm text-ink-muted">Waiting for the registry to confirm. This usually takes under a minute; you can leave this page.</p>
        )}
        {intent.status === 'COMPLETED' && (
          <div className="flex flex-col gap-4">
            <Notice tone="success">
              Registered. Token #{intent.nftTokenId} is yours.
              {intent.txHash && (
                <>
                  {' '}
                  Transaction <span className="font-mono break-all">{intent.txHash}</span>.
                </>
              )}
            </Notice>
            <div className="flex flex-col gap-2 sm:flex-row">
              <LinkButton href="/points">See your points</LinkButton>
              <LinkButton href="/profile" variant="secondary">
                Go to your profile
              </LinkButton>
            </div>
          </div>
        )}
        {intent.status === 'FAILED' && (
          <div className="flex flex-col gap-3">
            <Notice tone="error">{intent.failureReason ?? 'The registry refused the registration.'}</Notice>
            {start.isError && <Notice tone="error">{describeError(start.error)}</Notice>}
            <Button className="self-start" onClick={() => start.mutate()} isLoading={start.isPending}>
              Retry
            </Button>
          </div>
        )}
      </div>
    </Card>
  );
};
