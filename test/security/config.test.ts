/**
 * Keys that mean one thing each, in the configurations the two shared servers do not cover
 * (issue 29, items 1 and 12). Servers of this file's own, on the embedded database in a fresh
 * DATA_DIR (what is under test is configuration, not storage):
 *  - production refuses to start with a secret shorter than 32 bytes, without SESSION_SECRET, or
 *    with AUTH_JWKS_URL but no AUTH_ISSUER and AUTH_AUDIENCE, and says which variable;
 *  - with only an external identity provider (AUTH_JWKS_URL, no AUTH_JWT_SECRET: the finding), a
 *    token signed with CRON_SECRET or `session:<CRON_SECRET>` is nobody, administrator claims,
 *    our session issuer or not; the provider's own tokens need `exp` and its issuer and audience.
 * A local JWKS endpoint (an RS256 key made here) stands in for the identity provider.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../ops/processes';
import { startServer, type TServer } from '../ops/servers';
import { claimsOf, expectOk, expectRefused, mint, unique, unsignedToken, type TTarget, call, security } from './harness';

const ISSUER = 'https://idp.security.test/';
const AUDIENCE = 'playmoney-security-suite';
const secret = () => randomBytes(32).toString('base64url');

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pm-security-config-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const baseEnv = () => ({
  SESSION_SECRET: secret(),
  AUTH_JWT_SECRET: secret(),
  CRON_SECRET: secret(),
  LOCAL_SCHEDULER: '0',
  TRUST_PROXY: '1',
  ALLOW_TEST_CLOCK: undefined,
  DATA_DIR: tempDir(),
});

describe('production refuses to start with a weak or incomplete key configuration', () => {
  const refusal = async (env: Record<string, string | undefined>) => {
    const started = startServer({ port: await freePort(), label: 'security-refused', env, timeoutMs: 120_000 });
    const outcome = await started.then(
      async (s) => {
        await s.stop();
        return 'started';
      },
      (e: Error) => e.message,
    );
    return outcome;
  };

  it('refuses a CRON_SECRET shorter than 32 bytes', async () => {
    const outcome = await refusal({ ...baseEnv(), CRON_SECRET: 'short-cron-secret' });
    expect(outcome).toMatch(/exited/);
    expect(outcome).toMatch(/CRON_SECRET/);
  });

  it('refuses to start without SESSION_SECRET', async () => {
    const outcome = await refusal({ ...baseEnv(), SESSION_SECRET: undefined });
    expect(outcome).toMatch(/exited/);
    expect(outcome).toMatch(/SESSION_SECRET/);
  });

  it('refuses AUTH_JWKS_URL without AUTH_ISSUER and AUTH_AUDIENCE', async () => {
    const outcome = await refusal({ ...baseEnv(), AUTH_JWT_SECRET: undefined, AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks.json' });
    expect(outcome).toMatch(/exited/);
    expect(outcome).toMatch(/AUTH_ISSUER|AUTH_AUDIENCE/);
  });
});

describe('only an external identity provider (AUTH_JWKS_URL, no AUTH_JWT_SECRET)', () => {
  let jwks: Server;
  let server: TServer;
  let target: TTarget;
  let idpKey: CryptoKey;
  let env: Record<string, string | undefined>;
  const adminSubject = `sec-jwks-admin-${process.pid}`;
  const agent = { id: `sec-jwks-agent-${process.pid}`, secret: secret() };

  /** A token of the identity provider: RS256 with its key, issuer, audience and (unless null) exp. */
  const idpToken = (subject: string, opts: { exp?: number | null; iss?: string; aud?: string } = {}) => {
    const jwt = new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'security-suite' })
      .setSubject(subject)
      .setIssuer(opts.iss ?? ISSUER)
      .setAudience(opts.aud ?? AUDIENCE)
      .setIssuedAt();
    if (opts.exp !== null) jwt.setExpirationTime(opts.exp ?? '1h');
    return jwt.sign(idpKey);
  };

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    idpKey = pair.privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'security-suite', alg: 'RS256', use: 'sig' };
    jwks = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    env = {
      ...baseEnv(),
      AUTH_JWT_SECRET: undefined,
      AUTH_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`,
      AUTH_ISSUER: ISSUER,
      AUTH_AUDIENCE: AUDIENCE,
      ADMIN_SUBJECTS: adminSubject,
      AGENT_CREDENTIALS: `${agent.id}:${agent.secret}`,
      PUBLIC_BASE_URL: security().publicBaseUrl,
    };
    server = await startServer({ port: await freePort(), label: 'security-jwks', env });
    target = { name: 'pglite', base: server.base, dataDir: env.DATA_DIR! };
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    await new Promise<void>((resolve) => (jwks ? jwks.close(() => resolve()) : resolve()));
  });

  it("accepts the provider's administrator token (the control)", async () => {
    expectOk(await call(target, '/api/admin/stats', { token: await idpToken(adminSubject) }));
  });

  it('refuses an administrator token signed with CRON_SECRET or session:<CRON_SECRET>, and the forged award changes nothing', async () => {
    const cron = env.CRON_SECRET!;
    const session = expectOk(await call(target, '/api/agents/auth', { body: { agentId: agent.id, agentSecret: agent.secret } })).sessionToken;
    const ours = claimsOf(session) ?? {};
    const sessionClaims = { iss: ours.iss, aud: ours.aud };
    for (const key of [cron, `session:${cron}`]) {
      for (const claims of [{}, sessionClaims, { ...sessionClaims, agent: true }]) {
        const token = await mint({ subject: adminSubject, secret: key, claims });
        expectRefused(await call(target, '/api/admin/stats', { token }), 401, 'UNAUTHORIZED');
      }
    }
    const victimToken = await idpToken(unique('sec-jwks-victim-'));
    const victim = expectOk(await call(target, '/api/users/me', { token: victimToken })).user;
    const points = async () => expectOk(await call(target, `/api/users/${victim.id}/points?limit=1`, { token: victimToken })).points;
    const before = await points();
    const forged = await mint({ subject: adminSubject, secret: `session:${cron}`, claims: sessionClaims });
    expectRefused(await call(target, '/api/users/points/award', { token: forged, body: { userId: victim.id, amount: 500, reason: 'forged' } }), 401, 'UNAUTHORIZED');
    expect(await points()).toBe(before);
  });

  it("refuses the provider's tokens without exp, with another audience or issuer, and unsigned ones", async () => {
    const attempts = [
      await idpToken(adminSubject, { exp: null }),
      await idpToken(adminSubject, { aud: 'someone-else' }),
      await idpToken(adminSubject, { iss: 'https://other-idp.example/' }),
      unsignedToken({ sub: adminSubject, iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 }),
    ];
    for (const token of attempts) expectRefused(await call(target, '/api/admin/stats', { token }), 401, 'UNAUTHORIZED');
  });
});
