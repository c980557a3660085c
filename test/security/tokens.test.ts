/**
 * Forged and claim-less tokens (issue 29, items 1 and 12), against a production server on each
 * database. No key means two things: a token signed with the scheduler's secret, or with the key
 * the service once derived from it (`session:<CRON_SECRET>`), is nobody, administrator claims or
 * not; a token without `exp`, an unsigned one (`alg: none`), and one that wears our own session
 * issuer but is signed with the identity provider's secret are refused; our own session tokens
 * (sign-in cookie, agent session) are signed with SESSION_SECRET and carry issuer, audience and
 * `exp`; signing out revokes the session, so a copied cookie stops working. Each refusal is also
 * shown to change nothing: the points award a forged administrator attempts leaves the points alone.
 */
import { jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  call,
  claimsOf,
  expectOk,
  expectRefused,
  mint,
  newPlayer,
  sameSite,
  security,
  sessionCookieOf,
  signIn,
  targets,
  unsignedToken,
  type TPlayer,
} from './harness';

const ADMIN_ROUTE = '/api/admin/stats';

const pointsOf = async (t: Parameters<typeof call>[0], p: TPlayer) =>
  expectOk(await call(t, `/api/users/${p.id}/points?limit=1`, { token: p.token })).points as number;

describe.each(targets())('forged and claim-less tokens ($name)', (t) => {
  let victim: TPlayer;
  /** The issuer and audience of our own session tokens, read from a real agent session. */
  let sessionClaims: { iss?: unknown; aud?: unknown };
  let agentSession: string;

  beforeAll(async () => {
    victim = await newPlayer(t, 'victim');
    const { agent } = security();
    const res = expectOk(await call(t, '/api/agents/auth', { body: { agentId: agent.id, agentSecret: agent.secret } }));
    agentSession = res.sessionToken;
    const claims = claimsOf(agentSession) ?? {};
    sessionClaims = { iss: claims.iss, aud: claims.aud };
  });

  /** A forged administrator tries to award the victim points: refused, and the points stay. */
  const forgedAwardChangesNothing = async (token: string) => {
    const before = await pointsOf(t, victim);
    const res = await call(t, '/api/users/points/award', { token, body: { userId: victim.id, amount: 500, reason: 'forged' } });
    expectRefused(res, 401, 'UNAUTHORIZED');
    expect(await pointsOf(t, victim)).toBe(before);
  };

  it('accepts a valid administrator token (the control: the refusals below are about the token, not the route)', async () => {
    expectOk(await call(t, ADMIN_ROUTE, { token: await adminToken() }));
  });

  it('refuses an administrator token signed with CRON_SECRET or with session:<CRON_SECRET>, with or without our session issuer', async () => {
    const { secrets, adminSubject } = security();
    for (const secret of [secrets.cron, `session:${secrets.cron}`]) {
      for (const claims of [{}, sessionClaims]) {
        const token = await mint({ subject: adminSubject, secret, claims });
        expectRefused(await call(t, ADMIN_ROUTE, { token }), 401, 'UNAUTHORIZED');
      }
    }
    await forgedAwardChangesNothing(await mint({ subject: adminSubject, secret: `session:${secrets.cron}`, claims: sessionClaims }));
  });

  it('refuses a token without exp, even one validly signed for the administrator', async () => {
    const token = await mint({ subject: security().adminSubject, expiresIn: null });
    expectRefused(await call(t, ADMIN_ROUTE, { token }), 401, 'UNAUTHORIZED');
    expectRefused(await call(t, '/api/users/me', { token: await mint({ subject: `sec-noexp-${victim.id}`, expiresIn: null }) }), 401, 'UNAUTHORIZED');
    // Our own session key without exp is no better.
    const ours = await mint({ subject: security().adminSubject, secret: security().secrets.session, expiresIn: null, claims: sessionClaims });
    expectRefused(await call(t, ADMIN_ROUTE, { token: ours }), 401, 'UNAUTHORIZED');
    await forgedAwardChangesNothing(token);
  });

  it('refuses an expired token', async () => {
    const token = await mint({ subject: security().adminSubject, expiresIn: Math.floor(Date.now() / 1000) - 120 });
    expectRefused(await call(t, ADMIN_ROUTE, { token }), 401, 'UNAUTHORIZED');
  });

  it('refuses an unsigned token (alg none)', async () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    for (const claims of [{ sub: security().adminSubject, exp }, { sub: security().adminSubject, exp, ...sessionClaims }]) {
      expectRefused(await call(t, ADMIN_ROUTE, { token: unsignedToken(claims) }), 401, 'UNAUTHORIZED');
    }
    await forgedAwardChangesNothing(unsignedToken({ sub: security().adminSubject, exp }));
  });

  it('signs our own session tokens with SESSION_SECRET, with issuer, audience and exp, and refuses our issuer signed with AUTH_JWT_SECRET', async () => {
    const { secrets, agent } = security();
    // The real agent session: valid, and verifiable with SESSION_SECRET only.
    const key = new TextEncoder().encode(secrets.session);
    const { payload } = await jwtVerify(agentSession, key, { algorithms: ['HS256'] });
    expect(payload.iss, 'our session tokens name our issuer').toBeTruthy();
    expect(payload.aud, 'our session tokens name our audience').toBeTruthy();
    expect(typeof payload.exp).toBe('number');
    await expect(jwtVerify(agentSession, new TextEncoder().encode(secrets.jwt))).rejects.toThrow();
    const mine = expectOk(await call(t, '/api/users/me', { token: agentSession })).user;
    expect(mine.isAgent).toBe(true);

    // The same claims under the identity provider's secret: not our session, not the agent.
    const forged = await mint({ subject: String(payload.sub ?? `agent:${agent.id}`), claims: { ...sessionClaims, agent: true } });
    expectRefused(await call(t, '/api/users/me', { token: forged }), 401, 'UNAUTHORIZED');
    const forgedAdmin = await mint({ subject: security().adminSubject, claims: { ...sessionClaims } });
    expectRefused(await call(t, ADMIN_ROUTE, { token: forgedAdmin }), 401, 'UNAUTHORIZED');
    // The session key without our issuer and audience signs nothing we accept.
    const bare = await mint({ subject: security().adminSubject, secret: secrets.session });
    expectRefused(await call(t, ADMIN_ROUTE, { token: bare }), 401, 'UNAUTHORIZED');
  });

  it('sets a __Host- Secure HttpOnly session cookie signed with SESSION_SECRET, and a copied one stops working after sign-out', async () => {
    const p = await newPlayer(t, 'session');
    const cookie = await signIn(t, p.token);
    expect(cookie.name.startsWith('__Host-'), cookie.name).toBe(true);
    const attrs = cookie.attributes.map((a) => a.toLowerCase());
    expect(attrs).toContain('secure');
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('path=/');
    expect(attrs.some((a) => a.startsWith('domain='))).toBe(false);
    // The cookie is our own session, not the identity provider's token, and lives no longer than it.
    expect(cookie.value).not.toBe(p.token);
    const { payload } = await jwtVerify(cookie.value, new TextEncoder().encode(security().secrets.session), { algorithms: ['HS256'] });
    expect(typeof payload.exp).toBe('number');
    expect(cookie.maxAge, 'the cookie says how long it lives').toBeGreaterThan(0);
    expect(cookie.maxAge!).toBeLessThanOrEqual(payload.exp! - Math.floor(Date.now() / 1000) + 5);

    const asCookie = { cookie: cookie.header };
    expect(expectOk(await call(t, '/api/users/me', { headers: asCookie })).user.id).toBe(p.id);
    const out = await call(t, '/api/auth/sign-out', { body: {}, headers: { ...asCookie, ...sameSite() } });
    expectOk(out);
    const cleared = sessionCookieOf(out);
    expect(cleared && (cleared.value === '' || cleared.maxAge === 0), JSON.stringify(out.headers.getSetCookie())).toBe(true);

    // The copy an attacker kept: refused as the cookie and as a bearer token.
    expectRefused(await call(t, '/api/users/me', { headers: asCookie }), 401, 'UNAUTHORIZED');
    expectRefused(await call(t, '/api/users/me', { token: cookie.value }), 401, 'UNAUTHORIZED');
    const post = await call(t, '/api/posts', { body: { content: 'written with a revoked session' }, headers: { ...asCookie, ...sameSite() } });
    expectRefused(post, 401, 'UNAUTHORIZED');
    const posts = expectOk(await call(t, `/api/users/${p.id}/posts`)).posts as unknown[];
    expect(posts).toHaveLength(0);
  });
});
