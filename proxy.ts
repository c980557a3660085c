/**
 * Runs before every page and static file (never /api: the route wrapper sets the API's headers,
 * and a proxy in front of API writes would make Next.js read every request body whole before
 * the route could refuse it unread). Pages get a Content-Security-Policy with a fresh script
 * nonce per request; Next.js reads the nonce from the request's policy header and puts it on
 * its own scripts (app/layout.tsx renders dynamically so there is a request to read it from).
 * Static files get the common headers. Values: lib/http/security-headers.ts.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { pageHeaders, staticHeaders } from '@/lib/http/security-headers';
import { REFERRAL_CODE_PATTERN, REFERRAL_COOKIE, REFERRAL_COOKIE_MAX_AGE_SEC } from '@/lib/referrals/link';

const isStatic = (pathname: string) => pathname.startsWith('/_next/') || /\.[a-z0-9]{2,5}$/i.test(pathname);

export function proxy(req: NextRequest) {
  if (isStatic(req.nextUrl.pathname)) {
    const res = NextResponse.next();
    for (const [k, v] of Object.entries(staticHeaders())) res.headers.set(k, v);
    return res;
  }
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const headers = pageHeaders(nonce);
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', headers['Content-Security-Policy']!);
  const res = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  // A referral link (any page with ?ref=CODE): the code rides in a cookie through sign-in to the
  // onboarding wizard, which prefills it. The first link followed wins, as the first referrer does.
  const ref = req.nextUrl.searchParams.get('ref');
  if (ref && REFERRAL_CODE_PATTERN.test(ref) && !req.cookies.get(REFERRAL_COOKIE)) {
    res.cookies.set(REFERRAL_COOKIE, ref.toUpperCase(), { path: '/', maxAge: REFERRAL_COOKIE_MAX_AGE_SEC, sameSite: 'lax' });
  }
  return res;
}

export const config = {
  // Everything but /api (and /api/…).
  matcher: ['/((?!api(?:/|$)).*)'],
};
