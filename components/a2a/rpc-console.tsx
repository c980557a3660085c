'use client';

import Link from 'next/link';
import { useId, type FormEvent, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { SignInPrompt } from '@/components/auth/sign-in-prompt';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { ErrorState } from '@/components/ui/error-state';
import { Field, describedBy } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import {
  groupMethods,
  parseParamsText,
  readRpcOutcome,
  useSendRpc,
  type TA2aMethod,
  type TA2aProtocolMethod,
  type TRpcExchange,
  type TRpcOutcome,
} from '@/lib/client/queries/a2a';
import { describeError } from '@/lib/client/queries/errors';
import { useSession } from '@/lib/client/queries/users';
import { CodeBlock, toJson } from './code-block';

/** What the console is set to: a method and its params as typed. */
export type TConsoleDraft = { method: string; paramsText: string };

/** Notice's look without its role: the summary sits in one polite live region, which announces it once. */
const Box = ({ tone, className, children }: { tone: 'success' | 'error'; className?: string; children: ReactNode }) => (
  <div
    className={cn(
      'rounded-lg border px-3.5 py-2.5 text-sm',
      tone === 'error' ? 'border-down/30 bg-down-soft text-down' : 'border-up/30 bg-up-soft text-up',
      className,
    )}
  >
    {children}
  </div>
);

/** One line on what came back, announced politely (the JSON itself is not read out). */
const OutcomeSummary = ({ exchange, outcome }: { exchange: TRpcExchange; outcome: TRpcOutcome }) => {
  const meta = (
    <span className="text-xs text-ink-faint">
      {exchange.status > 0 && <>HTTP {exchange.status} · </>}
      {exchange.durationMs} ms
      {exchange.rateLimit && (
        <>
          {' '}
          · {exchange.rateLimit.remaining}/{exchange.rateLimit.limit} calls left
        </>
      )}
    </span>
  );
  switch (outcome.kind) {
    case 'result':
      return (
        <Box tone="success" className="flex flex-wrap items-center justify-between gap-2">
          <span>
            <span className="font-semibold">Result</span> for <code className="font-mono">{exchange.request.method}</code>
          </span>
          {meta}
        </Box>
      );
    case 'rpc-error':
      return (
        <Box tone="error" className="flex flex-col gap-1">
          <span className="flex flex-wrap items-center justify-between gap-2">
            <span className="font-semibold">
              <span className="font-mono">{outcome.code}</span> {outcome.name}
            </span>
            {meta}
          </span>
          <span className="text-ink">{outcome.message}</span>
          {outcome.dataCode && (
            <span>
              data.code <code className="font-mono font-semibold">{outcome.dataCode}</code>
            </span>
          )}
        </Box>
      );
    case 'http-error':
      return (
        <Box tone="error" className="flex flex-col gap-1">
          <span className="flex flex-wrap items-center justify-between gap-2">
            <span className="font-semibold">
              HTTP {outcome.status}
              {outcome.code && <> {outcome.code}</>}
            </span>
            {meta}
          </span>
          <span className="text-ink">
            {outcome.code === 'UNAUTHORIZED' ? (
              <>
                Your session has ended.{' '}
                <Link href="/sign-in" className="font-medium underline">
                  Sign in again
                </Link>
                .
              </>
            ) : (
              outcome.message
            )}
          </span>
        </Box>
      );
    case 'network':
      return <Box tone="error">Could not reach the server. Check your connection and send again.</Box>;
  }
};

/**
 * The live console: pick a method, edit its params (JSON), send. Calls /api/a2a as the signed-in
 * player with their session cookie, and shows the raw JSON-RPC request and answer. Ctrl+Enter
 * (⌘+Enter on a Mac) sends from the params.
 */
export const RpcConsole = ({
  methods,
  protocolMethods,
  draft,
  onMethodChange,
  onParamsChange,
  paramsRef,
}: {
  methods: readonly TA2aMethod[];
  protocolMethods: readonly TA2aProtocolMethod[];
  draft: TConsoleDraft;
  onMethodChange: (method: string) => void;
  onParamsChange: (text: string) => void;
  paramsRef?: Ref<HTMLTextAreaElement>;
}) => {
  const session = useSession();
  const send = useSendRpc();
  const methodId = useId();
  const paramsId = useId();
  const parsed = parseParamsText(draft.paramsText);
  const selected = methods.find((m) => m.name === draft.method);
  const paramsError = parsed.ok ? undefined : parsed.message;

  if (session.isPending) {
    return (
      <div role="status" aria-label="Loading the console" className="flex flex-col gap-3">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (session.isSignedOut) {
    return (
      <SignInPrompt
        title="Sign in to try the methods"
        description="The console calls /api/a2a as you, with your session. Sign in, then pick a method and send it. Agents call the same endpoint with a bearer token."
      />
    );
  }
  if (session.failure) {
    return <ErrorState title="We could not check your session" message={describeError(session.failure)} onRetry={() => session.refetch()} isRetrying={session.isFetching} />;
  }

  const onSubmit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!parsed.ok || send.isPending) return;
    send.mutate({ method: draft.method, params: parsed.params });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      onSubmit();
    }
  };
  const exchange = send.data;
  const outcome = exchange ? readRpcOutcome(exchange) : null;

  return (
    <div className="flex flex-col gap-5">
      <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="A2A console">
        <p className="text-sm text-ink-muted">
          Signed in as <span className="font-medium text-ink">@{session.user?.username}</span>: calls run as you, with your balance and your limits.
        </p>
        <Field id={methodId} label="Method">
          <Select id={methodId} value={draft.method} onChange={(e) => onMethodChange(e.target.value)}>
            {groupMethods(methods).map((g) => (
              <optgroup key={g.value} label={g.label}>
                {g.methods.map((m) => (
                  <option key={m.name} value={m.name}>
                    {m.name}
                    {m.kind === 'write' ? ' (write)' : ''}
                  </option>
                ))}
              </optgroup>
            ))}
            {protocolMethods.length > 0 && (
              <optgroup label="A2A protocol">
                {protocolMethods.map((m) => (
                  <option key={m.name} value={m.name}>
                    {m.name}
                  </option>
                ))}
              </optgroup>
            )}
          </Select>
        </Field>
        {selected && (
          <p className="-mt-2 flex flex-wrap items-center gap-2 text-sm text-ink-muted">
            <Badge tone={selected.kind === 'write' ? 'warn' : 'up'}>{selected.kind}</Badge>
            {selected.summary}
            {selected.kind === 'write' && <span className="text-warn">It changes things for real, as you.</span>}
          </p>
        )}
        <Field id={paramsId} label="Params (JSON)" error={paramsError} hint="An object, by name; empty sends no params. Ctrl+Enter (⌘+Enter on a Mac) sends.">
          <Textarea
            id={paramsId}
            ref={paramsRef}
            value={draft.paramsText}
            onChange={(e) => onParamsChange(e.target.value)}
            onKeyDown={onKeyDown}
            rows={8}
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            aria-invalid={!!paramsError}
            aria-describedby={describedBy(paramsId, { error: paramsError, hint: true })}
            aria-keyshortcuts="Control+Enter Meta+Enter"
            className="font-mono text-xs"
          />
        </Field>
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" isLoading={send.isPending} disabled={!parsed.ok}>
            Send
          </Button>
        </div>
      </form>
      <section aria-labelledby="a2a-exchange-title" aria-busy={send.isPending || undefined} className="flex flex-col gap-3">
        <h3 id="a2a-exchange-title" className="text-sm font-semibold text-ink">
          Exchange
        </h3>
        <div aria-live="polite" role="status" className="empty:hidden">
          {send.isPending ? (
            <p className="text-sm text-ink-muted">Sending {send.variables?.method}…</p>
          ) : exchange && outcome ? (
            <OutcomeSummary exchange={exchange} outcome={outcome} />
          ) : null}
        </div>
        {exchange ? (
          <div className="grid gap-3 lg:grid-cols-2">
            <CodeBlock label="Request">{`POST /api/a2a\n\n${toJson(exchange.request)}`}</CodeBlock>
            <CodeBlock label="Response" tone={outcome?.kind === 'result' ? 'neutral' : 'error'}>
              {exchange.body === null ? '(no body)' : toJson(exchange.body)}
            </CodeBlock>
          </div>
        ) : (
          !send.isPending && <p className="text-sm text-ink-faint">Send a call to see the request and the answer here.</p>
        )}
      </section>
    </div>
  );
};
