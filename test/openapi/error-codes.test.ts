/**
 * Every error code a route can throw is one its operation declares in the OpenAPI document, and
 * every code a contract declares exists. The thrown codes are read statically from the route's
 * handler and the lib/ functions it reaches (test/openapi/thrown-codes.ts); the declared ones are
 * the document's own (`x-error-codes` of every response of the operation, the wrapper's codes
 * included), so a code counts as declared exactly when the answer check of test/setup-db.ts would
 * let it through.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpoints } from '@/lib/contracts';
import type { TEndpoint } from '@/lib/contracts/endpoint';
import { ERROR_STATUS } from '@/lib/errors/app-error';
import { buildOpenApiDocument, ERROR_CODES_KEY } from '@/lib/openapi/document';
import { readThrownCodes, type TCut } from './thrown-codes';

const root = path.resolve(import.meta.dirname, '../..');

const LEDGER = 'lib/ledger/ledger.ts';
const POINTS = 'lib/points/ledger.ts';
const USER_ROW = "users are never deleted, and the user is one the service has just read, locked or inserted, or the caller (provisioned before the handler runs)";

/**
 * Where the static reading over-approximates provably: the reference exists, but the codes cannot
 * come out of it. Each entry says why; an entry no reference matches any more fails the test.
 */
const CUTS: readonly TCut[] = [
  {
    from: 'lib/a2a/agent-card.ts:buildAgentCard',
    to: 'lib/a2a/methods/index.ts:A2A_METHOD_TABLE',
    codes: '*',
    why: 'the card reads the method table\'s names and summaries; it calls no method',
  },
  {
    from: 'lib/a2a/service/describe.ts:build',
    to: 'lib/a2a/methods/index.ts:A2A_METHOD_TABLE',
    codes: '*',
    why: 'the method list reads names, summaries and params schemas; it calls no method',
  },
  {
    from: 'lib/game/tick.ts:runSteps',
    to: '*',
    codes: '*',
    why: 'every step of the tick runs inside step(), which catches a failure and reports it under `errors` of the 200',
  },
  {
    from: `${LEDGER}:credit`,
    to: `${LEDGER}:applyBalanceChange`,
    codes: ['INSUFFICIENT_BALANCE'],
    why: 'credit() refuses anything but a positive amount, and adding cannot take a balance below zero',
  },
  { from: '*', to: `${LEDGER}:applyBalanceChange`, codes: ['USER_NOT_FOUND'], why: `the money ledger's guard: ${USER_ROW}` },
  {
    from: 'lib/markets/orders/place-order.ts:lockOpenMarket',
    to: 'lib/markets/service/shared.ts:lockMarket',
    codes: ['NOT_FOUND'],
    why: "lockOpenMarket catches lockMarket's NOT_FOUND and answers MARKET_NOT_FOUND, the order routes' code",
  },
  ...['cancelPredictionOrder', 'cancelPredictionOrders'].map((fn) => ({
    from: `lib/markets/orders/close-orders.ts:${fn}`,
    to: 'lib/markets/service/shared.ts:lockMarket',
    codes: ['NOT_FOUND'],
    why: 'a cancel locks the market of an order it has just read: orders reference their market, and markets are never deleted',
  })),
  {
    from: '*',
    except: ['lib/points/service/award-points.ts:awardPoints', 'lib/points/service/transfer-points.ts:transferPoints'],
    to: `${POINTS}:applyPointsChange`,
    codes: ['INSUFFICIENT_POINTS', 'USER_NOT_FOUND'],
    why:
      "only an administrator's award or correction and a transfer take points away or name a user from the request (their routes " +
      `declare both codes); every other caller pays a positive award (a milestone, a share, a bonus, an actor's standing), and ${USER_ROW}`,
  },
  {
    from: 'lib/pools/service/withdraw.ts:withdrawInTx',
    to: `${LEDGER}:debit`,
    codes: ['INSUFFICIENT_BALANCE'],
    why: "the pool's cash is checked first (INSUFFICIENT_LIQUIDITY) in the same transaction, with the pool locked",
  },
  { from: '*', to: 'lib/users/service/update-profile.ts:lockUser', codes: ['USER_NOT_FOUND'], why: `lockUser locks the caller's own row: ${USER_ROW}` },
  {
    from: '*',
    to: 'lib/identity/service/registration.ts:readRegistration',
    codes: ['USER_NOT_FOUND'],
    why: `every caller reads its own registration: ${USER_ROW}`,
  },
  { from: '*', to: 'lib/onboarding/service/signup.ts:onboardingStatus', codes: ['USER_NOT_FOUND'], why: `the caller's own status: ${USER_ROW}` },
  {
    from: 'lib/posts/service/create-post.ts:createPost',
    to: 'lib/posts/service/read-posts.ts:getPost',
    codes: ['NOT_FOUND'],
    why: 'it reads back the post it has just written, which its author always sees',
  },
  {
    from: 'lib/posts/service/like-post.ts:unlikePost',
    to: 'lib/posts/service/toggle-like.ts:toggleLike',
    codes: ['USER_BLOCKED'],
    why: 'an unlike passes on = false; toggleLike refuses a blocked caller only when liking',
  },
  {
    from: 'lib/comments/service/like-comment.ts:unlikeComment',
    to: 'lib/posts/service/toggle-like.ts:toggleLike',
    codes: ['USER_BLOCKED'],
    why: 'an unlike passes on = false; toggleLike refuses a blocked caller only when liking',
  },
  {
    from: 'lib/groups/service/membership.ts:declineInvite',
    to: 'lib/groups/service/membership.ts:respond',
    codes: ['USER_BLOCKED'],
    why: 'respond() checks a block only when accepting',
  },
  {
    from: 'lib/groups/service/membership.ts:respond',
    to: 'lib/groups/queries.ts:lockGroup',
    codes: ['GROUP_NOT_FOUND'],
    why: "it locks the group of an invite it has just read: invites reference their group, and groups are never deleted",
  },
];

/**
 * Endpoints whose route is not one route() call (structure.test.ts TRANSPORT_FILES): POST
 * /api/a2a is JSON-RPC, and a domain failure of a method is a JSON-RPC error inside its 200; so is
 * POST /api/mcp (a tool's failure is a tool result with isError).
 */
const TRANSPORTS = new Set(['a2a.rpc', 'mcp.rpc']);

const doc = buildOpenApiDocument('0.0.0-test');

/** Every code the document lets an operation answer. */
const declaredCodes = (e: TEndpoint): Set<string> => {
  const op = (doc.paths[e.path] as Record<string, { responses: Record<string, Record<string, unknown>> }>)[e.method.toLowerCase()]!;
  const out = new Set<string>();
  for (const r of Object.values(op.responses)) {
    const ref = typeof r.$ref === 'string' ? r.$ref.split('/').at(-1)! : undefined;
    const response = (ref ? (doc.components.responses as Record<string, Record<string, unknown>>)[ref] : r) as Record<string, unknown>;
    for (const c of (response[ERROR_CODES_KEY] as string[] | undefined) ?? []) out.add(c);
  }
  return out;
};

/** The registry's endpoints by the module and export name a route file imports them by. */
const endpointsByExport = async () => {
  const out = new Map<string, TEndpoint>();
  const registered = new Set<unknown>(endpoints);
  for (const f of fs.readdirSync(path.join(root, 'lib/contracts'))) {
    if (!f.endsWith('.ts') || f.endsWith('.test.ts')) continue;
    const mod = (await import(path.join(root, 'lib/contracts', f))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) if (registered.has(value)) out.set(`lib/contracts/${f}:${name}`, value as TEndpoint);
  }
  return out;
};

describe('declared error codes', { timeout: 120_000 }, () => {
  it('every code a route can throw is declared by its operation', async () => {
    const { routes, usedCuts } = readThrownCodes(CUTS);
    const byExport = await endpointsByExport();
    const missing: string[] = [];
    const seen = new Set<string>();
    for (const r of routes) {
      const e = byExport.get(`${r.contract.file}:${r.contract.name}`);
      expect(e, `${r.file}: route(${r.contract.name}) names no registered endpoint`).toBeDefined();
      if (!e || e.hidden) continue;
      seen.add(e.id);
      const declared = declaredCodes(e);
      for (const [code, chain] of r.codes) {
        if (!declared.has(code)) missing.push(`${e.id} (${e.method} ${e.path}) can throw ${code}: ${chain.join(' → ')}`);
      }
    }
    expect(missing).toEqual([]);
    // Every operation was read (a route the reading misses would pass unchecked).
    const unread = endpoints.filter((e) => !e.hidden && !TRANSPORTS.has(e.id) && !seen.has(e.id)).map((e) => e.id);
    expect(unread).toEqual([]);
    // An allow-list entry that no reference matches is stale: remove it.
    expect(CUTS.filter((c) => !usedCuts.has(c)).map((c) => `${c.from} → ${c.to}`)).toEqual([]);
  }, 120_000);

  it('every code a contract declares exists in the error table', () => {
    const unknown = endpoints.flatMap((e) =>
      [...(e.errors ?? []), ...Object.values(e.fieldErrors ?? {})].filter((c) => !Object.hasOwn(ERROR_STATUS, c)).map((c) => `${e.id}: ${c}`),
    );
    expect(unknown).toEqual([]);
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops as Record<string, { operationId: string; responses: Record<string, Record<string, unknown>> }>)) {
        for (const [status, r] of Object.entries(op.responses)) {
          for (const c of (r[ERROR_CODES_KEY] as string[] | undefined) ?? []) {
            expect(Object.hasOwn(ERROR_STATUS, c), `${op.operationId} ${status}: ${c}`).toBe(true);
            expect(String(ERROR_STATUS[c as keyof typeof ERROR_STATUS]), `${op.operationId}: ${c} under ${status}`).toBe(status);
          }
        }
      }
    }
  });
});
