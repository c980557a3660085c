/**
 * Whether an error means "the database is not answering" (down, restarting, unreachable, out of
 * connections) rather than a fault of ours or of the request. Such a failure is answered
 * 503 SERVICE_UNAVAILABLE with Retry-After (lib/operations/run-operation.ts), never 500: the client
 * may retry, and nothing was kept (a transaction whose connection died is rolled back by the server).
 * Pure, no I/O; recognises what postgres.js raises, possibly wrapped (drizzle's DrizzleQueryError
 * keeps the driver's error as `cause`):
 *   - its own connection errors: CONNECTION_CLOSED, CONNECTION_ENDED, CONNECTION_DESTROYED,
 *     CONNECT_TIMEOUT;
 *   - socket errors of the database connection: ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH, ENOTFOUND,
 *     EAI_AGAIN (only connecting raises those), and ECONNRESET / EPIPE only when the driver
 *     attached them to a query (it defines `query` on every error it rejects a query with), since
 *     a client hanging up on us raises ECONNRESET too, and that is not the database;
 *   - SQLSTATE class 08 (connection exception), 57P01 admin shutdown, 57P02 crash shutdown,
 *     57P03 cannot connect now (starting up, shutting down, in recovery), 53300 too many
 *     connections.
 */

const DRIVER_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT']);
const CONNECT_SOCKET_CODES = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** How many `cause` links are followed (wrappers seen in practice: one or two). */
const MAX_DEPTH = 5;

/** True when the error (or what it wraps) says the database could not be reached or dropped us. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let cur: unknown = error;
  let fromQuery = false;
  for (let i = 0; i < MAX_DEPTH && cur !== null && typeof cur === 'object'; i++) {
    if ('query' in cur) fromQuery = true;
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (DRIVER_CODES.has(code) || CONNECT_SOCKET_CODES.has(code)) return true;
      if (SOCKET_CODES.has(code)) return fromQuery || 'query' in cur;
      if (/^[0-9A-Z]{5}$/.test(code) && (code.startsWith('08') || SQLSTATES.has(code))) return true;
    }
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

/** Seconds a client is told to wait before retrying while the database is away. */
export const DATABASE_RETRY_AFTER_S = 2;
