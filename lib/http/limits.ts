/**
 * The bounds every request is held to before any work is done on it (README "Limits and bad
 * input"). Pure constants and cheap checks, no I/O. A route may raise or lower its body limit and
 * deadline in its contract (lib/contracts/endpoint.ts `bodyLimit`, `deadlineMs`); the rest hold
 * for every route.
 *
 * Why each exists: an oversized or deeply nested body, a huge query string or a string full of
 * control characters must cost the server almost nothing and be refused with a clear 4xx, never
 * occupy the event loop (one 1 MB post once held the CPU for minutes) or reach the database
 * (a NUL byte made PostgreSQL fail with a 500).
 */

export const KIB = 1024;
export const MIB = 1024 * KIB;

/** JSON bodies, unless a route declares otherwise. */
export const DEFAULT_JSON_BODY_LIMIT = 64 * KIB;
/** Multipart form overhead allowed on top of a file limit (boundaries, part headers, small fields). */
export const MULTIPART_OVERHEAD = 64 * KIB;
/** JSON nesting (objects and arrays) deeper than this is refused before it is parsed. */
export const MAX_JSON_DEPTH = 32;
/** Path plus query, in characters of the request URL as received. */
export const MAX_URL_LENGTH = 8 * KIB;
/** Query parameters, counting repeats. */
export const MAX_QUERY_PARAMS = 50;
/** A request, from the start of reading its body to its answer; the tick and uploads declare their own. */
export const DEFAULT_DEADLINE_MS = 10_000;
/**
 * One SQL statement of an API request on PostgreSQL (set on the pool's connections). Below the
 * deadline, so a statement started in time ends or fails before the request's answer is due.
 */
export const STATEMENT_TIMEOUT_MS = 8_000;

/**
 * Characters no text field accepts: C0 controls other than tab, line feed and carriage return
 * (NUL among them, which PostgreSQL text cannot store).
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
/** In a /u pattern a surrogate pair is one code point, so \p{Cs} matches only a lone half. */
const BAD = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|\p{Cs}/u;

/** Why a string is refused, or null when it is acceptable text. One linear pass for the usual (good) case. */
export const badTextReason = (s: string): string | null => {
  if (!BAD.test(s)) return null;
  return CONTROL.test(s) ? 'contains a control character' : 'contains a lone surrogate (not valid Unicode)';
};

export type TBadValue = { path: string; reason: string };

/**
 * The first string (value or object key) in a parsed JSON value, path or query that is not
 * acceptable text, with its path; null when every string is. Iterative, so depth cannot overflow
 * the stack; linear in the size of the value.
 */
export const findBadText = (value: unknown): TBadValue | null => {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const reason = badTextReason(v);
      if (reason) return { path, reason };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], path ? `${path}.${i}` : String(i)]);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        const reason = badTextReason(k);
        if (reason) return { path: path ? `${path}.${k}` : k, reason: `key ${reason}` };
        stack.push([child, path ? `${path}.${k}` : k]);
      }
    }
  }
  return null;
};

/**
 * Whether JSON text nests objects and arrays deeper than `max`: one pass over the characters,
 * skipping strings, so a body is measured before JSON.parse builds anything.
 */
export const jsonDepthExceeds = (text: string, max: number): boolean => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
};

/** The media type of a Content-Type header, lower case, without parameters ('' when absent). */
export const mediaTypeOf = (contentType: string | null): string =>
  (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();

/**
 * Content types a JSON route reads: JSON itself, `text/plain` (what fetch sends for a string body
 * when the caller sets none) and none at all. Forms, multipart and the rest are refused with 415.
 */
export const isJsonMediaType = (mediaType: string) =>
  mediaType === '' || mediaType === 'application/json' || mediaType === 'text/plain' || /^application\/[\w.+-]+\+json$/.test(mediaType);
