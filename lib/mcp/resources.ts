/**
 * The MCP resources: what an agent reads by address rather than by tool. Each read is a call of
 * the operation core like a tool call: a question through `a2a.getMarketData`'s operation, the
 * caller's portfolio through `a2a.getUserWallet`'s, a ticker through an operation of its own over
 * the perps read service (no method of the table reads one ticker). All need `read`.
 */
import 'server-only';
import { z } from 'zod';
import { findMethod } from '@/lib/a2a/methods';
import { methodOperation } from '@/lib/a2a/service/dispatch';
import type { TCaller } from '@/lib/auth/caller';
import type { TOperation } from '@/lib/operations/run-operation';
import { getTicker } from '@/lib/perps/service/read';

export const SCHEME = 'playmoney';

export const RESOURCES = [
  {
    uri: `${SCHEME}://portfolio`,
    name: 'portfolio',
    title: 'Your portfolio',
    description: 'Your balance, recent transactions and open positions (a2a.getUserWallet)',
    mimeType: 'application/json',
  },
];

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: `${SCHEME}://markets/{marketId}`,
    name: 'market',
    title: 'A prediction question',
    description: "A question's prices, volume, liquidity, resolution date and state (a2a.getMarketData)",
    mimeType: 'application/json',
  },
  {
    uriTemplate: `${SCHEME}://perps/{ticker}`,
    name: 'perp',
    title: 'A perpetual ticker',
    description: "A ticker's mark and index price, 24 h change and volume, funding rate and open interest",
    mimeType: 'application/json',
  },
];

/** A ticker read: the perps read service, as an operation of the core (the caller needs `read`). */
const PERP_TICKER: TOperation = {
  id: 'mcp.resources/perps',
  method: 'GET',
  auth: 'user',
  requires: ['read'],
  body: z.strictObject({ ticker: z.string().min(1).max(20).transform((t) => t.toUpperCase()) }),
};

/** What reading a resource runs: the operation, its input and the service call. */
export type TResourceRead = { op: TOperation; input: Record<string, unknown>; run: (ctx: { caller: TCaller; origin: string }, input: never) => Promise<unknown> };

const viaMethod = (name: string, raw: Record<string, unknown>): TResourceRead | undefined => {
  const method = findMethod(name);
  if (!method) return undefined;
  return { op: methodOperation(method), input: method.normalize ? method.normalize(raw) : raw, run: (ctx, input) => method.run(ctx, input) };
};

/**
 * The read an address names, or undefined for an address that is none of ours. The path segment
 * is decoded; what it holds is the operation's to judge (an unknown id is the service's 404).
 */
export function resolveResource(uri: string): TResourceRead | undefined {
  const prefix = `${SCHEME}://`;
  if (!uri.startsWith(prefix)) return undefined;
  const rest = uri.slice(prefix.length);
  if (rest === 'portfolio') return viaMethod('a2a.getUserWallet', {});
  const m = /^(markets|perps)\/([^/?#]+)$/.exec(rest);
  if (!m) return undefined;
  let segment: string;
  try {
    segment = decodeURIComponent(m[2]!);
  } catch {
    return undefined;
  }
  if (m[1] === 'markets') return viaMethod('a2a.getMarketData', { marketId: segment });
  return { op: PERP_TICKER, input: { ticker: segment }, run: (_ctx, input: { ticker: string }) => getTicker(input.ticker) };
}
