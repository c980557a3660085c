/**
 * Verifying external social accounts and shares. One interface, two implementations:
 *   - introspection: a platform's OAuth token-introspection endpoint (RFC 7662), configured per
 *     platform (SOCIAL_A_INTROSPECTION_URL, SOCIAL_B_INTROSPECTION_URL). An account is verified
 *     when the endpoint says the access token is `active` (and, when it names one, the username
 *     matches); a share when it says the external post's id is `active` for that platform
 *     (token_type_hint=post, with the post's URL), reporting the post's author when it names
 *     one (`username`): the service holds it to the player's linked handle;
 *   - permissive: outside production, anything is accepted (development and tests); in
 *     production, a platform without a configured endpoint is refused.
 */
import 'server-only';
import { env } from '@/lib/env';

export const SOCIAL_PLATFORMS = ['social_a', 'social_b'] as const;
export type TSocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

/** ok: verified; `username` is the account's handle or the post's author, when the platform names it. */
export type TVerdict = { ok: true; username?: string } | { ok: false; reason: string };

export type TSocialVerifier = {
  verifyAccount(input: { platform: TSocialPlatform; accessToken: string; username: string }): Promise<TVerdict>;
  verifyShare(input: { platform: string; postId: string; url: string }): Promise<TVerdict>;
};

const INTROSPECTION_TIMEOUT_MS = 5_000;

const introspect = async (url: string, form: Record<string, string>): Promise<{ active?: unknown; username?: unknown } | null> => {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(INTROSPECTION_TIMEOUT_MS),
    });
    if (!res.ok) return null;
    return (await res.json()) as { active?: unknown; username?: unknown };
  } catch {
    return null;
  }
};

const urlFor = (platform: string) => env().socialIntrospection[platform as TSocialPlatform];

export const configuredVerifier: TSocialVerifier = {
  async verifyAccount({ platform, accessToken, username }) {
    const url = urlFor(platform);
    if (!url) {
      return env().isProduction
        ? { ok: false, reason: `No verifier is configured for ${platform}` }
        : { ok: true, username };
    }
    const answer = await introspect(url, { token: accessToken, token_type_hint: 'access_token' });
    if (!answer) return { ok: false, reason: `${platform} did not answer the verification` };
    if (answer.active !== true) return { ok: false, reason: 'The access token is not active' };
    if (typeof answer.username === 'string' && answer.username.toLowerCase() !== username.toLowerCase()) {
      return { ok: false, reason: 'The access token belongs to another account' };
    }
    return { ok: true, username: typeof answer.username === 'string' ? answer.username : username };
  },
  async verifyShare({ platform, postId, url: postUrl }) {
    const url = urlFor(platform);
    if (!url) {
      return env().isProduction ? { ok: false, reason: `No verifier is configured for ${platform}` } : { ok: true };
    }
    const answer = await introspect(url, { token: postId, token_type_hint: 'post', url: postUrl });
    if (!answer) return { ok: false, reason: `${platform} did not answer the verification` };
    if (answer.active !== true) return { ok: false, reason: 'The shared post was not found' };
    return typeof answer.username === 'string' ? { ok: true, username: answer.username } : { ok: true };
  },
};

let override: TSocialVerifier | undefined;
export function socialVerifier(): TSocialVerifier {
  return override ?? configuredVerifier;
}
/** Tests: use this verifier until reset (undefined). */
export function setSocialVerifierForTests(v: TSocialVerifier | undefined) {
  override = v;
}
