import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetEnvCache } from '@/lib/env';
import { tokenForSubject } from '@/test/http';
import { signSessionToken, verifyAccessToken } from './jwt';

describe('verifyAccessToken with AUTH_JWT_SECRET (HS256)', () => {
  it('accepts a valid token and reads sub, email, name, preferred_username', async () => {
    const token = await tokenForSubject('user-1', { email: 'a@b.c', name: 'Ann', preferred_username: 'ann' });
    expect(await verifyAccessToken(token)).toEqual({
      subject: 'user-1',
      email: 'a@b.c',
      name: 'Ann',
      preferredUsername: 'ann',
      isAgent: false,
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
    const { token } = await signSessionToken({ subject: 'agent:bot', agent: true, expiresInSeconds: 60 });
    expect(await verifyAccessToken(token)).toMatchObject({ subject: 'agent:bot', isAgent: true });
    // A self-issued token cannot claim to be an agent: only our issuer's `agent` claim counts.
    const forged = await tokenForSubject('agent:bot', { agent: true });
    expect(await verifyAccessToken(forged)).toMatchObject({ isAgent: false });
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

  const sign = (claims: { iss?: string; aud?: string; sub?: string }) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject(claims.sub ?? 'idp|42')
      .setIssuer(claims.iss ?? 'https://idp.test')
      .setAudience(claims.aud ?? 'playmoney')
      .setExpirationTime('5m')
      .sign(privateKey);

  it('accepts a token signed by a key of the JWKS with the right issuer and audience', async () => {
    expect(await verifyAccessToken(await sign({}))).toMatchObject({ subject: 'idp|42' });
  });

  it('rejects a wrong issuer or audience', async () => {
    expect(await verifyAccessToken(await sign({ iss: 'https://other' }))).toBeNull();
    expect(await verifyAccessToken(await sign({ aud: 'someone-else' }))).toBeNull();
  });
});
