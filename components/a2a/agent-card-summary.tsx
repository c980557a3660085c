'use client';

import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { useAgentCard } from '@/lib/client/queries/a2a';
import { describeError } from '@/lib/client/queries/errors';

const CARD_PATH = '/.well-known/agent-card.json';

const Fact = ({ label, children }: { label: string; children: ReactNode }) => (
  <div className="flex min-w-0 flex-col gap-0.5">
    <dt className="text-xs text-ink-faint">{label}</dt>
    <dd className="min-w-0 text-sm break-words text-ink">{children}</dd>
  </div>
);

/** Where the agent card is, and what the live card says: the endpoint, the protocol version, the security scheme and the skills. */
export const AgentCardSummary = () => {
  const card = useAgentCard();
  let body;
  if (card.isPending) {
    body = (
      <div role="status" aria-label="Loading the agent card" className="flex flex-col gap-3">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  } else if (card.isError) {
    body = <ErrorState title="The agent card did not load" message={describeError(card.error)} onRetry={() => card.refetch()} isRetrying={card.isFetching} />;
  } else {
    const c = card.data;
    const schemes = Object.entries(c.securitySchemes);
    body = (
      <>
        <dl className="grid gap-3 sm:grid-cols-2">
          <Fact label="JSON-RPC endpoint">
            <span className="font-mono break-all">{c.url}</span>
          </Fact>
          <Fact label="Protocol">
            A2A <span className="font-mono">{c.protocolVersion}</span> · {c.preferredTransport}
          </Fact>
          <Fact label="Security">
            {schemes.map(([name, s]) => (
              <span key={name} className="block">
                {s.scheme} ({s.bearerFormat}): <span className="text-ink-muted">{s.description}</span>
              </span>
            ))}
          </Fact>
          <Fact label="Version">
            <span className="font-mono">{c.version}</span>
          </Fact>
        </dl>
        <section aria-labelledby="a2a-skills-title">
          <h3 id="a2a-skills-title" className="text-sm font-semibold text-ink">
            Skills <span className="font-normal text-ink-faint">({c.skills.length})</span>
          </h3>
          <ul className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {c.skills.map((s) => (
              <li key={s.id} className="rounded-xl border border-line bg-elevated/60 px-3.5 py-2.5">
                <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-ink">
                  {s.name}
                  <Badge>{s.examples.length === 1 ? '1 method' : `${s.examples.length} methods`}</Badge>
                </p>
                <p className="mt-0.5 text-xs text-ink-muted">{s.description}</p>
              </li>
            ))}
          </ul>
        </section>
      </>
    );
  }
  return (
    <Card aria-labelledby="a2a-card-title" id="agent-card" className="flex scroll-mt-6 flex-col gap-4">
      <div>
        <CardTitle id="a2a-card-title">The agent card</CardTitle>
        <CardDescription>
          A2A clients start from{' '}
          <a href={CARD_PATH} target="_blank" rel="noopener" className="font-mono font-medium text-accent hover:underline">
            {CARD_PATH}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
          : it names the endpoint, how to authenticate and one skill per group of methods.
        </CardDescription>
      </div>
      {body}
    </Card>
  );
};
