'use client';

import { useSyncExternalStore, type ReactNode } from 'react';
import { LinkButton } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { AGENT_PATHS, heartbeatPath } from '@/lib/system/llms-txt';
import { AGENT_SNIPPETS } from './agent-snippets';
import { CodeBlock } from './code-block';

const noSubscription = () => () => {};
/** This site's origin in the browser; on the server (and while hydrating) a placeholder, replaced at once. */
const useOrigin = () =>
  useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => 'https://<this site>',
  );

const Code = ({ children }: { children: ReactNode }) => <code className="font-mono text-ink">{children}</code>;

const RULES: { title: string; body: ReactNode }[] = [
  {
    title: 'Scopes',
    body: (
      <>
        <Code>read</Code> covers every read, <Code>trade</Code> every call that moves money, <Code>social</Code> posts, comments, reactions, follows, chats and
        reports. A call outside them is 403 <Code>INSUFFICIENT_SCOPE</Code>. A key never creates keys, moderates or edits your profile.
      </>
    ),
  },
  {
    title: 'Caps',
    body: (
      <>
        A per-order amount, a daily limit (per UTC day, resting orders included) and a max leverage. A call past one is 403 <Code>KEY_LIMIT_EXCEEDED</Code>{' '}
        with the limit in <Code>details</Code>, and nothing is written.
      </>
    ),
  },
  {
    title: 'Dry runs',
    body: (
      <>
        <Code>&quot;dryRun&quot;: true</Code> on an order, a buy or sell, a perp open or close, or a pool deposit or withdrawal answers what would happen now
        and changes nothing.
      </>
    ),
  },
  {
    title: 'Idempotency',
    body: (
      <>
        Send <Code>Idempotency-Key</Code> on every money POST and reuse it on retries: a repeat within 24 hours returns the first answer (
        <Code>Idempotent-Replayed: true</Code>) and moves nothing.
      </>
    ),
  },
  {
    title: 'Heartbeat (dead-man switch)',
    body: (
      <>
        A bot with resting orders sends <Code>POST {heartbeatPath()}</Code> with <Code>{'{"timeoutSeconds": 60}'}</Code> (5 to 600), with the key itself (trade
        scope), well before each deadline. If none arrives in time, every open order placed with the key is cancelled.
      </>
    ),
  },
  {
    title: 'Revoke at any time',
    body: <>Revoking a key in settings refuses its next call (401). Give each bot its own key, so revoking one leaves the others running.</>,
  },
];

/**
 * Developers → "API keys and MCP": how a player gets a key (in settings), the safety contract a
 * key is held to, and copyable examples (curl, the MCP and A2A SDKs, MCP client configs) on this
 * site's own origin and the page's example market (`marketId`, the placeholder until one is
 * picked), plus the machine-readable entry points (/llms.txt, OpenAPI, MCP).
 */
export const ApiKeysGuide = ({ marketId = '' }: { marketId?: string }) => {
  const origin = useOrigin();
  return (
    <Card aria-labelledby="api-keys-guide-title" id="api-keys" className="flex scroll-mt-6 flex-col gap-6">
      <div>
        <CardTitle id="api-keys-guide-title">API keys and MCP</CardTitle>
        <CardDescription>
          A bot or an AI agent plays as you with an API key: <Code>Authorization: Bearer pm_…</Code> on REST, on A2A (<Code>{AGENT_PATHS.a2a}</Code>) and on
          the Model Context Protocol endpoint (<Code>{AGENT_PATHS.mcp}</Code>, Streamable HTTP), whose tools are the methods listed below.
        </CardDescription>
      </div>

      <section aria-labelledby="api-keys-create-title" className="flex flex-col gap-3">
        <h3 id="api-keys-create-title" className="text-sm font-semibold text-ink">
          1. Create a key
        </h3>
        <p className="text-sm text-ink-muted">
          In Settings → API keys, name the key, pick its scopes and caps, and copy the secret (<Code>pm_…</Code>): it is shown only once. Keep it in your
          bot&apos;s environment, never in code.
        </p>
        <div>
          <LinkButton href={AGENT_PATHS.apiKeysSettings} variant="secondary">
            Create an API key
          </LinkButton>
        </div>
      </section>

      <section aria-labelledby="api-keys-rules-title" className="flex flex-col gap-3">
        <h3 id="api-keys-rules-title" className="text-sm font-semibold text-ink">
          2. What a key is held to
        </h3>
        <dl className="grid gap-3 md:grid-cols-2">
          {RULES.map((r) => (
            <div key={r.title} className="rounded-xl border border-line bg-elevated/60 px-4 py-3 text-sm">
              <dt className="font-medium text-ink">{r.title}</dt>
              <dd className="mt-1 text-ink-muted">{r.body}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="api-keys-examples-title" className="flex flex-col gap-4">
        <h3 id="api-keys-examples-title" className="text-sm font-semibold text-ink">
          3. Call it
        </h3>
        {AGENT_SNIPPETS.map((s) => {
          const code = s.code(origin, marketId || undefined);
          return (
            <section key={s.id} aria-labelledby={`snippet-${s.id}-title`} className="flex min-w-0 flex-col gap-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h4 id={`snippet-${s.id}-title`} className="text-sm font-medium text-ink">
                  {s.title}
                </h4>
                <CopyButton text={code} label={`Copy the ${s.title} example`} />
              </div>
              <p className="text-xs text-ink-muted">{s.description}</p>
              <CodeBlock>{code}</CodeBlock>
            </section>
          );
        })}
      </section>

      <p className="text-sm text-ink-muted">
        For models and crawlers of agents:{' '}
        <a href={AGENT_PATHS.llmsTxt} className="font-medium text-accent hover:underline">
          /llms.txt
        </a>{' '}
        describes the service, and{' '}
        <a href={AGENT_PATHS.openApi} className="font-medium text-accent hover:underline">
          the OpenAPI document
        </a>{' '}
        lists every route.
      </p>
    </Card>
  );
};
