'use client';

import Link from 'next/link';
import { useState } from 'react';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { CodeIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { useApiKeys, type TCreatedApiKey } from '@/lib/client/queries/api-keys';
import { describeError } from '@/lib/client/queries/errors';
import { useSession } from '@/lib/client/queries/users';
import { CreateKeyForm } from './create-key-form';
import { KeyList } from './key-list';
import { SecretReveal } from './secret-reveal';

const ListSkeleton = ({ label }: { label: string }) => (
  <div role="status" aria-label={label} className="flex flex-col gap-3">
    {[0, 1].map((i) => (
      <Skeleton key={i} className="h-36 w-full rounded-2xl" />
    ))}
  </div>
);

/**
 * Settings → API keys: the one-time reveal of a key just created, the create form and the
 * signed-in player's keys (loading, empty, error and signed-out states). The secret lives only in
 * this component's state: leaving the page or dismissing it forgets it.
 */
export const ApiKeysSettings = () => {
  const session = useSession();
  if (session.isPending) return <ListSkeleton label="Loading your API keys" />;
  if (session.isSignedOut) return <SignInPrompt description="Sign in to create and manage API keys for your bots." />;
  if (!session.user) return <ErrorState message={describeError(session.failure)} onRetry={() => session.refetch()} isRetrying={session.isFetching} />;
  return <ApiKeysPanel userId={session.user.id} />;
};

const ApiKeysPanel = ({ userId }: { userId: string }) => {
  const keys = useApiKeys(userId);
  const [created, setCreated] = useState<TCreatedApiKey | null>(null);

  return (
    <div className="flex flex-col gap-6">
      {created && <SecretReveal created={created} onDismiss={() => setCreated(null)} />}
      <CreateKeyForm userId={userId} onCreated={setCreated} />
      <section aria-labelledby="api-keys-list-title" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="api-keys-list-title" className="text-base font-semibold tracking-tight text-ink">
            Your keys
          </h2>
          <Link href="/developers#api-keys" className="text-sm text-accent hover:underline">
            How to use a key →
          </Link>
        </div>
        {keys.isPending ? (
          <ListSkeleton label="Loading your API keys" />
        ) : keys.isError ? (
          <ErrorState title="Your keys did not load" message={describeError(keys.error)} onRetry={() => keys.refetch()} isRetrying={keys.isFetching} />
        ) : keys.data.length === 0 ? (
          <EmptyState
            headingLevel={3}
            icon={<CodeIcon />}
            title="No keys yet"
            description="Create a key above to let a bot or an AI agent trade for you over REST, A2A or MCP, within the scopes and caps you choose."
          />
        ) : (
          <KeyList userId={userId} keys={keys.data} />
        )}
      </section>
    </div>
  );
};
