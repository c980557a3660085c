/**
 * Where a push notification may go, pure: an absolute http(s) URL without credentials; in
 * production https only and never a loopback, private, link-local or otherwise internal address
 * (the service must not become a way to reach its own network). Outside production plain http and
 * localhost are allowed, so tests and local agents can listen on 127.0.0.1. deliver.ts checks the
 * addresses a name resolves to again, in production, before each POST.
 */
import { isIP } from 'node:net';
import { AppError } from '@/lib/errors/app-error';

export const MAX_PUSH_URL_LENGTH = 2048;

/** Whether an IP address (v4 or v6, as text) is one a production push must never reach. */
export function isInternalAddress(ip: string): boolean {
  const addr = ip.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(addr) === 4) {
    const [a, b] = addr.split('.').map(Number) as [number, number, number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224
    );
  }
  if (isIP(addr) === 6) {
    if (addr === '::' || addr === '::1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(addr);
    if (mapped) return isInternalAddress(mapped[1]!);
    return /^(fc|fd|fe8|fe9|fea|feb|ff)/.test(addr) || addr.startsWith('64:ff9b:') || addr.startsWith('2001:db8:');
  }
  return false;
}

const INTERNAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/** The push URL as given, or INVALID_PARAMETER saying why not. */
export function checkPushUrl(raw: string, opts: { production: boolean }): URL {
  const refuse = (why: string): never => {
    throw new AppError('INVALID_PARAMETER', `Invalid push notification url: ${why}`, { field: 'url' });
  };
  if (raw.length > MAX_PUSH_URL_LENGTH) refuse(`at most ${MAX_PUSH_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') refuse('http or https only');
  if (url.username || url.password) refuse('no credentials in the URL (use token or authentication)');
  if (!opts.production) return url;
  if (url.protocol !== 'https:') refuse('https only');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) ? isInternalAddress(host) : INTERNAL_NAMES.test(host) || !host.includes('.')) refuse('not a public address');
  return url;
}
