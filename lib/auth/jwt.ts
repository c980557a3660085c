/**
 * Access-token verification (jose). Accepts, per CONTRACT.md "Identity":
 * - RS256/ES256 tokens of an external identity provider, checked against AUTH_JWKS_URL with
 *   AUTH_ISSUER and AUTH_AUDIENCE when set;
 * - HS256 tokens signed with AUTH_JWT_SECRET (development, tests, self-hosted issuers);
 * - the service's own session tokens (agents, development sign-in), HS256 with issuer
 *   SESSION_ISSUER, signed with the session secret.
 * I/O: fetches the JWKS (jose caches it). Never throws on a bad token: returns null.
 *
 * A verified token's claims are remembered until the token expires (at most five minutes), so a
 * client sending the same token on every request pays for one signature check, not one each time.
 * Only successes are remembered; the memory is dropped whenever the configuration changes.
 */
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { env } from '@/lib/env';

export const SESSION_ISSUER = 'playmoney';

export type TTokenClaims = {
  subject: string;
  email?: string;
  name?: string;
  preferredUsername?: string;
  isAgent: boolean;
};

const encoder = new TextEncoder();

// Importing an HMAC key costs as much as the verification itself: import each secret once.
const hmacKeys = new Map<string, Promise<CryptoKey>>();
const hmacKey = (secret: string) => {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    hmacKeys.set(secret, key);
  }
  return key;
};

let jwks: { url: string; set: ReturnType<typeof createRemoteJWKSet> } | undefined;

const remoteKeys = (url: string) => {
  if (jwks?.url !== url) jwks = { url, set: createRemoteJWKSet(new URL(url)) };
  return jwks.set;
};

const toClaims = (p: JWTPayload): TTokenClaims | null => {
  if (typeof p.sub !== 'string' || p.sub === '') return null;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return {
    subject: p.sub,
    email: str(p.email),
    name: str(p.name),
    preferredUsername: str(p.preferred_username),
    isAgent: p.iss === SESSION_ISSUER && p.agent === true,
  };
};

const VERIFIED_MAX_ENTRIES = 10_000;
const VERIFIED_MAX_AGE_MS = 5 * 60_000;
const verified = new Map<string, { claims: TTokenClaims; until: number }>();
let verifiedFor: object | undefined;

/** The claims of a valid token, or null for anything else (bad signature, expired, malformed). */
export const verifyAccessToken = async (token: string): Promise<TTokenClaims | null> => {
  const cfg = env();
  if (verifiedFor !== cfg) {
    verified.clear();
    verifiedFor = cfg;
  }
  const hit = verified.get(token);
  if (hit) {
    if (hit.until > Date.now()) return hit.claims;
    verified.delete(token);
  }
  const result = await verifyUncached(token, cfg);
  if (result) {
    if (verified.size >= VERIFIED_MAX_ENTRIES) verified.delete(verified.keys().next().value!);
    const expMs = result.exp ? result.exp * 1000 : Infinity;
    verified.set(token, { claims: result.claims, until: Math.min(expMs, Date.now() + VERIFIED_MAX_AGE_MS) });
  }
  return result?.claims ?? null;
};

const verifyUncached = async (token: string, cfg: ReturnType<typeof env>): Promise<{ claims: TTokenClaims; exp?: number } | null> => {
  const withExp = (p: JWTPayload) => {
    const claims = toClaims(p);
    return claims ? { claims, exp: p.exp } : null;
  };
  let alg: string | undefined;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    return null;
  }
  try {
    if (alg === 'HS256') {
      // Our own session tokens first, then tokens of a self-hosted HS256 issuer.
      const secrets = [cfg.sessionSecret, cfg.jwtSecret].filter((s, i, a): s is string => !!s && a.indexOf(s) === i);
      for (const secret of secrets) {
        try {
          const { payload } = await jwtVerify(token, await hmacKey(secret), { algorithms: ['HS256'] });
          // Without AUTH_JWT_SECRET only our own issuer's tokens are valid under the session secret.
          if (secret === cfg.sessionSecret && !cfg.jwtSecret && payload.iss !== SESSION_ISSUER) return null;
          return withExp(payload);
        } catch {
          /* try the next secret */
        }
      }
      return null;
    }
    if (cfg.jwksUrl && (alg?.startsWith('RS') || alg?.startsWith('ES') || alg?.startsWith('PS') || alg === 'EdDSA')) {
      const { payload } = await jwtVerify(token, remoteKeys(cfg.jwksUrl), {
        issuer: cfg.issuer,
        audience: cfg.audience,
      });
      return withExp(payload);
    }
  } catch {
    return null;
  }
  return null;
};

/** Signs one of the service's own session tokens. */
export const signSessionToken = async (claims: {
  subject: string;
  preferredUsername?: string;
  agent?: boolean;
  expiresInSeconds: number;
}) => {
  const expiresAt = new Date(Date.now() + claims.expiresInSeconds * 1000);
  const token = await new SignJWT({
    ...(claims.preferredUsername ? { preferred_username: claims.preferredUsername } : {}),
    ...(claims.agent ? { agent: true } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.subject)
    .setIssuer(SESSION_ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(await hmacKey(env().sessionSecret));
  return { token, expiresAt };
};
