/**
 * Referral links, shared by the server and the browser (pure): the link a referred player
 * follows (the site with ?ref=CODE) and the cookie that carries the code from the first page
 * through sign-in to the onboarding wizard (set by proxy.ts, read by the wizard to prefill it).
 */
export const REFERRAL_COOKIE = 'pm_ref';
export const REFERRAL_COOKIE_MAX_AGE_SEC = 30 * 24 * 3600;
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9]{4,32}$/;

export function referralUrlFor(origin: string, code: string) {
  return `${origin}/?ref=${encodeURIComponent(code)}`;
}
