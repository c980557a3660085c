/**
 * Reading ApiErrors in the UI: the one sentence to show for an error (general sentences per code,
 * which a domain or a call site may override) and field errors from a VALIDATION_ERROR's zod
 * issues. The UI decides by `code` (typed by the server's table), never by message text. No I/O.
 */
import { ApiError, type TApiErrorCode } from '@/lib/client/api';

export type { TApiErrorCode };

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

export function hasErrorCode(e: unknown, ...codes: TApiErrorCode[]) {
  return isApiError(e) && codes.includes(e.code);
}

/** 4xx answers are final (retrying will not help); network errors and 5xx may be retried. */
export function isClientError(e: unknown) {
  return isApiError(e) && e.status >= 400 && e.status < 500;
}

/**
 * Sentences by code. A value may also build its sentence from the error, for a code whose
 * server message is sometimes the best reason to show (a validation error that names the rule).
 */
export type TErrorMessages = Partial<Record<TApiErrorCode, string | ((error: ApiError) => string)>>;

const MESSAGES: TErrorMessages = {
  UNAUTHORIZED: 'You need to sign in first.',
  FORBIDDEN: 'You are not allowed to do that.',
  NOT_FOUND: 'We could not find that.',
  USER_NOT_FOUND: 'We could not find that user.',
  USERNAME_TAKEN: 'That username is already taken.',
  RATE_LIMIT_EXCEEDED: 'Too many requests. Wait a moment and try again.',
  NETWORK_ERROR: 'Could not reach the server. Check your connection.',
  INTERNAL_ERROR: 'Something went wrong on our side. Try again in a moment.',
  SERVICE_UNAVAILABLE: 'The service is briefly unavailable. Try again in a moment.',
};

/** The rate-limit sentence of the social actions (posting, commenting, liking, following). */
export const SOCIAL_PACE_MESSAGES: TErrorMessages = {
  RATE_LIMIT_EXCEEDED: 'You are going a little fast. Wait a moment and try again.',
};

/**
 * A sentence to show for an error: the override for its code if the caller gives one (a domain's
 * constant such as TRADE_ERROR_MESSAGES, or its own), else the general one, else the server's
 * message.
 */
export function describeError(e: unknown, overrides: TErrorMessages = {}): string {
  if (!isApiError(e)) return 'Something went wrong. Try again.';
  const message = overrides[e.code] ?? MESSAGES[e.code];
  if (message === undefined) return e.message;
  return typeof message === 'function' ? message(e) : message;
}

type TIssue = { path?: string; message?: string };

/** Field → message from VALIDATION_ERROR details ({issues: [{path, message}]}). */
export function getFieldErrors(e: unknown): Record<string, string> {
  if (!isApiError(e) || e.code !== 'VALIDATION_ERROR') return {};
  const issues = Array.isArray(e.details?.issues) ? (e.details.issues as TIssue[]) : [];
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path?.split('.')[0];
    if (field && issue.message && !out[field]) out[field] = issue.message;
  }
  return out;
}
