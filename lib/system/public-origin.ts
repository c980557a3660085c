/**
 * The absolute origin for links that leave the site (upload publicUrl, share images): PUBLIC_BASE_URL
 * when configured, otherwise the origin the request came to, a proxy's X-Forwarded-Host and
 * -Proto first, as the same-origin check of the route wrapper reads them.
 */
import { env } from '@/lib/env';

export function publicOrigin(headers: Headers, requestUrl?: string): string {
  const configured = env().publicBaseUrl;
  if (configured) return configured;
  const url = requestUrl ? new URL(requestUrl) : undefined;
  const first = (name: string) => headers.get(name)?.split(',')[0]?.trim() || undefined;
  const host = first('x-forwarded-host') ?? first('host') ?? url?.host ?? 'localhost';
  const proto = first('x-forwarded-proto') ?? url?.protocol.replace(':', '') ?? 'http';
  return `${proto}://${host}`;
}
