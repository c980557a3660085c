/**
 * Reading ApiErrors in the UI: user-facing text per error code and field errors from a
 * VALIDATION_ERROR's zod issues. The UI decides by `code`, never by message text. No I/O.
 */
import { ApiError } from '@/lib/client/api';

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

export const hasErrorCode = (e: unknown, ...codes: string[]) => isApiError(e) && codes.includes(e.code);

/** 4xx answers are final (retrying will not help); network errors and 5xx may be retried. */
export const isClientError = (e: unknown) => isApiError(e) && e.status >= 400 && e.status < 500;

const MESSAGES: Record<string, string> = {
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

/** A sentence to show for an error: per code where we know better, the server's message otherwise. */
export const describeError = (e: unknown): string => {
  if (isApiError(e)) return MESSAGES[e.code] ?? e.message;
  return 'Something went wrong. Try again.';
};

type TIssue = { path?: string; message?: string };

/** Field → message from VALIDATION_ERROR details ({issues: [{path, message}]}). */
export const getFieldErrors = (e: unknown): Record<string, string> => {
  if (!isApiError(e) || e.code !== 'VALIDATION_ERROR') return {};
  const issues = Array.isArray(e.details?.issues) ? (e.details.issues as TIssue[]) : [];
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path?.split('.')[0];
    if (field && issue.message && !out[field]) out[field] = issue.message;
  }
  return out;
};
