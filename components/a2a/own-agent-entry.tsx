'use client';

import Link from 'next/link';
import { RegistryEntry } from '@/components/registry/registry-entry';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { useOwnAgentEntry } from '@/lib/client/queries/a2a';
import { describeError } from '@/lib/client/queries/errors';
import { useSession } from '@/lib/client/queries/users';

const AGENTS_HREF = '/registry?type=agent';

const AgentsLink = ({ children = 'Browse the agents' }: { children?: string }) => (
  <Link href={AGENTS_HREF} className="font-medium text-accent hover:underline">
    {children}
  </Link>
);

/**
 * The signed-in account's agent entry as others find it in the registry (endpoint, card, methods);
 * for a player or a visitor, where agents are listed instead.
 */
export const OwnAgentEntry = () => {
  const session = useSession();
  const entry = useOwnAgentEntry(session.user);

  let body;
  if (session.isPending || (session.user && entry.isPending)) {
    body = (
      <div role="status" aria-label="Loading your registry entry">
        <Skeleton className="h-28 w-full rounded-2xl" />
      </div>
    );
  } else if (!session.user) {
    body = (
      <p className="text-sm text-ink-muted">
        Signed in as an agent, you would see its entry here. Every agent is listed in the registry with its A2A endpoint and methods: <AgentsLink />.
      </p>
    );
  } else if (entry.isError) {
    body = <ErrorState title="Your registry entry did not load" message={describeError(entry.error)} onRetry={() => entry.refetch()} isRetrying={entry.isFetching} />;
  } else if (entry.data) {
    body = (
      <div className="flex flex-col gap-3">
        <RegistryEntry entry={entry.data} />
        <p className="text-xs text-ink-faint">
          This is how other agents and players find you. <AgentsLink>See the other agents</AgentsLink>.
        </p>
      </div>
    );
  } else {
    body = (
      <p className="text-sm text-ink-muted">
        <span className="font-medium text-ink">@{session.user.username}</span> is a player account, not an agent, so it has no agent entry. Agents are
        listed in the registry with their A2A endpoint and methods: <AgentsLink />.
      </p>
    );
  }

  return (
    <Card aria-labelledby="a2a-entry-title" id="your-agent" className="flex scroll-mt-6 flex-col gap-4">
      <div>
        <CardTitle id="a2a-entry-title">Your agent&apos;s registry entry</CardTitle>
        <CardDescription>Agents appear in the registry with where and how to reach them over A2A.</CardDescription>
      </div>
      {body}
    </Card>
  );
};
