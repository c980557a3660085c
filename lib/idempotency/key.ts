/**
 * The pure half of idempotency keys: what a valid key is, and the fingerprint of a request that a
 * repeat must match. No I/O.
 *
 * A key is 1 to 255 visible ASCII characters (a UUID per user action is usual); anything else is
 * refused with 400 before the operation runs, so a key never reaches the database malformed.
 * The fingerprint is SHA-256 over the operation's id, its path parameters and its body as received
 * (parsed JSON, object keys sorted), so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request
 * and `{"amount":"10"}` and `{"amount":"10.0"}` are not: a key promises one exact request.
 */
import { createHash } from 'node:crypto';
import { AppError } from '@/lib/errors/app-error';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const MAX_KEY_LENGTH = 255;
/** How long a stored answer is replayed (README "Idempotent writes": 24 hours). */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

const VISIBLE_ASCII = /^[\x21-\x7E]+$/;

/** The key a request carries, or undefined when it carries none; 400 for a malformed one. */
export function parseIdempotencyKey(raw: string | null | undefined): string | undefined {
  if (raw === null || raw === undefined) return undefined;
  const key = raw.trim();
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !VISIBLE_ASCII.test(key)) {
    throw new AppError('INVALID_PARAMETER', `Invalid ${IDEMPOTENCY_HEADER} header: 1 to ${MAX_KEY_LENGTH} visible ASCII characters`, {
      header: IDEMPOTENCY_HEADER,
    });
  }
  return key;
}

/** JSON with object keys sorted at every level: one text per value, whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value as object)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

/** The fingerprint a repeat must match: operation, path parameters and body (hex SHA-256). */
export function requestFingerprint(operation: string, params: unknown, body: unknown): string {
  return createHash('sha256')
    .update(canonicalJson({ operation, params: params ?? {}, body: body ?? null }))
    .digest('hex');
}
