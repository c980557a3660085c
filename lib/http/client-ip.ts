/**
 * The client address that anonymous rate limits count against (README "Client addresses and
 * TRUST_PROXY"). Pure: it reads request headers only.
 *
 *   - CLIENT_IP_HEADER set (e.g. `x-real-ip` behind an nginx that sets it from the socket): that
 *     header, as the proxy wrote it;
 *   - TRUST_PROXY = n > 0 (`1` on Vercel, or behind one nginx with proxy_add_x_forwarded_for): the
 *     entry n hops from the right of X-Forwarded-For. Each trusted proxy appends the address it
 *     received the request from, so the right-most n entries are our proxies' own and the one
 *     they name is the client; whatever the client wrote itself sits to the left and is never
 *     read. With fewer than n entries the header was not written by the proxies we expect, and
 *     the socket address is used;
 *   - otherwise the socket address, which server.mjs writes into X-Client-Socket-Address over
 *     anything the client sent (Next.js itself keeps a client-sent X-Forwarded-For).
 * X-Real-IP is never read unless it is the configured CLIENT_IP_HEADER.
 */
export const SOCKET_ADDRESS_HEADER = 'x-client-socket-address';

/** How the deployment's proxies report the client (lib/env.ts `trustProxy`, `clientIpHeader`). */
export type TClientIpConfig = { trustProxy: number; clientIpHeader?: string };

/** The X-Forwarded-For entries, left to right (repeated headers joined, as Headers.get does). */
export function forwardedFor(headers: Headers): string[] {
  return (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function clientIp(headers: Headers, cfg: TClientIpConfig): string {
  const socket = headers.get(SOCKET_ADDRESS_HEADER) || 'unknown';
  if (cfg.clientIpHeader) return headers.get(cfg.clientIpHeader)?.trim() || socket;
  if (cfg.trustProxy > 0) {
    const hops = forwardedFor(headers);
    return hops.length >= cfg.trustProxy ? hops[hops.length - cfg.trustProxy]! : socket;
  }
  return socket;
}
