/**
 * The error model: AppError(code, message, details?) and the one table that maps each code to its
 * HTTP status (the codes each operation may answer are listed in the OpenAPI document,
 * /api/openapi.json, as its `x-error-codes`). A thrown error gets its status from this table,
 * never from the thrower. Pure, no I/O: services throw these, both transports (REST, A2A) map
 * them, and the browser's client types its errors by the same codes.
 */
export const ERROR_STATUS = {
  UNAUTHORIZED: 401, // missing or invalid token
  FORBIDDEN: 403, // insufficient permissions, another user's data, not an admin
  NOT_FOUND: 404, // resource not found
  MARKET_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  INVALID_PARAMETER: 400, // invalid query or path parameter
  VALIDATION_ERROR: 400, // invalid request body
  INSUFFICIENT_BALANCE: 400,
  INSUFFICIENT_SHARES: 400,
  INVALID_TRADE_SIZE: 400,
  USERNAME_TAKEN: 400,
  /** A username may change once per 30 days; details carry the next allowed time. */
  USERNAME_CHANGE_TOO_SOON: 400,
  /** Trading a resolved market or one past its resolution date. */
  MARKET_CLOSED: 400,
  POSITION_CLOSED: 400, // the perpetual position is already closed or liquidated
  POSITION_NOT_FOUND: 404,
  /** Orders (issue 32): a limit price outside 0.01 to 0.99 or finer than 4 decimal places. */
  INVALID_LIMIT_PRICE: 400,
  ORDER_NOT_FOUND: 404,
  /** Cancelling an order that is filled, cancelled, expired or triggered. */
  ORDER_NOT_OPEN: 409,
  /** A clientOrderId the caller already uses on an open order. */
  DUPLICATE_CLIENT_ORDER_ID: 409,
  /** The pool takes no deposits: closed by its manager, or its value is gone. */
  POOL_INACTIVE: 400,
  /** The pool cannot raise the cash for this withdrawal now; details carry what it has. */
  INSUFFICIENT_LIQUIDITY: 400,
  CANNOT_FOLLOW_SELF: 400,
  ALREADY_FOLLOWING: 400,
  /** Moderation's "already blocked, muted or reported", and other state conflicts. */
  CONFLICT: 409,
  ALREADY_BLOCKED: 409,
  ALREADY_MUTED: 409,
  /** The same reporter, target and category within 24 hours; details carry the first report's id. */
  DUPLICATE_REPORT: 409,
  /** A report action its state does not allow (resolving a report already resolved or dismissed). */
  INVALID_REPORT_STATE: 409,
  /** Unblock or unmute of someone not blocked or muted. */
  NOT_BLOCKED: 404,
  NOT_MUTED: 404,
  POST_NOT_FOUND: 404,
  REPORT_NOT_FOUND: 404,
  /** A block stands between the caller and that user (either direction): no follow, reply, like, share or message. */
  USER_BLOCKED: 403,
  /** The caller's account is banned: its token still reads, but every write is refused. */
  USER_BANNED: 403,
  CHAT_NOT_FOUND: 404,
  /** The chat exists but the caller is not (or no longer) a member. */
  NOT_CHAT_MEMBER: 403,
  /** The same text as the sender's previous message in that chat, within a minute. */
  DUPLICATE_MESSAGE: 409,
  /** Too many messages in one chat in a few seconds; details carry when to try again. */
  MESSAGE_FLOOD: 429,
  GROUP_NOT_FOUND: 404,
  /** An invite-only group without a pending invite for the caller. */
  INVITE_REQUIRED: 403,
  ALREADY_MEMBER: 409,
  NOT_GROUP_MEMBER: 404,
  /** An invite that does not exist or is someone else's. */
  INVITE_NOT_FOUND: 404,
  /** The invite was already accepted or declined. */
  INVITE_ALREADY_ANSWERED: 409,
  /** A points transfer or correction larger than the points held; details carry required and available. */
  INSUFFICIENT_POINTS: 400,
  /** Transferring points to oneself. */
  CANNOT_TRANSFER_TO_SELF: 400,
  /** A referral code that names no user. */
  INVALID_REFERRAL_CODE: 400,
  /** One's own referral code. */
  SELF_REFERRAL: 400,
  /** The player already has a referrer (the first one stays). */
  ALREADY_REFERRED: 409,
  /** A referral code sent after the player's signup was complete: codes apply at signup only. */
  REFERRAL_TOO_LATE: 409,
  /** A social platform already linked to this account. */
  ALREADY_LINKED: 409,
  /** The social account or share could not be verified (a refused token, a missing verifier in production). */
  VERIFICATION_FAILED: 400,
  SHARE_ACTION_NOT_FOUND: 404,
  /** The waitlist bonus (email or wallet) was already claimed by this player. */
  BONUS_ALREADY_CLAIMED: 409,
  /** The email or wallet address belongs to another player. */
  EMAIL_TAKEN: 409,
  WALLET_TAKEN: 409,
  /** The wallet signature is not the claimed address's EIP-191 signature of the challenge (another signer, another text, malformed). */
  INVALID_SIGNATURE: 400,
  /** No wallet challenge with that id was issued to this account (another account's challenges are not found), or none is open for the address. */
  CHALLENGE_NOT_FOUND: 404,
  /** The wallet challenge was issued for another address than the one claimed. */
  CHALLENGE_MISMATCH: 400,
  /** The wallet challenge is past its expiry (10 minutes): ask for a new one. */
  CHALLENGE_EXPIRED: 400,
  /** The wallet challenge already bound a wallet: each is used once. */
  CHALLENGE_USED: 400,
  /** No open email verification of this player has that token (a wrong, used or replaced token, or another player's). */
  EMAIL_TOKEN_INVALID: 400,
  /** The email verification token is past its expiry (24 hours): ask for a new one. */
  EMAIL_TOKEN_EXPIRED: 400,
  /** This server sends no email (production without a mail transport, lib/mail): email verification is not configured. */
  EMAIL_NOT_CONFIGURED: 503,
  /** Share rewards need the platform's account linked (link-social) first; a platform that cannot be linked pays no share reward. */
  SOCIAL_NOT_LINKED: 400,
  /** The external post is not by the player's linked handle on that platform. */
  SHARE_NOT_YOURS: 403,
  /** That external post already verified a share (this player's or another's): a post verifies one share, ever. */
  SHARE_POST_ALREADY_USED: 409,
  /** The day's share verifications are used up (per UTC day of game time); details carry the limit and when the next day starts. */
  SHARE_DAILY_LIMIT: 429,
  /** An agent route called with a player's token. */
  NOT_AN_AGENT: 403,
  /** Blocking, muting or reporting oneself, or asking one's own block or mute status. */
  CANNOT_TARGET_SELF: 400,
  /** An A2A payment request that does not exist, or is neither the caller's to pay nor to receive. */
  PAYMENT_NOT_FOUND: 404,
  /** An A2A payment request past its expiry: a new one must be made. */
  PAYMENT_EXPIRED: 410,
  /** An A2A payment to oneself. */
  CANNOT_PAY_SELF: 400,
  /** An API key's call outside its scopes (read, trade, social); details carry what it needs and what the key has. */
  INSUFFICIENT_SCOPE: 403,
  /** An API key's order or trade above its per-order amount, past its daily limit or above its leverage cap; details carry the limit. */
  KEY_LIMIT_EXCEEDED: 403,
  /** A heartbeat sent with another credential than the key it names. */
  NOT_THIS_KEY: 403,
  /** A player has as many live API keys as allowed (25): revoke one first. */
  TOO_MANY_KEYS: 409,
  /** An API key that does not exist, is revoked, or is another player's. */
  API_KEY_NOT_FOUND: 404,
  /** An A2A task that does not exist or is another caller's (JSON-RPC -32001). */
  TASK_NOT_FOUND: 404,
  /** An A2A task already finished (JSON-RPC -32002). */
  TASK_NOT_CANCELABLE: 409,
  /** An Idempotency-Key already used by this caller for a different request (another operation or body). */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** The first request with this Idempotency-Key is still running: retry with the same key shortly. */
  IDEMPOTENCY_KEY_IN_USE: 409,
  /** A known path asked with a method it does not serve; the Allow header lists those it does. */
  METHOD_NOT_ALLOWED: 405,
  /** The body is larger than the route accepts (64 KiB of JSON unless the route says otherwise); refused unread. */
  PAYLOAD_TOO_LARGE: 413,
  /** The URL (path and query) is longer than 8 KiB (over Node's 16 KB header limit the server itself answers it). */
  URI_TOO_LONG: 414,
  /** The request's header section is over Node's 16 KB limit: answered by the server (lib/http/node-guard.mjs), before any route. */
  REQUEST_HEADER_FIELDS_TOO_LARGE: 431,
  /** The request did not arrive in time: answered by the server (lib/http/node-guard.mjs), before any route. */
  REQUEST_TIMEOUT: 408,
  /** Not a valid HTTP/1.1 request at all: answered by the server (lib/http/node-guard.mjs), before any route. */
  BAD_REQUEST: 400,
  /** The body's Content-Type is not one the route reads (JSON routes: application/json or application/*+json; the upload: multipart/form-data). */
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  /** A dependency (database, rate-limit store) is not answering. */
  SERVICE_UNAVAILABLE: 503,
  /** The request ran past its deadline (10 s unless the route says otherwise); nothing it did was kept. */
  DEADLINE_EXCEEDED: 503,
} as const;

export type TErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: TErrorCode;
  readonly details?: Record<string, unknown>;
  /** Headers the answer carries besides the usual ones (Allow on a 405). */
  readonly headers?: Record<string, string>;

  constructor(code: TErrorCode, message: string, details?: Record<string, unknown>, headers?: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

export type TErrorBody = {
  success: false;
  error: { code: string; message: string; details?: Record<string, unknown> };
};

export function errorBody(code: string, message: string, details?: Record<string, unknown>): TErrorBody {
  return {
  success: false,
  error: details ? { code, message, details } : { code, message },
};
}
