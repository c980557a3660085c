/**
 * Consent and proof (issue 29, deliverable 4) through the real route handlers, on both databases:
 * a wallet binds only with its EIP-191 signature of a challenge issued to that account (not
 * another's, not expired, not used); the email bonus reserves and pays only once the mailed token
 * comes back; a share reward is keyed by the external post (one reward per post, ever), the post
 * must be by the player's linked handle, and share verifications are capped per UTC day. Every
 * refusal is asserted with what did not change.
 */
import { and, count, eq } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POST as linkSocialRoute } from '@/app/api/users/[userId]/link-social/route';
import { POST as shareRoute } from '@/app/api/users/[userId]/share/route';
import { POST as verifyShareRoute } from '@/app/api/users/[userId]/verify-share/route';
import { POST as challengeRoute } from '@/app/api/users/wallet/challenge/route';
import { POST as emailBonusRoute } from '@/app/api/waitlist/bonus/email/route';
import { POST as verifyEmailRoute } from '@/app/api/waitlist/bonus/email/verify/route';
import { POST as walletBonusRoute } from '@/app/api/waitlist/bonus/wallet/route';
import { getDb } from '@/db/client';
import { pointsTransactions, shareActions, users, waitlistEmails, waitlistEmailTokens, walletChallenges, type TUserRow } from '@/db/schema';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { createMemoryMailer, setMailer, unconfiguredMailer } from '@/lib/mail/mailer';
import { SHARE_VERIFICATIONS_PER_DAY } from '@/lib/onboarding/share-proof';
import { setSocialVerifierForTests } from '@/lib/onboarding/verifier';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';
import { expectPointsChain } from '@/test/invariants';

let mail: ReturnType<typeof createMemoryMailer>;

beforeEach(() => {
  setLimiter(createMemoryLimiter());
  mail = createMemoryMailer();
  setMailer(mail);
});
afterEach(() => {
  resetClock();
  setMailer(undefined);
  setSocialVerifierForTests(undefined);
});

let n = 0;
const uniq = (p: string) => `${p}${Date.now().toString(36).slice(-5)}${n++}`;

const post = async (handler: Parameters<typeof call>[0], path: string, user: TUserRow, body: unknown, extra: { params?: Record<string, string>; key?: string } = {}) =>
  call(handler, path, { method: 'POST', token: await tokenFor(user), body, params: extra.params ?? {}, headers: extra.key ? { 'idempotency-key': extra.key } : {} });

const userRow = async (id: string) => (await (await getDb()).select().from(users).where(eq(users.id, id)))[0]!;
const pointsRows = async (userId: string) =>
  (await (await getDb()).select({ n: count() }).from(pointsTransactions).where(eq(pointsTransactions.userId, userId)))[0]!.n;

/** What a refused request must not have changed for a player. */
const snapshot = async (userId: string) => {
  const u = await userRow(userId);
  return { walletAddress: u.walletAddress, reputationPoints: u.reputationPoints, pointsRows: await pointsRows(userId) };
};

describe('wallet binding with an EIP-191 signature of a challenge', () => {
  const askChallenge = async (user: TUserRow, address: string) => {
    const res = await post(challengeRoute, '/api/users/wallet/challenge', user, { address });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.challenge as { id: string; address: string; message: string; expiresAt: string };
  };
  const claim = (user: TUserRow, body: Record<string, unknown>, key?: string) => post(walletBonusRoute, '/api/waitlist/bonus/wallet', user, body, { key });
  const signedClaim = async (user: TUserRow, wallet: PrivateKeyAccount) => {
    const challenge = await askChallenge(user, wallet.address);
    return { walletAddress: wallet.address, signature: await wallet.signMessage({ message: challenge.message }), challengeId: challenge.id };
  };

  it('the challenge names the service, the account, the address, a nonce and an expiry about 10 minutes ahead', async () => {
    const u = await seedUser();
    const wallet = privateKeyToAccount(generatePrivateKey());
    const a = await askChallenge(u, wallet.address);
    const b = await askChallenge(u, wallet.address);
    for (const part of ['Playmoney', `Account: ${u.id}`, `Wallet: ${wallet.address}`, 'Nonce: ', `Expires at: ${a.expiresAt}`]) expect(a.message).toContain(part);
    expect(Date.parse(a.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(Date.parse(a.expiresAt) - Date.now()).toBeLessThanOrEqual(10 * 60_000 + 1000);
    expect(a.message).not.toBe(b.message);
    const lower = await post(challengeRoute, '/api/users/wallet/challenge', u, { address: wallet.address.toLowerCase() });
    expect([lower.status, lower.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('a claim without a signature is refused and binds nothing', async () => {
    const u = await seedUser();
    const wallet = privateKeyToAccount(generatePrivateKey());
    const before = await snapshot(u.id);
    const bare = await claim(u, { walletAddress: wallet.address });
    expect([bare.status, bare.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    // A well-formed signature with no challenge ever issued proves nothing either.
    const unasked = await claim(u, { walletAddress: wallet.address, signature: await wallet.signMessage({ message: 'anything' }) });
    expect([unasked.status, unasked.body.error.code]).toEqual([404, 'CHALLENGE_NOT_FOUND']);
    expect(await snapshot(u.id)).toEqual(before);
  });

  it('a valid signature binds the address and pays the milestone once; the challenge cannot be replayed', async () => {
    const u = await seedUser();
    const wallet = privateKeyToAccount(generatePrivateKey());
    const body = await signedClaim(u, wallet);
    const ok = await claim(u, body);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ walletAddress: wallet.address, bonusAwarded: 25, points: 25 });
    expect((await userRow(u.id)).walletAddress).toBe(wallet.address);
    const [used] = await (await getDb()).select().from(walletChallenges).where(eq(walletChallenges.id, body.challengeId));
    expect(used).toMatchObject({ signature: body.signature });
    expect(used!.usedAt).not.toBeNull();
    const before = await snapshot(u.id);
    const replay = await claim(u, body);
    expect([replay.status, replay.body.error.code]).toEqual([400, 'CHALLENGE_USED']);
    const { challengeId: _, ...withoutId } = body;
    const replayNoId = await claim(u, withoutId);
    expect([replayNoId.status, replayNoId.body.error.code]).toEqual([400, 'CHALLENGE_USED']);
    expect(await snapshot(u.id)).toEqual(before);
    // A fresh proof of the same wallet is fine and pays nothing more.
    const again = await claim(u, await signedClaim(u, wallet));
    expect(again.body).toMatchObject({ walletAddress: wallet.address, bonusAwarded: 0, points: 25 });
    await expectPointsChain([u.id]);
  });

  it('without challengeId the newest open challenge for the address is used', async () => {
    const u = await seedUser();
    const wallet = privateKeyToAccount(generatePrivateKey());
    const challenge = await askChallenge(u, wallet.address);
    const ok = await claim(u, { walletAddress: wallet.address, signature: await wallet.signMessage({ message: challenge.message }) });
    expect(ok.status).toBe(200);
    expect((await userRow(u.id)).walletAddress).toBe(wallet.address);
  });

  it("another account's challenge is refused, binds nothing and stays usable by its owner", async () => {
    const [owner, thief] = [await seedUser(), await seedUser()];
    const wallet = privateKeyToAccount(generatePrivateKey());
    const body = await signedClaim(owner, wallet);
    const [ownerBefore, thiefBefore] = [await snapshot(owner.id), await snapshot(thief.id)];
    const stolen = await claim(thief, body);
    expect([stolen.status, stolen.body.error.code]).toEqual([404, 'CHALLENGE_NOT_FOUND']);
    // The thief's own challenge for the address, with the owner's signature (of the owner's text): refused.
    const own = await askChallenge(thief, wallet.address);
    const swapped = await claim(thief, { ...body, challengeId: own.id });
    expect([swapped.status, swapped.body.error.code]).toEqual([400, 'INVALID_SIGNATURE']);
    expect(await snapshot(thief.id)).toEqual(thiefBefore);
    expect(await snapshot(owner.id)).toEqual(ownerBefore);
    const ok = await claim(owner, body);
    expect(ok.status).toBe(200);
    expect((await userRow(owner.id)).walletAddress).toBe(wallet.address);
  });

  it('a wrong signer is refused: a squatter cannot bind an address whose key they lack', async () => {
    const [squatter, owner] = [await seedUser(), await seedUser()];
    const victim = privateKeyToAccount(generatePrivateKey());
    const squatterKey = privateKeyToAccount(generatePrivateKey());
    const challenge = await askChallenge(squatter, victim.address);
    const before = await snapshot(squatter.id);
    const forged = await claim(squatter, { walletAddress: victim.address, challengeId: challenge.id, signature: await squatterKey.signMessage({ message: challenge.message }) });
    expect([forged.status, forged.body.error.code]).toEqual([400, 'INVALID_SIGNATURE']);
    const garbage = await claim(squatter, { walletAddress: victim.address, challengeId: challenge.id, signature: `0x${'ab'.repeat(65)}` });
    expect([garbage.status, garbage.body.error.code]).toEqual([400, 'INVALID_SIGNATURE']);
    // A challenge for one address does not bind another, even signed by that other.
    const other = await claim(squatter, { walletAddress: squatterKey.address, challengeId: challenge.id, signature: await squatterKey.signMessage({ message: challenge.message }) });
    expect([other.status, other.body.error.code]).toEqual([400, 'CHALLENGE_MISMATCH']);
    expect(await snapshot(squatter.id)).toEqual(before);
    const [row] = await (await getDb()).select().from(walletChallenges).where(eq(walletChallenges.id, challenge.id));
    expect(row!.usedAt).toBeNull();
    // The real owner binds the address.
    const ok = await claim(owner, await signedClaim(owner, victim));
    expect(ok.status).toBe(200);
  });

  it('an expired challenge is refused', async () => {
    const u = await seedUser();
    const wallet = privateKeyToAccount(generatePrivateKey());
    const body = await signedClaim(u, wallet);
    setFixedTime(new Date(Date.now() + 10 * 60_000 + 1000));
    const before = await snapshot(u.id);
    const late = await claim(u, body);
    expect([late.status, late.body.error.code]).toEqual([400, 'CHALLENGE_EXPIRED']);
    expect(await snapshot(u.id)).toEqual(before);
  });

  it('an address bound to another account stays theirs; the refused claim leaves its challenge open', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    const wallet = privateKeyToAccount(generatePrivateKey());
    expect((await claim(a, await signedClaim(a, wallet))).status).toBe(200);
    const body = await signedClaim(b, wallet);
    const before = await snapshot(b.id);
    const taken = await claim(b, body);
    expect([taken.status, taken.body.error.code]).toEqual([409, 'WALLET_TAKEN']);
    expect(await snapshot(b.id)).toEqual(before);
    const [row] = await (await getDb()).select().from(walletChallenges).where(eq(walletChallenges.id, body.challengeId));
    expect(row!.usedAt).toBeNull();
  });

  it('parallel claims with one signed challenge bind and pay once', async () => {
    const u = await seedUser();
    const wallet = privateKeyToAccount(generatePrivateKey());
    const body = await signedClaim(u, wallet);
    const results = await Promise.all(Array.from({ length: 4 }, () => claim(u, body)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.error.code === 'CHALLENGE_USED')).toHaveLength(3);
    expect((await userRow(u.id)).reputationPoints).toBe(25);
    await expectPointsChain([u.id]);
  });

  it('a repeated Idempotency-Key replays the binding and moves nothing', async () => {
    const u = await seedUser();
    const wallet = privateKeyToAccount(generatePrivateKey());
    const body = await signedClaim(u, wallet);
    const first = await claim(u, body, 'wallet-key-1');
    const again = await claim(u, body, 'wallet-key-1');
    expect(first.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await pointsRows(u.id)).toBe(1);
  });
});

describe('the email bonus pays only for the mailed token', () => {
  const request = (user: TUserRow, email: string) => post(emailBonusRoute, '/api/waitlist/bonus/email', user, { email });
  const verify = (user: TUserRow, token: string, key?: string) => post(verifyEmailRoute, '/api/waitlist/bonus/email/verify', user, { token }, { key });
  const tokenMailedTo = (email: string) => {
    const last = mail.sent.filter((m) => m.to === email).at(-1);
    expect(last, `a mail to ${email}`).toBeDefined();
    return /code to confirm this address for the waitlist bonus: (\S+)/.exec(last!.text)![1]!;
  };
  const emailState = async (userId: string) => {
    const db = await getDb();
    return {
      ...(await snapshot(userId)),
      reserved: (await db.select().from(waitlistEmails).where(eq(waitlistEmails.userId, userId))).map((r) => r.email),
    };
  };

  it('the request reserves and pays nothing, and its answer carries no token; the token then pays once', async () => {
    const u = await seedUser();
    const email = `${uniq('mail')}@example.com`;
    const before = await emailState(u.id);
    const asked = await request(u, email);
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body).toMatchObject({ email, verificationSent: true });
    const token = tokenMailedTo(email);
    expect(JSON.stringify(asked.body)).not.toContain(token);
    expect(await emailState(u.id)).toEqual(before);
    const [stored] = await (await getDb()).select().from(waitlistEmailTokens).where(eq(waitlistEmailTokens.userId, u.id));
    expect(stored!.tokenHash).not.toContain(token);
    const ok = await verify(u, token);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ email, bonusAwarded: 25, points: 25 });
    expect((await emailState(u.id)).reserved).toEqual([email]);
    const again = await verify(u, token);
    expect([again.status, again.body.error.code]).toEqual([409, 'BONUS_ALREADY_CLAIMED']);
    const more = await request(u, `x${email}`);
    expect([more.status, more.body.error.code]).toEqual([409, 'BONUS_ALREADY_CLAIMED']);
    expect((await userRow(u.id)).reputationPoints).toBe(25);
    await expectPointsChain([u.id]);
  });

  it("a wrong, replaced, expired or another player's token is refused and nothing is paid", async () => {
    const [u, other] = [await seedUser(), await seedUser()];
    const email = `${uniq('mail')}@example.com`;
    expect((await request(u, email)).status).toBe(200);
    const first = tokenMailedTo(email);
    const before = await emailState(u.id);
    const wrong = await verify(u, `${first}x`);
    expect([wrong.status, wrong.body.error.code]).toEqual([400, 'EMAIL_TOKEN_INVALID']);
    const theirs = await verify(other, first);
    expect([theirs.status, theirs.body.error.code]).toEqual([400, 'EMAIL_TOKEN_INVALID']);
    expect(await emailState(other.id)).toEqual({ walletAddress: null, reputationPoints: 0, pointsRows: 0, reserved: [] });
    // A new request replaces the first token.
    expect((await request(u, email)).status).toBe(200);
    const second = tokenMailedTo(email);
    expect(second).not.toBe(first);
    const replaced = await verify(u, first);
    expect([replaced.status, replaced.body.error.code]).toEqual([400, 'EMAIL_TOKEN_INVALID']);
    setFixedTime(new Date(Date.now() + 24 * 60 * 60_000 + 1000));
    const expired = await verify(u, second);
    expect([expired.status, expired.body.error.code]).toEqual([400, 'EMAIL_TOKEN_EXPIRED']);
    expect(await emailState(u.id)).toEqual(before);
  });

  it('asking for an address reserves nothing: whoever proves it first gets it', async () => {
    const [squatter, owner] = [await seedUser(), await seedUser()];
    const email = `${uniq('mail')}@example.com`;
    expect((await request(squatter, email)).status).toBe(200);
    const squatterToken = tokenMailedTo(email);
    expect((await request(owner, email.toUpperCase())).status).toBe(200);
    const ownerToken = tokenMailedTo(email.toUpperCase());
    expect((await verify(owner, ownerToken)).status).toBe(200);
    const before = await emailState(squatter.id);
    const late = await verify(squatter, squatterToken);
    expect([late.status, late.body.error.code]).toEqual([409, 'EMAIL_TAKEN']);
    expect(await emailState(squatter.id)).toEqual(before);
    const taken = await request(squatter, email);
    expect([taken.status, taken.body.error.code]).toEqual([409, 'EMAIL_TAKEN']);
  });

  it('without a mail transport (production default) the request is 503 EMAIL_NOT_CONFIGURED and keeps nothing', async () => {
    setMailer(unconfiguredMailer);
    const u = await seedUser();
    const res = await request(u, `${uniq('mail')}@example.com`);
    expect([res.status, res.body.error.code]).toEqual([503, 'EMAIL_NOT_CONFIGURED']);
    expect(await (await getDb()).select().from(waitlistEmailTokens).where(eq(waitlistEmailTokens.userId, u.id))).toEqual([]);
  });

  it('a repeated Idempotency-Key replays the verification and pays once', async () => {
    const u = await seedUser();
    const email = `${uniq('mail')}@example.com`;
    expect((await request(u, email)).status).toBe(200);
    const token = tokenMailedTo(email);
    const first = await verify(u, token, 'email-key-1');
    const again = await verify(u, token, 'email-key-1');
    expect(first.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await pointsRows(u.id)).toBe(1);
  });
});

describe('share rewards: keyed by the external post, by the linked handle, capped per day', () => {
  const link = async (user: TUserRow, handle: string, platform = 'social_a') => {
    const res = await post(linkSocialRoute, `/api/users/${user.id}/link-social`, user, { platform, accessToken: 'tok', username: handle }, { params: { userId: user.id } });
    expect(res.status).toBe(200);
  };
  const share = async (user: TUserRow, contentId = uniq('c'), platform = 'social_a') => {
    const res = await post(shareRoute, `/api/users/${user.id}/share`, user, { platform, contentType: 'post', contentId }, { params: { userId: user.id } });
    expect(res.status).toBe(201);
    return res.body.shareActionId as string;
  };
  const verify = (user: TUserRow, shareActionId: string, postId: string, url: string, key?: string) =>
    post(verifyShareRoute, `/api/users/${user.id}/verify-share`, user, { shareActionId, verificationDetails: { postId, url } }, { params: { userId: user.id }, key });
  const urlOf = (handle: string, postId: string) => `https://social-a.example/${handle}/status/${postId}`;
  const actionState = async (id: string) => {
    const [row] = await (await getDb()).select().from(shareActions).where(eq(shareActions.id, id));
    return { status: row!.status, externalPostId: row!.externalPostId, pointsAwarded: row!.pointsAwarded };
  };

  it('a post not by the linked handle, or on a platform not linked, is refused and pays nothing', async () => {
    const u = await seedUser();
    const handle = uniq('alice');
    const unlinked = await share(u);
    const notLinked = await verify(u, unlinked, 'p1', urlOf(handle, 'p1'));
    expect([notLinked.status, notLinked.body.error.code]).toEqual([400, 'SOCIAL_NOT_LINKED']);
    const elsewhere = await share(u, uniq('c'), 'twitter');
    const unlinkable = await verify(u, elsewhere, 'p1', urlOf(handle, 'p1'));
    expect([unlinkable.status, unlinkable.body.error.code]).toEqual([400, 'SOCIAL_NOT_LINKED']);
    await link(u, handle);
    const before = await snapshot(u.id);
    const action = await share(u);
    const someoneElse = await verify(u, action, 'p2', urlOf('bob', 'p2'));
    expect([someoneElse.status, someoneElse.body.error.code]).toEqual([403, 'SHARE_NOT_YOURS']);
    const inQuery = await verify(u, action, 'p2', `${urlOf('bob', 'p2')}?by=${handle}`);
    expect([inQuery.status, inQuery.body.error.code]).toEqual([403, 'SHARE_NOT_YOURS']);
    const otherPost = await verify(u, action, 'p3', urlOf(handle, 'p2'));
    expect([otherPost.status, otherPost.body.error.code]).toEqual([400, 'VERIFICATION_FAILED']);
    // The platform names another author: refused too.
    setSocialVerifierForTests({ verifyAccount: async () => ({ ok: true }), verifyShare: async () => ({ ok: true, username: 'bob' }) });
    const byBob = await verify(u, action, 'p4', urlOf(handle, 'p4'));
    expect([byBob.status, byBob.body.error.code]).toEqual([403, 'SHARE_NOT_YOURS']);
    expect(await actionState(action)).toEqual({ status: 'pending', externalPostId: null, pointsAwarded: 0 });
    expect(await snapshot(u.id)).toEqual(before);
    // The platform naming the linked handle (any case) is fine.
    setSocialVerifierForTests({ verifyAccount: async () => ({ ok: true }), verifyShare: async () => ({ ok: true, username: `@${handle.toUpperCase()}` }) });
    const ok = await verify(u, action, 'p5', urlOf(handle, 'p5'));
    expect(ok.body).toMatchObject({ verified: true, pointsAwarded: 10 });
  });

  it('one external post verifies one reward, ever: not twice for one player, not again for another', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    const handle = uniq('alice');
    await link(a, handle);
    // Outside production any token links any handle: b claims the same handle, and still cannot reuse the post.
    await link(b, handle);
    const postId = uniq('post');
    const first = await verify(a, await share(a), postId, urlOf(handle, postId));
    expect(first.body).toMatchObject({ verified: true, pointsAwarded: 10 });
    const [aBefore, bBefore] = [await snapshot(a.id), await snapshot(b.id)];
    const second = await share(a);
    const twice = await verify(a, second, postId, urlOf(handle, postId));
    expect([twice.status, twice.body.error.code]).toEqual([409, 'SHARE_POST_ALREADY_USED']);
    const theirs = await share(b);
    const reused = await verify(b, theirs, postId, `${urlOf(handle, postId)}?ref=b`);
    expect([reused.status, reused.body.error.code]).toEqual([409, 'SHARE_POST_ALREADY_USED']);
    expect(await actionState(second)).toEqual({ status: 'pending', externalPostId: null, pointsAwarded: 0 });
    expect(await actionState(theirs)).toEqual({ status: 'pending', externalPostId: null, pointsAwarded: 0 });
    expect([await snapshot(a.id), await snapshot(b.id)]).toEqual([aBefore, bBefore]);
    // Racing for one post id: one verification wins.
    const other = uniq('post');
    const racers = [await share(a), await share(b)];
    const raced = await Promise.all([verify(a, racers[0]!, other, urlOf(handle, other)), verify(b, racers[1]!, other, urlOf(handle, other))]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 409]);
    const rows = await (await getDb()).select().from(shareActions).where(and(eq(shareActions.platform, 'social_a'), eq(shareActions.externalPostId, other)));
    expect(rows).toHaveLength(1);
    await expectPointsChain([a.id, b.id]);
  });

  it(`the daily cap holds: ${SHARE_VERIFICATIONS_PER_DAY} verifications per UTC day, the next day more`, async () => {
    const u = await seedUser();
    const handle = uniq('carol');
    await link(u, handle);
    const day = new Date(Date.now() + 2 * 86_400_000);
    day.setUTCHours(12, 0, 0, 0);
    setFixedTime(day);
    const actions = await Promise.all(Array.from({ length: SHARE_VERIFICATIONS_PER_DAY + 2 }, () => share(u)));
    const results = await Promise.all(actions.map((id, i) => verify(u, id, `cap${i}${handle}`, urlOf(handle, `cap${i}${handle}`))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(SHARE_VERIFICATIONS_PER_DAY);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => [r.status, r.body.error.code])).toEqual(refused.map(() => [429, 'SHARE_DAILY_LIMIT']));
    expect(refused[0]!.body.error.details).toMatchObject({ limit: SHARE_VERIFICATIONS_PER_DAY, retryAt: new Date(day.getTime() + 12 * 3_600_000).toISOString() });
    const points = (await userRow(u.id)).reputationPoints;
    expect(points).toBe(50 + 10 * SHARE_VERIFICATIONS_PER_DAY);
    const pending = actions.filter((_, i) => results[i]!.status !== 200);
    for (const id of pending) expect(await actionState(id)).toEqual({ status: 'pending', externalPostId: null, pointsAwarded: 0 });
    // The next UTC day of game time: verifications are possible again.
    setFixedTime(new Date(day.getTime() + 12 * 3_600_000));
    const next = await verify(u, pending[0]!, `next${handle}`, urlOf(handle, `next${handle}`));
    expect(next.body).toMatchObject({ verified: true, pointsAwarded: 10 });
    await expectPointsChain([u.id]);
  });

  it('a repeated Idempotency-Key replays the verification and pays once', async () => {
    const u = await seedUser();
    const handle = uniq('dave');
    await link(u, handle);
    const action = await share(u);
    const postId = uniq('post');
    const first = await verify(u, action, postId, urlOf(handle, postId), 'share-key-1');
    const again = await verify(u, action, postId, urlOf(handle, postId), 'share-key-1');
    expect(first.body).toMatchObject({ verified: true, pointsAwarded: 10 });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await userRow(u.id)).reputationPoints).toBe(60);
  });
});
