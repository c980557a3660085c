/**
 * The operation core: every call of an operation, whichever transport carries it (REST through
 * lib/http/route.ts, A2A JSON-RPC through lib/a2a/transport.ts and lib/a2a/service/dispatch.ts),
 * goes through `runOperation`, which knows nothing of HTTP. A transport that carries several calls
 * in one request opens the request first (./request.ts): its credentials are then verified once,
 * for all its calls, and each call's count is the request's (README.md: how a transport plugs in).
 * In order, cheapest first:
 *   credentials → verified token claims (no database)
 *   bad-input budget (a caller in the penalty box waits, and is refused) → 429
 *   rate limit (per user, or per client address when anonymous) → 429 RATE_LIMIT_EXCEEDED
 *   auth kind → 401 UNAUTHORIZED (a bad bearer token is refused even on public operations)
 *   the transport's own checks (REST: URL bounds and decoding, same-origin cookie requests)
 *   then, under the operation's deadline (lib/clock/deadline.ts) → 503 DEADLINE_EXCEEDED:
 *     the permissions, on operations that require one a player lacks (moderate, admin) only:
 *     the caller's user (provisioned on first sight) → 403 FORBIDDEN when the principal's
 *     permission set lacks one the operation `requires`, before any input is looked at, so a
 *     player learns nothing of an admin route's schema (this costs those routes a database round
 *     trip before validation; no other route pays it)
 *     params, query → 400 INVALID_PARAMETER (control characters and lone surrogates included)
 *     the body as the transport reads it → text → schema → 400 VALIDATION_ERROR (or a field's
 *     own code, such as INVALID_TRADE_SIZE for an amount out of range)
 *     the caller's user, on every other operation (provisioned on first sight), and its
 *     permissions → 403 FORBIDDEN; 403 USER_BANNED
 *     for a banned caller's writes (any method but GET, unless the operation says
 *     `allowBanned`: signing out)
 *     the operation's own function, its reads on a read replica when the operation declares
 *     `reads: 'replica'` and the caller has not just written (./read-routing.ts); a write that
 *     succeeds keeps its caller's reads on the primary for a few seconds
 * The result is the function's value or a typed error, always with the rate-limit state the
 * transport reports (REST: X-RateLimit-* headers). Refusals for malformed input count against
 * the caller's bad-input budget.
 */
import 'server-only';
import { postgresErrorCode } from '@/db/client';
import { isDryRunBody } from './dry-run';
import { holdKeyCaps } from '@/lib/api-keys/caps';
import { markBot } from '@/lib/api-keys/service';
import type { TTokenClaims } from '@/lib/auth/jwt';
import { toCaller, type TCaller } from '@/lib/auth/caller';
import { assertPermissions, isPrivileged } from '@/lib/auth/permissions';
import { principalFor, verifyCredentials, type TCallerRead, type TCredentials, type TPrincipal, type TVerifiedClaims } from '@/lib/principals/principal';
import { secretsEqual } from '@/lib/auth/secrets';
import type { TEndpoint, TEndpointAccess } from '@/lib/contracts/endpoint';
import { env } from '@/lib/env';
import { AppError, isAppError, type TErrorCode } from '@/lib/errors/app-error';
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from '@/lib/errors/database-unavailable';
import { runWithDeadline } from '@/lib/clock/deadline';
import { parseIdempotencyKey, requestFingerprint } from '@/lib/idempotency/key';
import { runIdempotent } from '@/lib/idempotency/service';
import { DEFAULT_DEADLINE_MS, findBadText } from './bounds';
import { PENALTY_PAUSE_MS, checkRateLimit, notePenalty, penaltyUntil, type TLimitResult } from './rate-limit';
import { RATE_LIMITS } from '@/lib/contracts/rate-limits';
import { noteCallCount, type TRequest } from './request';
import { isWriteOperation, noteWrite, readsTarget, runReads } from './read-routing';
import type { z } from 'zod';

/** What the core needs of an operation: its declaration (a REST endpoint is one). */
export type TOperation = Pick<
  TEndpoint,
  | 'id'
  | 'method'
  | 'rateLimit'
  | 'params'
  | 'query'
  | 'body'
  | 'fieldErrors'
  | 'deadlineMs'
  | 'allowBanned'
  | 'idempotent'
  | 'status'
  | 'keyCaps'
  | 'reads'
  | 'sameForEveryCaller'
  | 'writesOnGet'
> &
  TEndpointAccess;

/** One call of an operation, as a transport hands it over. */
export type TInvocation = {
  /** Names the call in logs and in a 500's details. */
  requestId: string;
  /** The token the call carries (bearer header or session cookie), or null. */
  credentials: TCredentials | null;
  /** The client address: the identity of anonymous calls for rate limits. */
  ip: string;
  /**
   * The request the call belongs to, when the transport opened one (./request.ts, `invocationOf`):
   * its claims, verified once, stand for the credentials, and the call's count is recorded on it.
   */
  request?: TRequest;
  rawParams?: Record<string, unknown>;
  rawQuery?: Record<string, unknown>;
  /**
   * The body, read by the transport within its bounds, when the operation has one: JSON text
   * parsed for REST, the params object for JSON-RPC. `undefined` means none was sent.
   */
  readBody?: () => Promise<unknown>;
  /**
   * The call's Idempotency-Key as sent (REST: the header), or null/undefined when none; used only
   * when the operation is `idempotent` (lib/idempotency).
   */
  idempotencyKey?: string | null;
  /** Checks of the transport's own, run once the caller is known and before any input is read. */
  transportChecks?: (claims: TTokenClaims | null) => void;
  /** The operation's own read of its caller, which loads the caller's row with it (lib/principals TCallerRead). */
  callerRead?: TCallerRead;
};

export type TOperationContext<TParams = unknown, TQuery = unknown, TBody = unknown> = {
  /** Who the call acts for; null for an anonymous call of a public operation. */
  caller: TCaller | null;
  principal: TPrincipal | null;
  params: TParams;
  query: TQuery;
  body: TBody;
};

export type TOutcome<T> =
  | { ok: true; value: T; limit?: TLimitResult; /** The stored answer of an earlier call with the same Idempotency-Key. */ replayed?: boolean }
  | { ok: false; error: unknown; limit?: TLimitResult; retryAfter?: number };

const issuesOf = (e: z.ZodError) =>
  e.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message, code: i.code }));

const assertText = (value: unknown, code: TErrorCode, what: string) => {
  const bad = findBadText(value);
  if (bad) throw new AppError(code, `Invalid ${what}: ${bad.path || 'value'} ${bad.reason}`, { path: bad.path });
};

const parseWith = (schema: z.ZodType | undefined, raw: unknown, what: 'path parameter' | 'query parameter') => {
  if (!schema) return raw;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError('INVALID_PARAMETER', `Invalid ${what}`, { issues: issuesOf(parsed.error) });
  return parsed.data;
};

const isEmptyObject = (v: unknown) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0;

const RANGE_ISSUES = new Set(['too_big', 'too_small', 'not_multiple_of']);

/**
 * The error for a body the schema refused: a field's own code when every issue is a range issue
 * of a field that declares one (fieldErrors), VALIDATION_ERROR otherwise.
 */
const bodyError = (op: TOperation, e: z.ZodError) => {
  const issues = issuesOf(e);
  const fieldCodes = new Set(e.issues.map((i) => (RANGE_ISSUES.has(i.code) ? op.fieldErrors?.[String(i.path[0] ?? '')] : undefined)));
  const code = fieldCodes.size === 1 ? [...fieldCodes][0] : undefined;
  if (code) return new AppError(code, issues.map((i) => `${i.path}: ${i.message}`).join('; '), { issues });
  return new AppError('VALIDATION_ERROR', 'Invalid request body', { issues });
};

/** The body the operation's function receives: none reads as {}; a JSON null is a body, and not an object. */
const validateBody = (op: TOperation, raw: unknown) => {
  if (!op.body) {
    if (raw !== undefined && !isEmptyObject(raw)) throw new AppError('VALIDATION_ERROR', 'This endpoint takes no request body (send none, or {})');
    return {};
  }
  if (raw !== undefined) assertText(raw, 'VALIDATION_ERROR', 'request body');
  const parsed = op.body.safeParse(raw === undefined ? {} : raw);
  if (!parsed.success) throw bodyError(op, parsed.error);
  return parsed.data;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SQLSTATE class 22, "data exception": a value the database cannot hold (numeric overflow, bad text). */
const isDataException = (code: string | undefined) => !!code && code.startsWith('22');
const QUERY_CANCELED = '57014'; // statement_timeout

/**
 * A database error that is the caller's input, the deadline or an outage of the database (503
 * with Retry-After), as the typed error it is; anything
 * else stays what it is (a real fault: the transport answers 500 and logs it).
 */
const typedError = (op: TOperation, error: unknown, requestId: string): unknown => {
  if (isAppError(error)) return error;
  const sqlState = postgresErrorCode(error);
  if (isDataException(sqlState)) {
    // A bound the schemas should have caught: the client's fault, but worth a log line to fix it.
    console.warn(`[api] ${op.id}: data exception ${sqlState} (request ${requestId})`);
    return new AppError('VALIDATION_ERROR', 'A value is out of range or malformed', { requestId });
  }
  if (sqlState === QUERY_CANCELED) {
    return new AppError('DEADLINE_EXCEEDED', 'The request took too long and was abandoned; nothing was changed', { requestId });
  }
  if (isDatabaseUnavailable(error)) {
    // Down, restarting or unreachable (lib/errors/database-unavailable.ts): the client may retry.
    console.warn(`[api] ${op.id}: database unavailable (${sqlState ?? 'no code'}, request ${requestId})`);
    return new AppError('SERVICE_UNAVAILABLE', 'The database is not answering; nothing was changed. Try again shortly', { requestId }, {
      'Retry-After': String(DATABASE_RETRY_AFTER_S),
    });
  }
  return error;
};

/** Runs one call of `op` for the caller the invocation names; never throws (errors are outcomes). */
export async function runOperation<T>(
  op: TOperation,
  call: TInvocation,
  fn: (ctx: TOperationContext) => Promise<T>,): Promise<TOutcome<T>> {
  let limit: TLimitResult | undefined;
  let identity: string | undefined;
  try {
    const cfg = env();
    // The token is verified (cheap: remembered until it expires), but the caller's user row is
    // loaded only once the call has passed every check that needs no database, so a flood of bad
    // input costs no database round trips.
    let claims: TVerifiedClaims | null = null;
    let cronOk = false;
    // `auth: 'metrics'`: the scrape secret as the bearer admits the call without a user.
    let scrapeOk = false;
    const cred = call.credentials;
    if (op.auth === 'cron') cronOk = !!cred && cred.via === 'bearer' && secretsEqual(cred.token, cfg.cronSecret);
    else {
      if (op.auth === 'metrics') scrapeOk = !!cred && cred.via === 'bearer' && !!cfg.metricsToken && secretsEqual(cred.token, cfg.metricsToken);
      if (!scrapeOk) claims = call.request ? call.request.claims : await verifyCredentials(cred);
    }

    // One user, one counter: the token's subject names the user (users.auth_subject is unique).
    identity = claims ? `s:${claims.subject}` : cronOk ? 'cron' : scrapeOk ? 'metrics' : `ip:${call.ip}`;
    const penalty = penaltyUntil(identity);
    if (penalty !== undefined) {
      // The tarpit: the caller waits, the server does not work.
      await sleep(PENALTY_PAUSE_MS);
      limit = { success: false, limit: RATE_LIMITS.badInput.limit, remaining: 0, reset: penalty };
      throw new AppError('RATE_LIMIT_EXCEEDED', 'Too many malformed requests: fix them, then try again after the window', {
        limit: limit.limit,
        reset: Math.ceil(penalty / 1000),
      });
    }
    limit = await checkRateLimit(op.rateLimit ?? (claims || cronOk || scrapeOk ? 'authenticated' : 'public'), identity);
    if (!limit.success) {
      throw new AppError('RATE_LIMIT_EXCEEDED', 'Too many requests', { limit: limit.limit, reset: Math.ceil(limit.reset / 1000) });
    }

    if (op.auth === 'cron' && !cronOk) throw new AppError('UNAUTHORIZED', 'Missing or invalid scheduler secret');
    // A client that sends a bearer token means to be that user: a bad one is refused everywhere,
    // public reads included, rather than answered as if anonymous. (An expired session cookie,
    // which the browser sends by itself, just reads public pages as a visitor.)
    if (op.auth !== 'cron' && !scrapeOk && cred?.via === 'bearer' && !claims) {
      throw new AppError('UNAUTHORIZED', cred.token ? 'Invalid or expired token' : 'Authorization must be "Bearer <token>"');
    }
    if ((op.auth === 'user' || op.auth === 'metrics') && !claims && !scrapeOk) throw new AppError('UNAUTHORIZED', 'Missing or invalid token');
    call.transportChecks?.(claims);

    let replayed = false;
    const value = await runWithDeadline(op.deadlineMs ?? DEFAULT_DEADLINE_MS, async () => {
      // Authorisation before validation: on an operation that requires more than a player may do
      // (moderate, admin) the permissions are checked before any input, so the answer to a caller
      // without them is 403 whatever the input (the 401 for no token came first, above).
      const early = claims && isPrivileged(op.requires) ? await principalFor(claims, cred!.via) : undefined;
      if (early) assertPermissions(early, op.requires);

      const rawParams = call.rawParams ?? {};
      assertText(rawParams, 'INVALID_PARAMETER', 'path parameter');
      const params = parseWith(op.params, rawParams, 'path parameter');
      const rawQuery = call.rawQuery ?? {};
      assertText(rawQuery, 'INVALID_PARAMETER', 'query parameter');
      const query = parseWith(op.query, rawQuery, 'query parameter');
      // A malformed key is refused before any input is read, like a bad parameter.
      const idempotencyKey = op.idempotent ? parseIdempotencyKey(call.idempotencyKey) : undefined;

      const rawBody = call.readBody ? await call.readBody() : undefined;
      const body = validateBody(op, rawBody);
      // Other operations load the user only now, once the input passed (provisioned on first sight),
      // except one whose answer is the same for every caller (`sameForEveryCaller`), when its token
      // is a plain signed one: a player's permissions cover what it requires, and it neither writes
      // nor minds a ban, so its row would be read for nothing. (A session's or a key's own lookup
      // loaded the row already: that caller's principal is built as always.)
      const callerless = claims && op.sameForEveryCaller && op.auth === 'public' && !claims.sessionUser && !isPrivileged(op.requires) && !isWriteOperation(op);
      const principal = early ?? (claims && !callerless ? await principalFor(claims, cred!.via, call.callerRead) : null);
      assertPermissions(principal, op.requires);
      if (principal?.isBanned && op.method !== 'GET' && !op.allowBanned) {
        throw new AppError('USER_BANNED', 'This account is banned: it can read but not post, trade or change anything');
      }
      const ctx = { caller: principal && toCaller(principal), principal, params, query, body };
      const dryRun = isDryRunBody(body);
      // An API key's caps (lib/api-keys/caps.ts), before anything is written: a refusal writes
      // nothing; the day's room a call took is given back when it fails or replays.
      const claim = principal?.apiKey && op.keyCaps ? op.keyCaps(body as never) : null;
      const release = claim ? await holdKeyCaps(principal!.apiKey!, { ...claim, dryRun: claim.dryRun ?? dryRun }) : null;
      try {
        let value: T;
        // A dry run (`dryRun: true`, ./dry-run.ts) changes nothing: its key is neither stored nor replayed.
        if (!idempotencyKey || !principal || dryRun) {
          // Read-your-writes is kept per token subject, which a callerless call knows too.
          const reads = await readsTarget(op, claims?.subject ?? null);
          value = await runReads(reads, () => fn(ctx), op.id);
        } else {
          const fingerprint = requestFingerprint(op.id, rawParams, rawBody);
          const run = await runIdempotent({ userId: principal.userId, key: idempotencyKey, operation: op.id, fingerprint, status: op.status ?? 200 }, () => fn(ctx));
          replayed = run.replayed;
          value = run.value;
          if (replayed) await release?.();
        }
        // An account that trades through a key shows as a bot from then on (once: the mark sticks).
        if (principal?.apiKey && !dryRun && !principal.user.botSince && op.requires?.includes('trade')) await markBot(principal.userId);
        // Read-your-writes: this user's next reads stay on the primary a while (no-op without replicas).
        if (principal && !dryRun && isWriteOperation(op)) await noteWrite(principal.subject);
        return value;
      } catch (e) {
        await release?.();
        throw e;
      }
    });
    return { ok: true, value, limit, ...(replayed ? { replayed } : {}) };
  } catch (thrown) {
    const error = typedError(op, thrown, call.requestId);
    if (identity && isAppError(error)) void notePenalty(identity, error.code);
    const retryAfter =
      isAppError(error) && error.code === 'RATE_LIMIT_EXCEEDED' && limit ? Math.max(1, Math.ceil((limit.reset - Date.now()) / 1000)) : undefined;
    return { ok: false, error, limit, retryAfter };
  } finally {
    if (call.request) noteCallCount(call.request, limit);
  }
}
