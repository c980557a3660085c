/**
 * The bounds an HTTP request is held to before any work is done on it (README "Limits and bad
 * input"): body size, nesting, URL and query, media types. Pure constants and cheap checks, no
 * I/O. A route may raise or lower its body limit in its contract (lib/contracts/endpoint.ts
 * `bodyLimit`); the rest hold for every route. The transport-neutral bounds (text, deadlines)
 * are lib/operations/bounds.ts.
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
/** JSON nesting (objects and arrays) deeper than this is refused before it is parsed. */
export const MAX_JSON_DEPTH = 32;
/** Path plus query, in characters of the request URL as received. */
export const MAX_URL_LENGTH = 8 * KIB;
/** Query parameters, counting repeats. */
export const MAX_QUERY_PARAMS = 50;

/**
 * Whether JSON text nests objects and arrays deeper than `max`: one pass over the characters,
 * skipping strings, so a body is measured before JSON.parse builds anything.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
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
}

/** The media type of a Content-Type header, lower case, without parameters ('' when absent). */
export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * Content types a JSON route reads: `application/json` and `application/*+json`, nothing else.
 * `text/plain`, a form or a body with no Content-Type at all is refused with 415: those are what
 * an HTML form or a "simple" cross-site fetch can send without a CORS preflight, so a write that
 * needs JSON cannot be forged from another site (README "CORS policy for /api"). A write with no
 * body at all carries no media type and is not refused for it.
 */
export function isJsonMediaType(mediaType: string) {
  return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType);
}
