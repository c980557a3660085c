/**
 * The request-level step of the operation core: what happens once per request a transport
 * receives, around the calls it carries (README.md in this folder says how a transport uses it).
 * REST carries one call per request and needs none of it: `runOperation` does the same for its
 * one call. A transport that carries several calls in one request (JSON-RPC batches: A2A, MCP)
 * opens the request here, so that:
 *   - its credentials are verified once (`openRequest`): every call of the request runs as the
 *     claims found then, and `runOperation` does not verify them again;
 *   - the refusals before any call are counted as one request, and those that are malformed
 *     input against the bad-input budget, as REST counts a refused request: a request without a
 *     valid caller (`requireCaller`, 401), and whatever the transport's own checks and body
 *     reading throw (`requestStep`: 403, 413, 414, 415, 400);
 *   - a request answered within its protocol without any call reaching the core (a body that is
 *     not JSON, or not a request) counts once (`countRequest`), over the limit a 429 instead;
 *     and so does one whose calls were all malformed or unknown (`finishRequest`), but that one
 *     is never refused for it: its answers are already made.
 * Every call that reaches the core counts itself under its operation's rule and marks the
 * request counted; `request.limit` is the rate-limit state after the last count, which the
 * transport reports. A request counts under `authenticated` by account with valid claims, under
 * `public` by client address without (lib/operations/rate-limit.ts). Knows nothing of HTTP: the
 * transport reads the credentials and the client address.
 */
import 'server-only';
import { verifyCredentials, type TCredentials, type TVerifiedClaims } from '@/lib/principals/principal';
import { AppError, isAppError, type TErrorCode } from '@/lib/errors/app-error';
import { checkRateLimit, notePenalty, type TLimitResult } from './rate-limit';

/** One request a transport received, as the core knows it. */
export type TRequest = {
  /** Names the request in logs and in a 500's details. */
  readonly requestId: string;
  /** The token the request carries (bearer header or session cookie), or null. */
  readonly credentials: TCredentials | null;
  /** The client address: the identity of a request without valid credentials. */
  readonly ip: string;
  /** The credentials' claims, verified once; null when none were sent or they are not valid. */
  readonly claims: TVerifiedClaims | null;
  /** Whom the request counts against: the token's subject (one user, one counter), else the address. */
  readonly identity: string;
  /** Whether the request has counted (a call that reached the core, or the request itself). */
  counted: boolean;
  /** The rate-limit state after the request's last count. */
  limit?: TLimitResult;
};

/** A refusal the transport answers in place of the request, as runOperation's failed outcome. */
export type TRefusal = { ok: false; error: unknown; limit?: TLimitResult; retryAfter?: number };

/** Verifies the request's credentials (once: no call of it verifies them again). */
export async function openRequest(input: { requestId: string; credentials: TCredentials | null; ip: string }): Promise<TRequest> {
  const claims = await verifyCredentials(input.credentials);
  return { ...input, claims, identity: claims ? `s:${claims.subject}` : `ip:${input.ip}`, counted: false };
}

/** What a call of the request hands to runOperation: who sent it, and the request it counts for. */
export function invocationOf(request: TRequest): { requestId: string; credentials: TCredentials | null; ip: string; request: TRequest } {
  return { requestId: request.requestId, credentials: request.credentials, ip: request.ip, request };
}

/** Records a call's count (runOperation's): the request has counted, and this is its state. */
export function noteCallCount(request: TRequest, limit: TLimitResult | undefined): void {
  if (!limit) return;
  request.counted = true;
  request.limit = limit;
}

/** Counts the request once, unless it already counted; the count's state, or undefined when it did not count now. */
async function countOnce(request: TRequest): Promise<TLimitResult | undefined> {
  if (request.counted) return undefined;
  request.counted = true;
  request.limit = await checkRateLimit(request.claims ? 'authenticated' : 'public', request.identity);
  return request.limit;
}

const overLimit = (limit: TLimitResult): TRefusal => ({
  ok: false,
  error: new AppError('RATE_LIMIT_EXCEEDED', 'Too many requests'),
  limit,
  retryAfter: Math.max(1, Math.ceil((limit.reset - Date.now()) / 1000)),
});

/**
 * What was thrown at the request level, before or between its calls, as the refusal the
 * transport answers: a typed error counts the request (its own answer wins over the limit) and,
 * when it is malformed input (413, 414, 415, 400), counts against the bad-input budget. Anything
 * else is a fault the transport answers 500, uncounted.
 */
export async function refuseRequest(request: TRequest, thrown: unknown): Promise<TRefusal> {
  if (isAppError(thrown) && thrown.code !== 'RATE_LIMIT_EXCEEDED') {
    await countOnce(request);
    void notePenalty(request.identity, thrown.code);
  }
  return { ok: false, error: thrown, limit: request.limit };
}

/**
 * For a transport whose every call needs a caller: 401 UNAUTHORIZED for a request without valid
 * claims ('Invalid or expired token' when it sent credentials, `missing` when it sent none),
 * counted first, so a flood of them hears 429 once over the public limit; undefined otherwise.
 */
export async function requireCaller(request: TRequest, missing: string): Promise<TRefusal | undefined> {
  if (request.claims) return undefined;
  const limit = await countOnce(request);
  if (limit && !limit.success) return overLimit(limit);
  return refuseRequest(request, new AppError('UNAUTHORIZED', request.credentials ? 'Invalid or expired token' : missing));
}

/**
 * A step of the transport's own before any call (its checks of the request, reading the body):
 * its value, or the refusal of what it threw (`refuseRequest`).
 */
export async function requestStep<T>(request: TRequest, step: () => T | Promise<T>): Promise<{ ok: true; value: T } | TRefusal> {
  try {
    return { ok: true, value: await step() };
  } catch (thrown) {
    return refuseRequest(request, thrown);
  }
}

/**
 * A request answered within its protocol before any call reached the core (a body that is not
 * JSON, or not a request): counted once now; over the limit, the 429 the transport answers
 * instead. `badInput`: the answer refused malformed input, which counts against the budget too.
 */
export async function countRequest(request: TRequest, options: { badInput?: TErrorCode } = {}): Promise<TRefusal | undefined> {
  const limit = await countOnce(request);
  if (limit && !limit.success) return overLimit(limit);
  if (options.badInput) void notePenalty(request.identity, options.badInput);
  return undefined;
}

/**
 * After the calls: a request none of whose calls reached the core (each malformed, unknown or
 * unsupported) still counts, once, and is answered all the same. The state to report.
 */
export async function finishRequest(request: TRequest): Promise<TLimitResult | undefined> {
  await countOnce(request);
  return request.limit;
}
