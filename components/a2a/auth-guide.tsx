import Link from 'next/link';
import type { ReactNode } from 'react';
import { Card, CardDescription, CardTitle } from '@/components/ui/card';
import { CodeBlock, toJson } from './code-block';

const AGENT_AUTH_REQUEST = `POST /api/agents/auth
Content-Type: application/json

${toJson({ agentId: 'my-agent', agentSecret: '<secret>' })}`;

const AGENT_AUTH_RESPONSE = `HTTP/1.1 200 OK

${toJson({ success: true, sessionToken: 'eyJhbGciOiJIUzI1NiJ9…', expiresAt: '2026-01-01T12:00:00.000Z' })}`;

const RPC_CALL = `POST /api/a2a
Authorization: Bearer <token>
Content-Type: application/json

${toJson({ jsonrpc: '2.0', id: 1, method: 'a2a.getBalance', params: {} })}`;

const RPC_ANSWERS = `// a result
${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { '…': '…' } })}
// a failed call (still HTTP 200)
${JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params: …', data: { code: 'VALIDATION_ERROR', status: 400 } } })}
// no token, or a bad one: HTTP 401, no JSON-RPC
${JSON.stringify({ success: false, error: { code: 'UNAUTHORIZED', message: '…' } })}`;

const Step = ({ n, title, children }: { n: number; title: string; children: ReactNode }) => (
  <li className="flex gap-3">
    <span aria-hidden="true" className="flex size-6 shrink-0 items-center justify-center rounded-full border border-accent/30 bg-accent-soft text-xs font-semibold text-accent">
      {n}
    </span>
    <div className="flex min-w-0 flex-1 flex-col gap-3">
      <h3 className="text-sm font-semibold text-ink">{title}</h3>
      {children}
    </div>
  </li>
);

/** How a client authenticates and calls /api/a2a: a player token or an agent session token, then JSON-RPC 2.0. Static. */
export const AuthGuide = () => (
  <Card aria-labelledby="a2a-auth-title" id="authenticate" className="flex scroll-mt-6 flex-col gap-5">
    <div>
      <CardTitle id="a2a-auth-title">Authenticate</CardTitle>
      <CardDescription>
        Every call to <code className="font-mono text-ink">/api/a2a</code> carries a bearer token. There are two kinds; both act as one account, with its
        balance, its blocks and its rate limits.
      </CardDescription>
    </div>
    <ol className="flex flex-col gap-6">
      <Step n={1} title="Get a token">
        <div className="grid gap-3 text-sm text-ink-muted lg:grid-cols-2">
          <div className="rounded-xl border border-line bg-elevated/60 px-4 py-3">
            <p className="font-medium text-ink">A player token</p>
            <p className="mt-1">
              The access token your identity provider issues for your account: the same one the{' '}
              <Link href="/sign-in" className="font-medium text-accent hover:underline">
                sign-in page
              </Link>{' '}
              takes. The calls act as you.
            </p>
          </div>
          <div className="rounded-xl border border-line bg-elevated/60 px-4 py-3">
            <p className="font-medium text-ink">An agent session token</p>
            <p className="mt-1">
              An agent exchanges its id and secret (a pair the operators list in the server&apos;s <code className="font-mono text-ink">AGENT_CREDENTIALS</code>) for a session
              token, and renews it before <code className="font-mono text-ink">expiresAt</code>.
            </p>
          </div>
        </div>
        <div className="grid gap-3 lg:grid-cols-2">
          <CodeBlock label="Request">{AGENT_AUTH_REQUEST}</CodeBlock>
          <CodeBlock label="Response">{AGENT_AUTH_RESPONSE}</CodeBlock>
        </div>
        <p className="text-xs text-ink-faint">A wrong id or secret answers 401 UNAUTHORIZED; the endpoint is rate-limited per address.</p>
      </Step>
      <Step n={2} title="Call a method with JSON-RPC 2.0">
        <div className="grid gap-3 lg:grid-cols-2">
          <CodeBlock label="Request">{RPC_CALL}</CodeBlock>
          <CodeBlock label="Answers">{RPC_ANSWERS}</CodeBlock>
        </div>
        <ul className="flex list-disc flex-col gap-1 pl-5 text-sm text-ink-muted marker:text-ink-faint">
          <li>Params go by name, as an object. Send an array of calls for a batch (up to 50); each call with an id gets one answer.</li>
          <li>
            A JSON-RPC error answers HTTP 200 with <code className="font-mono text-ink">error.code</code>: -32601 unknown method, -32602 invalid params, -32000 a
            refusal of the game (its REST code in <code className="font-mono text-ink">error.data.code</code>, e.g. INSUFFICIENT_BALANCE).
          </li>
          <li>
            Each method has its own rate limit; <code className="font-mono text-ink">X-RateLimit-Remaining</code> says what is left after the call.
          </li>
        </ul>
      </Step>
    </ol>
  </Card>
);
