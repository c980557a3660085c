/**
 * An endpoint is declared once: method, path, auth kind and required permissions, rate-limit rule and zod schemas for its
 * params, query, body and response. The route wrapper, the typed client and the OpenAPI document
 * all read the same declaration. No I/O.
 */
import type { TKeyCapsClaim } from '@/lib/api-keys/limits';
import type { z } from 'zod';
import type { TPermission } from '@/lib/auth/permissions';
import type { TErrorCode } from '@/lib/errors/app-error';
import type { TRateLimitRule } from '@/lib/contracts/rate-limits';

export type THttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How the caller authenticates (what it may do is `requires`, below):
 * public: anyone; a valid token, when sent, personalises the answer.
 * user: a valid token (bearer header or session cookie).
 * cron: the scheduler's secret as the bearer token.
 * metrics: a valid token with `requires` (an administrator's), or the scrape secret METRICS_TOKEN as
 *   the bearer token (no principal: a Prometheus scraper is no user).
 */
export type TAuthKind = 'public' | 'user' | 'cron' | 'metrics';

/**
 * The caller's authentication and what it must be allowed to do. `requires`: the permissions
 * (lib/auth/permissions.ts) the caller's principal must all have, 403 FORBIDDEN otherwise; checked
 * whenever there is a principal (on a public operation, only when a token was sent). Every
 * operation with a caller declares it: ['read'] for a read, ['trade'] for a money-moving call,
 * ['admin'] for an administrator's route and so on. The scheduler's operations have no principal.
 */
export type TEndpointAccess =
  | { auth: 'public' | 'user' | 'metrics'; requires: readonly TPermission[] }
  | { auth: 'cron'; requires?: never };

export type TEndpoint = TEndpointFields & TEndpointAccess;

type TEndpointFields = {
  id: string;
  method: THttpMethod;
  /** OpenAPI-style path with {param} segments. */
  path: string;
  summary: string;
  tag: string;
  /** Own rule from the Limits table; otherwise the caller's general rule. */
  rateLimit?: TRateLimitRule;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** multipart/form-data instead of JSON (image upload). */
  multipart?: boolean;
  response: z.ZodType;
  /** Media type of a success answer; application/json unless said otherwise (the SSE stream, image bytes). */
  responseType?: 'application/json' | 'text/event-stream' | 'text/plain' | 'image/*';
  /** Success status; 200 unless said otherwise. */
  status?: number;
  /** Whether the wrapper adds `success: true` (a few spec responses have no such field). */
  envelope?: boolean;
  errors?: readonly TErrorCode[];
  /** Largest body accepted, in bytes (lib/http/limits.ts: 64 KiB of JSON unless said here). */
  bodyLimit?: number;
  /** The request's deadline in ms (lib/clock/deadline.ts: 10 s unless said here). */
  deadlineMs?: number;
  /**
   * Body fields whose out-of-range values answer a code of their own instead of
   * VALIDATION_ERROR (a trade amount too small or too large is INVALID_TRADE_SIZE).
   */
  fieldErrors?: Readonly<Record<string, TErrorCode>>;
  /**
   * Not an operation of the REST API, so not in OpenAPI: the wrapper's JSON 404 and 405 answers,
   * and the A2A JSON-RPC transport (described by its agent card).
   */
  hidden?: boolean;
  /**
   * A JSON-RPC 2.0 transport (POST /api/a2a): its 200 carries JSON-RPC answers, errors included
   * (-32700, -32600, …, as the protocol requires), and 204 answers a batch of notifications only.
   */
  jsonRpc?: true;
  /** A write a banned user may still make (signing out); every other write answers 403 USER_BANNED. */
  allowBanned?: true;
  /**
   * Moves money or points: accepts an `Idempotency-Key` header (lib/idempotency). The first
   * answer is stored with the key, per caller, in the transaction of the effect; a repeat replays
   * it with `Idempotent-Replayed: true` and moves nothing.
   */
  idempotent?: true;
  /**
   * What an API key's caps (CONTRACT.md "API keys", lib/api-keys/caps.ts) hold this call to, from
   * its validated body: the currency it commits (`amount`: a buy's amount, an order's reserve, a
   * perp's margin, a deposit) and the leverage it uses. Null: this call commits nothing (a dry
   * run is still held to the caps, and reserves nothing). Only money-moving operations declare it.
   */
  keyCaps?: (body: never) => TKeyCapsClaim | null;
  /** false: the wrapper never reads the body (answers that cannot depend on it: the 404 and 405). */
  readsBody?: false;
  /**
   * A GET that changes state (the specification's legacy `GET /api/auth/onboard?username=…`). A
   * cookie caller gets it only from our own page's script (`Sec-Fetch-Site: same-origin`, not a
   * navigation or an image load), so a link or an image cannot make a signed-in player's browser
   * write; 403 otherwise. Bearer callers are unaffected (lib/http/route.ts).
   */
  writesOnGet?: true;
  /**
   * 'always': the origin is checked whether or not the request carries a cookie (sign-in, against
   * login CSRF): a foreign Origin, or a Sec-Fetch-Site other than same-origin, is 403. A client
   * that sends neither (not a browser) is let through.
   */
  sameOrigin?: 'always';
  /**
   * 'replica': a read that tolerates a second of lag (public lists, feeds, market data, profiles,
   * leaderboards) and may read a read replica (DATABASE_URL_REPLICA), unless the caller wrote in
   * the last few seconds (lib/operations/read-routing.ts). Unset: every read on the primary. Never
   * on what a caller must see current: their own account, balances and positions, notifications,
   * chats, admin, auth, game control, the event stream.
   */
  reads?: 'replica';
  /**
   * The answer is the same whoever asks (market data, health, public statistics): the operation's
   * function receives no caller, so a signed-in call does not load the caller's row for it (the
   * token is still verified, rate-limited by its subject and held to its scopes). Only for a GET
   * that needs no more than a player's permissions; test/structure holds the route's handler to it.
   */
  sameForEveryCaller?: true;
};

export function defineEndpoint<const E extends TEndpoint>(e: E): E {
  return e;
}

type TOut<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;
type TIn<S> = S extends z.ZodType ? z.input<S> : never;

export type TEndpointParams<E extends TEndpoint> = TOut<E['params']>;
export type TEndpointQuery<E extends TEndpoint> = TOut<E['query']>;
export type TEndpointBody<E extends TEndpoint> = TOut<E['body']>;
/** What a handler returns: the response without the `success` flag the wrapper adds. */
export type TEndpointResult<E extends TEndpoint> = Omit<z.input<E['response']>, 'success'>;
/** What a client receives. */
export type TEndpointResponse<E extends TEndpoint> = z.output<E['response']>;
/** What a client sends. */
export type TEndpointInput<E extends TEndpoint> = {
  params?: TIn<E['params']>;
  query?: TIn<E['query']>;
  body?: TIn<E['body']>;
};

export type { TKeyCapsClaim };
