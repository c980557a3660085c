/**
 * Handlers for what no operation serves, so that the API speaks JSON everywhere:
 *   - notFound: every method of app/api/[[...path]] (paths under /api with no route file): 404;
 *   - methodNotAllowed: re-exported by each route file for the methods it does not define
 *     (Next.js would otherwise answer a bare 405 with no body and none of our headers): 405 with
 *     Allow; OPTIONS answers the CORS preflight (204, Allow and the Access-Control-* headers).
 * All go through route(), so rate limits, their headers and the envelope are the usual ones.
 */
import { apiMethodNotAllowed, apiNotFound, apiPreflight } from '@/lib/contracts/fallback';
import { AppError } from '@/lib/errors/app-error';
import { route } from './route';
import { methodsForPath } from './route-table';
import { preflightHeaders } from './security-headers';

const notFound = route(apiNotFound, async ({ req }) => {
  throw new AppError('NOT_FOUND', `No API route at ${req.nextUrl.pathname}`);
});

const methodNotAllowed = route(apiMethodNotAllowed, async ({ req }) => {
  const allow = [...methodsForPath(req.nextUrl.pathname), 'OPTIONS'].join(', ');
  throw new AppError('METHOD_NOT_ALLOWED', `${req.method} is not served at ${req.nextUrl.pathname}; use ${allow}`, { allow }, { Allow: allow });
});

const preflight = route(apiPreflight, async ({ req }) => {
  const methods = methodsForPath(req.nextUrl.pathname);
  if (methods.length === 0) throw new AppError('NOT_FOUND', `No API route at ${req.nextUrl.pathname}`);
  return new Response(null, { status: 204, headers: { Allow: [...methods, 'OPTIONS'].join(', '), ...preflightHeaders(methods) } });
});

export const notFoundHandlers = { GET: notFound, POST: notFound, PUT: notFound, PATCH: notFound, DELETE: notFound, OPTIONS: notFound };
export const methodNotAllowedHandlers = {
  GET: methodNotAllowed,
  POST: methodNotAllowed,
  PUT: methodNotAllowed,
  PATCH: methodNotAllowed,
  DELETE: methodNotAllowed,
  OPTIONS: preflight,
};
