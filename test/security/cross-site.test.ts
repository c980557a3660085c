/**
 * Nothing answers a cross-site request with a write (issue 29, items 2 and 12), against a
 * production server on each database:
 *  - the legacy `GET /api/auth/onboard?username=…` refuses a session cookie unless the browser
 *    says the request is same-origin (Sec-Fetch-Site), so a link or an <img> on another site
 *    cannot rename a signed-in player or attach a referrer; a bearer client still onboards with it;
 *  - a cookie write from a foreign Origin is 403; a write whose body is not JSON (text/plain, the
 *    body a cross-site form can send, or no content type at all) is 415;
 *  - login CSRF: `POST /api/auth/session` from a foreign Origin is 403 and sets no cookie, with
 *    no session cookie present, so another site cannot sign a visitor into its own account.
 * Every refusal is read back: the profile, the posts and the referrals are as they were.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  callRaw,
  crossSite,
  EVIL_ORIGIN,
  expectOk,
  expectRefused,
  me,
  newPlayer,
  postsOf,
  sameSite,
  sessionCookieOf,
  signIn,
  targets,
  unique,
  type TPlayer,
} from './harness';

describe.each(targets())('cross-site requests ($name)', (t) => {
  let attacker: TPlayer;
  let attackerCode: string;

  beforeAll(async () => {
    attacker = await newPlayer(t, 'csrf-attacker');
    attackerCode = expectOk(await call(t, `/api/users/${attacker.id}/referral-code`, { token: attacker.token })).referralCode;
  });

  const referralCount = async () =>
    expectOk(await call(t, `/api/users/${attacker.id}/referrals`, { token: attacker.token })).totalReferrals as number;

  const onboardQuery = (username: string) =>
    `/api/auth/onboard?username=${username}&displayName=Planted&referralCode=${encodeURIComponent(attackerCode)}`;

  it('GET /api/auth/onboard with fields refuses a cookie caller cross-site (or with no Sec-Fetch-Site): the profile and referrals are unchanged', async () => {
    const victim = await newPlayer(t, 'csrf-victim');
    const cookie = await signIn(t, victim.token);
    const before = await me(t, victim.token);
    const referralsBefore = await referralCount();
    const planted = unique('planted');

    // A link or an image on another site: the browser adds the cookie and says cross-site.
    const viaLink = await call(t, onboardQuery(planted), { headers: { cookie: cookie.header, 'sec-fetch-site': 'cross-site' } });
    expectRefused(viaLink, 403);
    // An older browser that sends no fetch metadata is not trusted either.
    const noMetadata = await call(t, onboardQuery(planted), { headers: { cookie: cookie.header } });
    expectRefused(noMetadata, 403);

    const after = await me(t, victim.token);
    expect(after.username).toBe(before.username);
    expect(after.displayName).toBe(before.displayName);
    expect(after.profileComplete).toBe(false);
    expect(await referralCount()).toBe(referralsBefore);
  });

  it('GET /api/auth/onboard with fields still onboards a bearer client (the specification accepts it) and a same-origin cookie caller', async () => {
    const bearer = await newPlayer(t, 'legacy');
    const name = unique('legacy');
    const res = expectOk(await call(t, `/api/auth/onboard?username=${name}&displayName=Legacy`, { token: bearer.token }));
    expect(res.user.username).toBe(name);
    expect((await me(t, bearer.token)).profileComplete).toBe(true);

    const web = await newPlayer(t, 'samesite');
    const cookie = await signIn(t, web.token);
    const webName = unique('samesite');
    expectOk(await call(t, `/api/auth/onboard?username=${webName}&displayName=Web`, { headers: { cookie: cookie.header, 'sec-fetch-site': 'same-origin' } }));
    expect((await me(t, web.token)).username).toBe(webName);
  });

  it('refuses a cookie write from a foreign Origin with 403 and writes nothing (the same write from our origin works)', async () => {
    const p = await newPlayer(t, 'origin');
    const cookie = await signIn(t, p.token);
    const content = `cross-site ${unique('c')}`;
    expectRefused(await call(t, '/api/posts', { body: { content }, headers: { cookie: cookie.header, ...crossSite() } }), 403);
    // Only the Origin, no fetch metadata: still foreign.
    expectRefused(await call(t, '/api/posts', { body: { content }, headers: { cookie: cookie.header, origin: EVIL_ORIGIN } }), 403);
    expect(await postsOf(t, p.id)).toHaveLength(0);

    expectOk(await call(t, '/api/posts', { body: { content }, headers: { cookie: cookie.header, ...sameSite() } }), 201);
    expect(await postsOf(t, p.id)).toHaveLength(1);
  });

  it('refuses a write whose body is text/plain or has no content type with 415 and writes nothing', async () => {
    const p = await newPlayer(t, 'mediatype');
    const cookie = await signIn(t, p.token);
    const json = JSON.stringify({ content: `plain ${unique('c')}` });
    const bearer = { authorization: `Bearer ${p.token}` };
    // What a cross-site <form enctype="text/plain"> sends, with the cookie; and the same as a bearer client.
    expectRefused(await callRaw(t, '/api/posts', { body: json, headers: { ...sameSite(), cookie: cookie.header, 'content-type': 'text/plain' } }), 415);
    expectRefused(await callRaw(t, '/api/posts', { body: json, headers: { ...bearer, 'content-type': 'text/plain;charset=UTF-8' } }), 415);
    expectRefused(await callRaw(t, '/api/posts', { body: new TextEncoder().encode(json), headers: bearer }), 415);
    expectRefused(
      await callRaw(t, '/api/posts', { body: new URLSearchParams({ content: 'form' }).toString(), headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
    );
    expect(await postsOf(t, p.id)).toHaveLength(0);
  });

  it('login CSRF: POST /api/auth/session from a foreign Origin, without any cookie, is 403 and sets no cookie', async () => {
    const attackerSession = attacker.token;
    const json = await call(t, '/api/auth/session', { body: { token: attackerSession }, headers: crossSite() });
    expectRefused(json, 403);
    expect(sessionCookieOf(json)).toBeUndefined();
    // Only the Origin header, as an older browser sends it on a form post.
    const originOnly = await call(t, '/api/auth/session', { body: { token: attackerSession }, headers: { origin: EVIL_ORIGIN } });
    expectRefused(originOnly, 403);
    expect(sessionCookieOf(originOnly)).toBeUndefined();
    // The body a cross-site form can send.
    const form = await callRaw(t, '/api/auth/session', { body: JSON.stringify({ token: attackerSession }), headers: { ...crossSite(), 'content-type': 'text/plain' } });
    expect([403, 415], JSON.stringify(form.body)).toContain(form.status);
    expect(form.body?.success).toBe(false);
    expect(form.headers.getSetCookie().filter((c) => /session/i.test(c))).toEqual([]);
  });
});
