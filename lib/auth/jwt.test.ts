import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { env, resetEnvCache } from '@/lib/env';
import { tokenForSubject } from '@/test/http';
import { SESSION_AUDIENCE, SESSION_ISSUER, signSessionToken, verifyAccessToken } from './jwt';

const inAMinute = () => new Date(Date.now() + 60_000);

/** An HS256 token for subject `someone` with the given claims, signed with `secret`. */
const hs256 = (claims: Record<string, unknown>, secret: string, opts: { exp?: boolean } = {}) => {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject('someone').setIssuedAt();
  if (opts.exp !== false) jwt.setExpirationTime('5m');
  return jwt.sign(new TextEncoder().encode(secret));
};

describe('verifyAccessToken with AUTH_JWT_SECRET (HS256)', () => {
  it('accepts a valid token and reads sub, email, name, preferred_username', async () => {
    const token = await tokenForSubject('user-1', { email: 'a@b.c', name: 'Ann', preferred_username: 'ann' });
    expect(await verifyAccessToken(token)).toEqual({
      subject: 'user-1',
      email: 'a@b.c',
      name: 'Ann',
      preferredUsername: 'ann',
      isAgent: false,
      exp: expect.any(Number),
    });
  });

  it('rejects a wrong signature, an expired token, a token without sub, and garbage', async () => {
    expect(await verifyAccessToken(await tokenForSubject('u', {}, { secret: 'nope' }))).toBeNull();
    expect(await verifyAccessToken(await tokenForSubject('u', {}, { expiresIn: '-1m' }))).toBeNull();
    const noSub = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('playmoney-development-secret-not-for-production'));
    expect(await verifyAccessToken(noSub)).toBeNull();
    expect(await verifyAccessToken('a.b.c')).toBeNull();
    expect(await verifyAccessToken('')).toBeNull();
  });

  it('remembers a verified token only until it expires, and forgets it when the secret changes', async () => {
    const token = await tokenForSubject('cached-user', {}, { expiresIn: '30s' });
    expect(await verifyAccessToken(token)).toMatchObject({ subject: 'cached-user' });
    vi.useFakeTimers({ now: Date.now() + 31_000, toFake: ['Date'] });
    try {
      expect(await verifyAccessToken(token)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
    const fresh = await tokenForSubject('cached-user');
    expect(await verifyAccessToken(fresh)).toMatchObject({ subject: 'cached-user' });
    const saved = process.env.AUTH_JWT_SECRET;
    process.env.AUTH_JWT_SECRET = 'a-different-secret-of-enough-length-000000';
    resetEnvCache();
    try {
      expect(await verifyAccessToken(fresh)).toBeNull();
    } finally {
      if (saved === undefined) delete process.env.AUTH_JWT_SECRET;
      else process.env.AUTH_JWT_SECRET = saved;
      resetEnvCache();
    }
  });

  it('marks our own agent session tokens as agents', async () => {
    const token = await signSessionToken({ subject: 'agent:bot', sessionId: 's-agent', agent: true, expiresAt: inAMinute() });
    expect(await verifyAccessToken(token)).toMatchObject({ subject: 'agent:bot', isAgent: true, sessionId: 's-agent' });
    // A self-issued token cannot claim to be an agent: only our issuer's `agent` claim counts.
    const forged = await tokenForSubject('agent:bot', { agent: true });
    expect(await verifyAccessToken(forged)).toMatchObject({ isAgent: false });
  });
});

describe('our own session tokens', () => {
  it('carry our issuer, audience, a jti and exp, and verify with SESSION_SECRET', async () => {
    const expiresAt = inAMinute();
    const token = await signSessionToken({ subject: 'dev:ann', sessionId: 'session-1', expiresAt });
    const payload = decodeJwt(token);
    expect(payload).toMatchObject({ iss: SESSION_ISSUER, aud: SESSION_AUDIENCE, jti: 'session-1', sub: 'dev:ann', exp: Math.floor(expiresAt.getTime() / 1000) });
    expect(await verifyAccessToken(token)).toEqual({ subject: 'dev:ann', isAgent: false, exp: payload.exp, sessionId: 'session-1' });
  });

  it('refuse a token with our issuer or audience signed with any other key, AUTH_JWT_SECRET included', async () => {
    const ours = { iss: SESSION_ISSUER, aud: SESSION_AUDIENCE, jti: 'j' };
    // The external issuer's secret (AUTH_JWT_SECRET) vouches for its own tokens only.
    expect(await verifyAccessToken(await hs256({ ...ours }, env().jwtSecret!))).toBeNull();
    expect(await verifyAccessToken(await hs256({ iss: SESSION_ISSUER }, env().jwtSecret!))).toBeNull();
    expect(await verifyAccessToken(await hs256({ aud: SESSION_AUDIENCE }, env().jwtSecret!))).toBeNull();
    expect(await verifyAccessToken(await hs256({ aud: ['x', SESSION_AUDIENCE] }, env().jwtSecret!))).toBeNull();
    expect(await verifyAccessToken(await hs256({ ...ours }, env().cronSecret))).toBeNull();
    // Signed with the session secret, the same claims pass: the key decides, not the claims.
    expect(await verifyAccessToken(await hs256({ ...ours }, env().sessionSecret))).toMatchObject({ sessionId: 'j' });
  });

  it('refuse a session-secret token without our issuer and audience, or without a jti', async () => {
    // SESSION_SECRET signs our sessions and nothing else: it does not stand in for AUTH_JWT_SECRET.
    expect(await verifyAccessToken(await hs256({}, env().sessionSecret))).toBeNull();
    expect(await verifyAccessToken(await hs256({ iss: SESSION_ISSUER, jti: 'j' }, env().sessionSecret))).toBeNull();
    expect(await verifyAccessToken(await hs256({ aud: SESSION_AUDIENCE, jti: 'j' }, env().sessionSecret))).toBeNull();
    expect(await verifyAccessToken(await hs256({ iss: SESSION_ISSUER, aud: SESSION_AUDIENCE }, env().sessionSecret))).toBeNull();
  });
});

describe('every accepted token carries exp', () => {
  it('refuses an HS256 token without exp, ours or an external issuer’s', async () => {
    expect(await verifyAccessToken(await hs256({}, env().jwtSecret!, { exp: false }))).toBeNull();
    expect(await verifyAccessToken(await hs256({ iss: SESSION_ISSUER, aud: SESSION_AUDIENCE, jti: 'j' }, env().sessionSecret, { exp: false }))).toBeNull();
    // The same tokens with exp pass.
    expect(await verifyAccessToken(await hs256({}, env().jwtSecret!))).toMatchObject({ subject: 'someone' });
  });
});

describe('HS256 tokens with AUTH_ISSUER and AUTH_AUDIENCE set', () => {
  const saved = { ...process.env };
  beforeAll(() => {
    process.env.AUTH_ISSUER = 'https://issuer.test';
    process.env.AUTH_AUDIENCE = 'playmoney-api';
    resetEnvCache();
  });
  afterAll(() => {
    process.env = saved;
    resetEnvCache();
  });

  it('accepts the configured issuer and audience and refuses any other, or none', async () => {
    const secret = env().jwtSecret!;
    expect(await verifyAccessToken(await hs256({ iss: 'https://issuer.test', aud: 'playmoney-api' }, secret))).toMatchObject({ subject: 'someone' });
    expect(await verifyAccessToken(await hs256({ iss: 'https://other.test', aud: 'playmoney-api' }, secret))).toBeNull();
    expect(await verifyAccessToken(await hs256({ iss: 'https://issuer.test', aud: 'someone-else' }, secret))).toBeNull();
    expect(await verifyAccessToken(await hs256({}, secret))).toBeNull();
    expect(await verifyAccessToken(await tokenForSubject('u'))).toBeNull();
  });
});

describe('verifyAccessToken with AUTH_JWKS_URL (RS256)', () => {
  let server: Server;
  let privateKey: CryptoKey;
  const saved = { ...process.env };

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    server = createServer((_, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    process.env.AUTH_JWKS_URL = `http://127.0.0.1:${port}/.well-known/jwks.json`;
    process.env.AUTH_ISSUER = 'https://idp.test';
    process.env.AUTH_AUDIENCE = 'playmoney';
    resetEnvCache();
  });

  afterAll(async () => {
    process.env = saved;
    resetEnvCache();
    await new Promise((r) => server.close(r));
  });

  const sign = (claims: { iss?: string; aud?: string; sub?: string; exp?: boolean }) => {
    const jwt = new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject(claims.sub ?? 'idp|42')
      .setIssuer(claims.iss ?? 'https://idp.test')
      .setAudience(claims.aud ?? 'playmoney');
    if (claims.exp !== false) jwt.setExpirationTime('5m');
    return jwt.sign(privateKey);
  };

  it('accepts a token signed by a key of the JWKS with the right issuer and audience', async () => {
    expect(await verifyAccessToken(await sign({}))).toMatchObject({ subject: 'idp|42' });
  });

  it('rejects a wrong issuer or audience', async () => {
    expect(await verifyAccessToken(await sign({ iss: 'https://other' }))).toBeNull();
    expect(await verifyAccessToken(await sign({ aud: 'someone-else' }))).toBeNull();
  });

  it('refuses a token without exp, and one claiming our issuer or audience', async () => {
    expect(await verifyAccessToken(await sign({ exp: false }))).toBeNull();
    expect(await verifyAccessToken(await sign({ iss: SESSION_ISSUER }))).toBeNull();
    expect(await verifyAccessToken(await sign({ aud: SESSION_AUDIENCE }))).toBeNull();
  });

  describe('in production with only AUTH_JWKS_URL (no AUTH_JWT_SECRET)', () => {
    const CRON_SECRET = 'production-cron-secret-0123456789abcdef';
    const SESSION_SECRET = 'production-session-secret-0123456789abcd';
    let before: NodeJS.ProcessEnv;
    beforeAll(() => {
      before = { ...process.env };
      Object.assign(process.env, { NODE_ENV: 'production', CRON_SECRET, SESSION_SECRET });
      delete process.env.AUTH_JWT_SECRET;
      resetEnvCache();
      expect(env().jwtSecret).toBeUndefined();
    });
    afterAll(() => {
      process.env = before;
      resetEnvCache();
    });

    it('refuses session tokens forged with the cron secret or a key derived from it, for any subject', async () => {
      const forge = (secret: string) =>
        hs256({ iss: SESSION_ISSUER, aud: SESSION_AUDIENCE, jti: 'forged', preferred_username: 'admin' }, secret);
      expect(await verifyAccessToken(await forge(`session:${CRON_SECRET}`))).toBeNull();
      expect(await verifyAccessToken(await forge(CRON_SECRET))).toBeNull();
      // Without audience or jti, as the old session tokens were minted.
      const bare = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('admin').setIssuer(SESSION_ISSUER).setExpirationTime('1h').sign(new TextEncoder().encode(`session:${CRON_SECRET}`));
      expect(await verifyAccessToken(bare)).toBeNull();
      expect(await verifyAccessToken(await hs256({}, CRON_SECRET))).toBeNull();
    });

    it('accepts our own session tokens (SESSION_SECRET) and the provider’s tokens', async () => {
      const token = await signSessionToken({ subject: 'idp|42', sessionId: 's-1', expiresAt: inAMinute() });
      expect(await verifyAccessToken(token)).toMatchObject({ subject: 'idp|42', sessionId: 's-1' });
      expect(await verifyAccessToken(await sign({}))).toMatchObject({ subject: 'idp|42' });
      expect((await verifyAccessToken(await sign({})))?.sessionId).toBeUndefined();
    });
  });
});
