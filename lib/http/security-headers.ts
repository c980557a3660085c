/**
 * Security and CORS headers, in one place: the API's (route.ts sets them on every /api answer)
 * and the pages' (proxy.ts sets them, with a fresh script nonce per page). Pure, no I/O.
 *
 * CORS policy for /api: any origin may call the API with a bearer token (the answer carries
 * `Access-Control-Allow-Origin: *` and never `Allow-Credentials`, so a browser does not send or
 * expose cookies cross-origin). What the session cookie can authorise is held to our own origin
 * by route.ts (README "No write answers to a cross-site request"): cookie writes (`assertSameOrigin`),
 * GETs that write (`assertSameOriginGet`), sign-in with or without a cookie (`assertNotCrossSite`),
 * and writes take JSON only, which a cross-site form cannot send.
 */

const isProduction = () => process.env.NODE_ENV === 'production';

/** HSTS only in production: a development server on http://localhost must stay reachable. */
const HSTS = 'max-age=63072000; includeSubDomains';

const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()';

/** Headers every answer carries, page or API. */
const commonHeaders = (): Record<string, string> => ({
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': PERMISSIONS_POLICY,
  'X-Frame-Options': 'DENY',
  ...(isProduction() ? { 'Strict-Transport-Security': HSTS } : {}),
});

/** Request headers a cross-origin API client may send. */
export const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, Last-Event-ID, Cache-Control, A2A-Version, Mcp-Session-Id, Mcp-Protocol-Version';
/** Response headers a cross-origin API client may read. */
export const CORS_EXPOSE_HEADERS =
  'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id, Retry-After, Allow, Idempotent-Replayed, Mcp-Session-Id, A2A-Version';

/**
 * An API answer is data, never a document: no script, no framing, no sniffing. (Uploaded images
 * served under /api set the same policy plus `sandbox` themselves: lib/uploads/service.ts.)
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

let api: Readonly<Record<string, string>> | undefined;

/** The headers of every API answer (built once: they depend only on NODE_ENV). */
export function apiHeaders(): Readonly<Record<string, string>> {
  return (api ??= Object.freeze({
    ...commonHeaders(),
    'Content-Security-Policy': API_CSP,
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS,
  }));
}

/** The answer to a CORS preflight for a path that serves `methods`. */
export function preflightHeaders(methods: readonly string[]): Record<string, string> {
  return {
  'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
  'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS,
  'Access-Control-Max-Age': '600',
};
}

/**
 * A page's policy. Scripts: only ours, by nonce ('strict-dynamic' lets them load the chunks they
 * import); development adds 'unsafe-eval' for React's dev tooling and websockets for hot reload.
 * Styles allow inline style attributes (charts and bars size themselves with them); images may
 * come from anywhere over https (profile pictures are user-supplied absolute URLs). Workers and the
 * manifest: our origin only.
 */
export function pageCsp(nonce: string): string {
  const dev = !isProduction();
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    // The service worker (public/sw.js, the installable app's offline shell) and the web app manifest: ours only.
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function pageHeaders(nonce: string): Record<string, string> {
  return {
  ...commonHeaders(),
  'Content-Security-Policy': pageCsp(nonce),
};
}

/** Static files (scripts, styles, images, fonts): the common headers, no page policy. */
export function staticHeaders(): Record<string, string> {
  return commonHeaders();
}
