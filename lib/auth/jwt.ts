/**
 * Access-token verification and session-token signing (jose). Each key verifies one kind of token
 * and nothing else (README "Environment", "Secrets and sessions"):
 * - the service's own session tokens (sign-in cookies, the development sign-in, agent sessions):
 *   HS256 with SESSION_SECRET only, issuer SESSION_ISSUER, audience SESSION_AUDIENCE, a `jti`
 *   (their auth_sessions row) and `exp`. A token that claims our issuer or audience is judged as
 *   one of ours, so signed with any other key it is refused;
 * - HS256 tokens of a self-hosted issuer: AUTH_JWT_SECRET only, checked for AUTH_ISSUER and
 *   AUTH_AUDIENCE when those are set;
 * - RS/PS/ES/EdDSA tokens of an external identity provider against AUTH_JWKS_URL, with AUTH_ISSUER
 *   and AUTH_AUDIENCE (production requires both).
 * Every accepted token carries `exp`. I/O: fetches the JWKS (jose caches it). Never throws on a
 * bad token: returns null.
 *
 * This checks signatures and claims only. A session token's claims carry its `sessionId`, and a
 * session is live only while its row is (lib/auth/sessions.ts): callers authenticate through
 * verifyCredentials (lib/principals/principal.ts), which looks the row up on every request,
 * never through the claims alone.
 *
 * A verified token's claims are remembered until the token expires (at most five minutes), so a
 * client sending the same token on every request pays for one signature check, not one each time.
 * Only successes are remembered; the memory is dropped whenever the configuration changes.
 */
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { env, type TEnv } from '@/lib/env';
import { SESSION_AUDIENCE, SESSION_ISSUER } from './session-names';

export { SESSION_AUDIENCE, SESSION_ISSUER };

export type TTokenClaims = {
  subject: string;
  email?: string;
  name?: string;
  preferredUsername?: string;
  isAgent: boolean;
  /** The token's `exp` (seconds since the epoch): every accepted token has one. */
  exp: number;
  /** Only on the service's own session tokens: their `jti`, the auth_sessions row that must be live. */
  sessionId?: string;
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

/** The asymmetric algorithms an identity provider's key set may sign with. */
const JWKS_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

const audiences = (aud: unknown): unknown[] => (Array.isArray(aud) ? aud : [aud]);

/** Whether a payload claims to be one of our session tokens (by issuer or audience). */
const claimsToBeOurs = (p: JWTPayload) => p.iss === SESSION_ISSUER || audiences(p.aud).includes(SESSION_AUDIENCE);

const externalClaims = (p: JWTPayload): TTokenClaims | null => {
  if (typeof p.sub !== 'string' || p.sub === '' || typeof p.exp !== 'number') return null;
  // Belt and braces: such a token never reaches here (it is judged as ours), but an external key
  // must never vouch for our issuer or audience.
  if (claimsToBeOurs(p)) return null;
  return {
    subject: p.sub,
    email: str(p.email),
    name: str(p.name),
    preferredUsername: str(p.preferred_username),
    isAgent: false,
    exp: p.exp,
  };
};

const sessionClaims = (p: JWTPayload): TTokenClaims | null => {
  if (typeof p.sub !== 'string' || p.sub === '' || typeof p.exp !== 'number' || !str(p.jti)) return null;
  return { subject: p.sub, isAgent: p.agent === true, exp: p.exp, sessionId: p.jti };
};

const VERIFIED_MAX_ENTRIES = 10_000;
const VERIFIED_MAX_AGE_MS = 5 * 60_000;
const verified = new Map<string, { claims: TTokenClaims; until: number }>();
let verifiedFor: object | undefined;

/**
 * The claims of a token with a valid signature and claims, or null for anything else (bad
 * signature, wrong issuer or audience, no or past `exp`, malformed). Does not look at session rows.
 */
export async function verifyAccessToken(token: string): Promise<TTokenClaims | null> {
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
  const claims = await verifyUncached(token, cfg);
  if (claims) {
    if (verified.size >= VERIFIED_MAX_ENTRIES) verified.delete(verified.keys().next().value!);
    verified.set(token, { claims, until: Math.min(claims.exp * 1000, Date.now() + VERIFIED_MAX_AGE_MS) });
  }
  return claims;
}

const verifyUncached = async (token: string, cfg: TEnv): Promise<TTokenClaims | null> => {
  let alg: string | undefined;
  let unverified: JWTPayload;
  try {
    alg = decodeProtectedHeader(token).alg;
    unverified = decodeJwt(token);
  } catch {
    return null;
  }
  try {
    // The unverified claims only choose the one key that may vouch for them; that key then
    // checks the signature and the same claims.
    if (claimsToBeOurs(unverified)) {
      const { payload } = await jwtVerify(token, await hmacKey(cfg.sessionSecret), {
        algorithms: ['HS256'],
        issuer: SESSION_ISSUER,
        audience: SESSION_AUDIENCE,
        requiredClaims: ['exp', 'jti', 'sub'],
      });
      return sessionClaims(payload);
    }
    if (alg === 'HS256') {
      if (!cfg.jwtSecret) return null;
      const { payload } = await jwtVerify(token, await hmacKey(cfg.jwtSecret), {
        algorithms: ['HS256'],
        issuer: cfg.issuer,
        audience: cfg.audience,
        requiredClaims: ['exp'],
      });
      return externalClaims(payload);
    }
    if (cfg.jwksUrl && alg && JWKS_ALGORITHMS.includes(alg)) {
      const { payload } = await jwtVerify(token, remoteKeys(cfg.jwksUrl), {
        algorithms: JWKS_ALGORITHMS,
        issuer: cfg.issuer,
        audience: cfg.audience,
        requiredClaims: ['exp'],
      });
      return externalClaims(payload);
    }
  } catch {
    return null;
  }
  return null;
};

/**
 * Signs one of the service's own session tokens with SESSION_SECRET. Callers go through
 * lib/auth/sessions.ts, which writes the session's row first: a token without its row is refused.
 */
export async function signSessionToken(claims: { subject: string; sessionId: string; agent?: boolean; expiresAt: Date }) {
  return new SignJWT(claims.agent ? { agent: true } : {})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.subject)
    .setIssuer(SESSION_ISSUER)
    .setAudience(SESSION_AUDIENCE)
    .setJti(claims.sessionId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
    .sign(await hmacKey(env().sessionSecret));
}
