/**
 * The client address that anonymous rate limits count against. Behind a trusted proxy
 * (TRUST_PROXY=1, e.g. Vercel) it is the first X-Forwarded-For hop. Otherwise it is the socket
 * address, which server.mjs writes into X-Client-Socket-Address over anything the client sent
 * (Next.js itself keeps a client-sent X-Forwarded-For, so that header cannot be trusted).
 */
export const SOCKET_ADDRESS_HEADER = 'x-client-socket-address';

export const clientIp = (headers: Headers, trustProxy: boolean): string => {
  if (trustProxy) {
    const first = (headers.get('x-forwarded-for') ?? '').split(',')[0]?.trim();
    if (first) return first;
  }
  return headers.get(SOCKET_ADDRESS_HEADER) || headers.get('x-real-ip') || 'unknown';
};
