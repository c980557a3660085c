/**
 * The names the service's own sessions go by. Pure constants, no I/O: the environment check
 * (lib/env.ts), token verification (jwt.ts), the cookie (lib/principals) and the OpenAPI
 * document all read them from here.
 */

/** `iss` of every session token this service mints; an external issuer may never use it. */
export const SESSION_ISSUER = 'playmoney';

/** `aud` of every session token this service mints; an external audience may never be it. */
export const SESSION_AUDIENCE = 'playmoney:session';

/**
 * The session cookie in production: the `__Host-` prefix makes the browser refuse it unless it is
 * Secure, has Path=/ and no Domain, so no sibling subdomain or plain-http page can plant or
 * overwrite it.
 */
export const SESSION_COOKIE_SECURE = '__Host-pm_session';

/** The session cookie outside production, where the server speaks plain http (development, tests). */
export const SESSION_COOKIE = 'pm_session';

/** The session cookie's name in this mode. */
export function sessionCookieName(isProduction: boolean) {
  return (isProduction ? SESSION_COOKIE_SECURE : SESSION_COOKIE);
}
