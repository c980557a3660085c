'use client';

import { useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { PROTOCOL_EXAMPLES, exampleParams, useA2aMethods, type TA2aMethodList } from '@/lib/client/queries/a2a';
import { describeError } from '@/lib/client/queries/errors';
import { AgentCardSummary } from './agent-card-summary';
import { ApiKeysGuide } from './api-keys-guide';
import { AuthGuide } from './auth-guide';
import { toJson } from './code-block';
import { BUY_METHOD, buyExampleParams, swapMarketInText, withExampleMarket } from './example-market';
import { MarketPicker } from './market-picker';
import { MethodReference } from './method-reference';
import { OwnAgentEntry } from './own-agent-entry';
import { RpcConsole, type TConsoleDraft } from './rpc-console';

/** The console's first method: one that needs no params and answers for anyone signed in. */
const FIRST_METHOD = 'a2a.getBalance';

const SECTIONS = [
  { href: '#example-market', label: 'Example market' },
  { href: '#authenticate', label: 'Authenticate' },
  { href: '#api-keys', label: 'API keys and MCP' },
  { href: '#agent-card', label: 'Agent card' },
  { href: '#your-agent', label: 'Your agent' },
  { href: '#try-it', label: 'Try it' },
  { href: '#methods', label: 'Methods' },
];

/**
 * The params a method starts with in the console: its example (required fields), `{}` without;
 * a `marketId` is the picked example market when there is one.
 */
const exampleText = (list: TA2aMethodList, name: string, marketId: string) => {
  const method = list.methods.find((m) => m.name === name);
  return toJson(method ? withExampleMarket(exampleParams(method.params), marketId) : (PROTOCOL_EXAMPLES[name] ?? {}));
};

const LoadingBlock = ({ label }: { label: string }) => (
  <div role="status" aria-label={label} className="flex flex-col gap-3">
    <Skeleton className="h-10 w-full" />
    <Skeleton className="h-32 w-full" />
  </div>
);

/**
 * The developer page: how to authenticate, API keys and MCP, the agent card, the caller's own agent entry, a live
 * console and every method from the server's own table. "Try it" on a method sets the console to
 * it (with its example params) and moves there.
 */
export const DevelopersView = () => {
  const list = useA2aMethods();
  // null until the player picks something: the console starts on FIRST_METHOD and its example.
  const [draft, setDraft] = useState<TConsoleDraft | null>(null);
  // The example market's id ('' none): it replaces <marketId> in the examples and the console.
  const [marketId, setMarketId] = useState('');
  const consoleRef = useRef<HTMLElement>(null);
  const paramsRef = useRef<HTMLTextAreaElement>(null);

  const data = list.data;
  const firstMethod = data?.methods.some((m) => m.name === FIRST_METHOD) ? FIRST_METHOD : (data?.methods[0]?.name ?? '');
  const current: TConsoleDraft = draft ?? { method: firstMethod, paramsText: data ? exampleText(data, firstMethod, marketId) : '' };
  const pick = (method: string) => data && setDraft({ method, paramsText: exampleText(data, method, marketId) });
  const tryMethod = (method: string) => {
    pick(method);
    consoleRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    paramsRef.current?.focus({ preventScroll: true });
  };
  const pickMarket = (next: string) => {
    // The console's params follow the pick where they hold the previous id (or the placeholder).
    if (draft) setDraft({ method: draft.method, paramsText: swapMarketInText(draft.paramsText, marketId, next) });
    setMarketId(next);
  };
  const hasBuy = !!data?.methods.some((m) => m.name === BUY_METHOD);
  const previewBuy = () => {
    setDraft({ method: BUY_METHOD, paramsText: toJson(buyExampleParams(marketId)) });
    paramsRef.current?.focus({ preventScroll: true });
  };

  const failed = list.isError && (
    <ErrorState title="The methods did not load" message={describeError(list.error)} onRetry={() => list.refetch()} isRetrying={list.isFetching} />
  );

  return (
    <div className="flex flex-col gap-6">
      <nav aria-label="On this page" className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
        <ul className="flex w-max gap-2">
          {SECTIONS.map((s) => (
            <li key={s.href}>
              <a
                href={s.href}
                className="inline-flex h-8 items-center rounded-full border border-line bg-surface px-3 text-sm text-ink-muted transition-colors hover:border-line-strong hover:text-ink"
              >
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <Card aria-labelledby="example-market-title" id="example-market" className="flex scroll-mt-6 flex-col gap-3">
        <div>
          <CardTitle id="example-market-title">Example market</CardTitle>
          <CardDescription>Examples that name a market use this one, so what you copy or send works as it is.</CardDescription>
        </div>
        <MarketPicker value={marketId} onChange={pickMarket} />
      </Card>
      <AuthGuide />
      <ApiKeysGuide marketId={marketId} />
      <AgentCardSummary />
      <OwnAgentEntry />
      <Card ref={consoleRef} aria-labelledby="a2a-console-title" id="try-it" className="flex scroll-mt-6 flex-col gap-4">
        <div>
          <CardTitle id="a2a-console-title">Try it</CardTitle>
          <CardDescription>Call a method for real and see the raw JSON-RPC request and answer.</CardDescription>
        </div>
        {hasBuy && (
          <div className="flex flex-wrap items-center gap-3 rounded-xl border border-line bg-elevated/60 px-4 py-3 text-sm">
            <span className="min-w-0 flex-1 text-ink-muted">
              Trade from code: <code className="font-mono text-ink">{BUY_METHOD}</code> buys shares of the example market; with{' '}
              <code className="font-mono text-ink">&quot;dryRun&quot;: true</code> it only previews the buy.
            </span>
            <Button variant="secondary" size="sm" onClick={previewBuy}>
              Preview a buy
            </Button>
          </div>
        )}
        {list.isPending ? (
          <LoadingBlock label="Loading the console" />
        ) : data ? (
          <RpcConsole
            methods={data.methods}
            protocolMethods={data.protocolMethods}
            draft={current}
            onMethodChange={pick}
            onParamsChange={(paramsText) => setDraft({ method: current.method, paramsText })}
            paramsRef={paramsRef}
          />
        ) : (
          <p className="text-sm text-ink-muted">The console needs the list of methods, which did not load (see below).</p>
        )}
      </Card>
      <section aria-labelledby="a2a-methods-title" id="methods" className="flex scroll-mt-6 flex-col gap-4">
        <div>
          <h2 id="a2a-methods-title" className="text-xl font-semibold tracking-tight text-ink">
            Methods
          </h2>
          <p className="mt-1 text-sm text-ink-muted">
            {data
              ? `${data.methods.length} methods and ${data.protocolMethods.length} protocol methods, read from the server's own table. Reads change nothing; writes act as the caller.`
              : 'Read from the server’s own table.'}
          </p>
        </div>
        {list.isPending ? (
          <LoadingBlock label="Loading the methods" />
        ) : data ? (
          <MethodReference methods={data.methods} protocolMethods={data.protocolMethods} onTry={tryMethod} />
        ) : (
          failed
        )}
      </section>
    </div>
  );
};
