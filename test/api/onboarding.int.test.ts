/**
 * Signup and onboarding, referrals (codes, records, the referrer's fee share in every product and
 * its breakdown), linked accounts, visibility, shares, the waitlist and on-chain registration,
 * through the real route handlers.
 */
import { and, eq, sql } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as agentAuth } from '@/app/api/agents/auth/route';
import { GET as agentStatus, POST as agentOnboard } from '@/app/api/agents/onboard/route';
import { GET as onboardGet, POST as onboardPost } from '@/app/api/auth/onboard/route';
import { POST as closePerp } from '@/app/api/markets/perps/[positionId]/close/route';
import { POST as openPerp } from '@/app/api/markets/perps/open/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { POST as depositRoute } from '@/app/api/pools/[id]/deposit/route';
import { POST as withdrawRoute } from '@/app/api/pools/[id]/withdraw/route';
import { POST as linkSocial } from '@/app/api/users/[userId]/link-social/route';
import { GET as getProfile } from '@/app/api/users/[userId]/profile/route';
import { GET as referralCode } from '@/app/api/users/[userId]/referral-code/route';
import { GET as referralFees } from '@/app/api/users/[userId]/referral-fees/route';
import { GET as referralsList } from '@/app/api/users/[userId]/referrals/route';
import { POST as shareRoute } from '@/app/api/users/[userId]/share/route';
import { POST as updateVisibility } from '@/app/api/users/[userId]/update-visibility/route';
import { POST as verifyShare } from '@/app/api/users/[userId]/verify-share/route';
import { GET as getMe } from '@/app/api/users/me/route';
import { GET as onchainStatus, POST as onchainStart } from '@/app/api/users/onboarding/onchain/route';
import { POST as signupRoute } from '@/app/api/users/signup/route';
import { POST as emailBonus } from '@/app/api/waitlist/bonus/email/route';
import { POST as emailVerify } from '@/app/api/waitlist/bonus/email/verify/route';
import { POST as walletBonus } from '@/app/api/waitlist/bonus/wallet/route';
import { POST as walletChallenge } from '@/app/api/users/wallet/challenge/route';
import { GET as waitlistTop } from '@/app/api/waitlist/leaderboard/route';
import { GET as waitlistPosition } from '@/app/api/waitlist/position/route';
import { getDb, withTransaction } from '@/db/client';
import { markets, onboardingIntents, referralFees as referralFeesTable, referrals, users, type TUserRow } from '@/db/schema';
import { SESSION_COOKIE } from '@/lib/principals/principal';
import { resetEnvCache } from '@/lib/env';
import { setRegistrarForTests } from '@/lib/identity/current-registrar';
import { RegistrarError, type TRegistrar } from '@/lib/identity/registrar';
import { processPendingRegistrations } from '@/lib/identity/service/registration';
import { createMemoryMailer, setMailer } from '@/lib/mail/mailer';
import { credit } from '@/lib/ledger/ledger';
import { setSocialVerifierForTests } from '@/lib/onboarding/verifier';
import { setLimiter } from '@/lib/operations/rate-limit';
import { seedWorld } from '@/lib/world/seed/world';
import { seedPool, seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor, tokenForSubject } from '@/test/http';
import { expectLedgerChain, expectPointsChain } from '@/test/invariants';

beforeAll(async () => {
  await seedWorld(await getDb());
});
beforeEach(() => setLimiter(pinnedLimiter()));
afterEach(() => {
  setRegistrarForTests(undefined);
  setSocialVerifierForTests(undefined);
  setMailer(undefined);
});

let n = 0;
const uniq = (p: string) => `${p}${Date.now().toString(36).slice(-5)}${n++}`;

const signup = async (user: TUserRow, body: Record<string, unknown>) =>
  call(signupRoute, '/api/users/signup', { method: 'POST', token: await tokenFor(user), body });
const userRow = async (id: string) => (await (await getDb()).select().from(users).where(eq(users.id, id)))[0]!;

describe('POST /api/users/signup', () => {
  it('completes the profile and pays the milestones it earns, once', async () => {
    const u = await seedUser();
    const username = uniq('signer');
    const res = await signup(u, { username, displayName: 'Sign Er', bio: 'hello', profileImageUrl: '/avatars/1.svg' });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ username, displayName: 'Sign Er', bio: 'hello', profileComplete: true, reputationPoints: 100 });
    expect(res.body.pointsAwarded).toEqual([
      { milestone: 'username_set', points: 25 },
      { milestone: 'profile_completed', points: 50 },
      { milestone: 'profile_image', points: 25 },
    ]);
    expect(res.body.referral).toBeNull();
    // Again (as a double submit would): nothing more is paid.
    const again = await signup(u, { username, displayName: 'Sign Er' });
    expect(again.status).toBe(200);
    expect(again.body.pointsAwarded).toEqual([]);
    expect(again.body.user.reputationPoints).toBe(100);
    await expectPointsChain([u.id]);
  });

  it('keeps the generated username when the player chooses it, and still pays username_set', async () => {
    const u = await seedUser();
    const res = await signup(u, { username: u.username.toUpperCase(), displayName: 'Keeper' });
    expect(res.status).toBe(200);
    expect(res.body.pointsAwarded.map((p: { milestone: string }) => p.milestone)).toEqual(['username_set', 'profile_completed']);
  });

  it('USERNAME_TAKEN for a name someone has (any case), and nothing changes', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    const res = await signup(b, { username: a.username.toUpperCase(), displayName: 'B' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('USERNAME_TAKEN');
    const row = await userRow(b.id);
    expect([row.profileComplete, row.reputationPoints, row.displayName]).toEqual([false, 0, '']);
  });

  it('400 for bad input: missing fields, a bad username, unknown fields', async () => {
    const u = await seedUser();
    for (const body of [{}, { username: 'ab', displayName: 'x' }, { username: uniq('ok'), displayName: '' }, { username: uniq('ok'), displayName: 'x', admin: true }, { username: uniq('ok'), displayName: 'x', referralCode: 'bad code!' }]) {
      const res = await signup(u, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await call(signupRoute, '/api/users/signup', { method: 'POST', body: { username: uniq('x'), displayName: 'x' } })).status).toBe(401);
  });
});

describe('referrals', () => {
  it('a code at signup writes the referral, sets the referrer, and pays the referrer 100 once', async () => {
    const referrer = await seedUser();
    const [p1, p2] = [await seedUser(), await seedUser()];
    const r1 = await signup(p1, { username: uniq('ref'), displayName: 'One', referralCode: referrer.referralCode.toLowerCase() });
    expect(r1.status).toBe(200);
    expect(r1.body.referral).toMatchObject({ referrerId: referrer.id, status: 'completed' });
    const r2 = await signup(p2, { username: uniq('ref'), displayName: 'Two', referralCode: referrer.referralCode });
    expect(r2.status).toBe(200);
    expect((await userRow(referrer.id)).reputationPoints).toBe(100);
    expect((await userRow(p1.id)).referredById).toBe(referrer.id);

    const token = await tokenFor(referrer);
    const list = await call(referralsList, `/api/users/${referrer.id}/referrals`, { token, params: { userId: referrer.id } });
    expect(list.status).toBe(200);
    expect(list.body.totalReferrals).toBe(2);
    expect(list.body.referrals[0]).toMatchObject({ referredUserId: p2.id, referredUser: { displayName: 'Two' }, status: 'completed', feesEarned: '0' });
    expect(Date.parse(list.body.referrals[0].completedAt)).not.toBeNaN();
    const code = await call(referralCode, `/api/users/${referrer.id}/referral-code`, { token, params: { userId: referrer.id } });
    expect(code.body).toMatchObject({ success: true, referralCode: referrer.referralCode, referralCount: 2, totalFeesEarned: '0' });
    expect(code.body.referralUrl).toBe(`http://localhost:3000/?ref=${referrer.referralCode}`);
    await expectPointsChain([referrer.id, p1.id, p2.id]);
  });

  it('refuses an unknown code, self-referral, a second referrer and a two-way pair, changing nothing', async () => {
    const [a, b, c] = [await seedUser(), await seedUser(), await seedUser()];
    const unknown = await signup(a, { username: uniq('r'), displayName: 'A', referralCode: 'ZZZZZZZZ' });
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'INVALID_REFERRAL_CODE']);
    const self = await signup(a, { username: uniq('r'), displayName: 'A', referralCode: a.referralCode });
    expect([self.status, self.body.error.code]).toEqual([400, 'SELF_REFERRAL']);
    expect((await userRow(a.id)).profileComplete).toBe(false);
    expect((await signup(a, { username: uniq('r'), displayName: 'A', referralCode: b.referralCode })).status).toBe(200);
    const second = await signup(a, { username: uniq('r'), displayName: 'A', referralCode: c.referralCode });
    expect([second.status, second.body.error.code]).toEqual([409, 'ALREADY_REFERRED']);
    const pair = await signup(b, { username: uniq('r'), displayName: 'B', referralCode: a.referralCode });
    expect([pair.status, pair.body.error.code]).toEqual([400, 'INVALID_REFERRAL_CODE']);
    expect((await userRow(a.id)).referredById).toBe(b.id);
    expect((await userRow(c.id)).reputationPoints).toBe(0);
  });

  it('a code after the profile is complete is too late (it would redirect an established player\u2019s fees)', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    expect((await signup(a, { username: uniq('late'), displayName: 'A' })).status).toBe(200);
    const late = await signup(a, { username: uniq('late'), displayName: 'A', referralCode: b.referralCode });
    expect([late.status, late.body.error.code]).toEqual([409, 'REFERRAL_TOO_LATE']);
    expect((await userRow(a.id)).referredById).toBeNull();
  });

  it('parallel signups with one code credit the referrer once per player and the milestone once', async () => {
    const referrer = await seedUser();
    const players = await Promise.all(Array.from({ length: 6 }, () => seedUser()));
    const results = await Promise.all(
      players.flatMap((p) => [0, 1].map(() => signup(p, { username: `${p.username}x`, displayName: 'P', referralCode: referrer.referralCode }))),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const rows = await (await getDb()).select().from(referrals).where(eq(referrals.referrerId, referrer.id));
    expect(rows).toHaveLength(6);
    expect((await userRow(referrer.id)).reputationPoints).toBe(100);
    await expectPointsChain([referrer.id, ...players.map((p) => p.id)]);
  });

  it('the referrer earns half the fees of predictions, perps and pools, with a breakdown by player, source and day', async () => {
    const referrer = await seedUser();
    const player = await seedUser({ balance: '20000' });
    expect((await signup(player, { username: uniq('trader'), displayName: 'Trader', referralCode: referrer.referralCode })).status).toBe(200);
    const token = await tokenFor(player);
    const [market] = await (await getDb()).select().from(markets).where(eq(markets.status, 'active')).limit(1);
    const buy = await call(buyRoute, `/api/markets/predictions/${market!.id}/buy`, { method: 'POST', token, params: { id: market!.id }, body: { outcome: 'YES', amount: 100 } });
    expect(buy.status).toBe(200);
    expect(buy.body.fees.referrer).toBeGreaterThan(0);
    const opened = await call(openPerp, '/api/markets/perps/open', { method: 'POST', token, body: { ticker: 'NEXA', side: 'long', size: 1000, leverage: 2 } });
    expect(opened.status).toBe(200);
    const closed = await call(closePerp, `/api/markets/perps/${opened.body.position.id}/close`, { method: 'POST', token, params: { positionId: opened.body.position.id } });
    expect(closed.status).toBe(200);
    const { pool } = await seedPool({ seed: '10000' });
    const dep = await call(depositRoute, `/api/pools/${pool.id}/deposit`, { method: 'POST', token, params: { id: pool.id }, body: { amount: 1000 } });
    expect(dep.status).toBe(200);
    // The pool gains 10%: the withdrawal pays a performance fee on the profit.
    await withTransaction((tx) => credit(tx, { userId: pool.accountUserId, amount: '1100', type: 'deposit', description: 'test gain' }));
    const wd = await call(withdrawRoute, `/api/pools/${pool.id}/withdraw`, { method: 'POST', token, params: { id: pool.id }, body: { depositId: dep.body.deposit.id, shares: dep.body.deposit.shares } });
    expect(wd.status).toBe(200);
    expect(wd.body.withdrawal.performanceFee).toBeGreaterThan(0);

    const fees = await (await getDb()).select().from(referralFeesTable).where(eq(referralFeesTable.referrerId, referrer.id));
    expect(new Set(fees.map((f) => f.source))).toEqual(new Set(['predictions', 'perps', 'pools']));
    expect(fees.every((f) => f.referredUserId === player.id)).toBe(true);
    const ledgerFees = await (await getDb()).execute(sql`select coalesce(sum(amount), 0)::text as s from balance_transactions where user_id = ${referrer.id} and type = 'referral_fee'`);
    const ledgerTotal = (Array.isArray(ledgerFees) ? ledgerFees : (ledgerFees as { rows: { s: string }[] }).rows)[0]!.s;

    const rtoken = await tokenFor(referrer);
    const breakdown = await call(referralFees, `/api/users/${referrer.id}/referral-fees`, { token: rtoken, params: { userId: referrer.id }, query: { days: 7 } });
    expect(breakdown.status).toBe(200);
    expect(Number(breakdown.body.totalFeesEarned)).toBeCloseTo(Number(ledgerTotal), 8);
    expect(Number(breakdown.body.bySource.predictions)).toBeGreaterThan(0);
    expect(Number(breakdown.body.bySource.perps)).toBeGreaterThan(0);
    expect(Number(breakdown.body.bySource.pools)).toBeGreaterThan(0);
    expect(breakdown.body.byReferredUser).toHaveLength(1);
    expect(breakdown.body.byReferredUser[0]).toMatchObject({ referredUserId: player.id, feeCount: 4, total: breakdown.body.totalFeesEarned });
    expect(breakdown.body.byDay).toHaveLength(7);
    expect(breakdown.body.byDay.at(-1).total).toBe(breakdown.body.totalFeesEarned);
    const list = await call(referralsList, `/api/users/${referrer.id}/referrals`, { token: rtoken, params: { userId: referrer.id } });
    expect(list.body.referrals[0].feesEarned).toBe(breakdown.body.totalFeesEarned);
    await expectLedgerChain([referrer.id, player.id, pool.accountUserId, pool.npcActorId]);
  });

  it('referral reads are owner only', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    const token = await tokenFor(b);
    for (const [h, p] of [[referralCode, 'referral-code'], [referralsList, 'referrals'], [referralFees, 'referral-fees']] as const) {
      const res = await call(h, `/api/users/${a.id}/${p}`, { token, params: { userId: a.id } });
      expect(res.status, p).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });
});

describe('POST /api/auth/onboard and on-chain registration', () => {
  it('onboards, starts the registration, and the tick completes it on the simulated registry', async () => {
    const u = await seedUser();
    const token = await tokenFor(u);
    const res = await call(onboardPost, '/api/auth/onboard', { method: 'POST', token, body: { username: uniq('chain'), displayName: 'Chain' } });
    expect(res.status).toBe(200);
    expect(res.body.user.profileComplete).toBe(true);
    expect(res.body.onboardingIntent).toMatchObject({ status: 'ONCHAIN_IN_PROGRESS', registrar: 'simulated' });
    expect(Number.isInteger(res.body.onboardingIntent.nftTokenId)).toBe(true);
    const again = await call(onchainStart, '/api/users/onboarding/onchain', { method: 'POST', token });
    expect(again.body.onboardingIntent).toMatchObject({ id: res.body.onboardingIntent.id, nftTokenId: res.body.onboardingIntent.nftTokenId });
    await processPendingRegistrations();
    const status = await call(onchainStatus, '/api/users/onboarding/onchain', { token });
    expect(status.body).toMatchObject({ onChainRegistered: true, onboardingIntent: { status: 'COMPLETED' } });
    expect((await call(getMe, '/api/users/me', { token })).body.user.onChainRegistered).toBe(true);
  });

  it('the legacy GET onboards with query fields, and reports the status without them', async () => {
    const u = await seedUser();
    const token = await tokenFor(u);
    const before = await call(onboardGet, '/api/auth/onboard', { token });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ needsSetup: true, onboardingIntent: null, pointsAwarded: [] });
    const done = await call(onboardGet, '/api/auth/onboard', { token, query: { username: uniq('legacy'), displayName: 'Legacy' } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ needsSetup: false, onboardingIntent: { status: 'ONCHAIN_IN_PROGRESS' } });
  });

  it('the legacy GET refuses a session cookie from another site, or from an image planted on ours (403, nothing written), and serves our own page\'s fetch', async () => {
    const referrer = await seedUser();
    const u = await seedUser();
    const cookie = `${SESSION_COOKIE}=${await tokenFor(u)}`;
    const query = { username: uniq('planted'), displayName: 'Planted', referralCode: referrer.referralCode };
    const refused: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, {}, { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }];
    for (const headers of refused) {
      const res = await call(onboardGet, '/api/auth/onboard', { cookie, query, headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    const db = await getDb();
    const [after] = await db.select().from(users).where(eq(users.id, u.id));
    expect(after).toMatchObject({ username: u.username, displayName: u.displayName, profileComplete: false, referredById: null });
    expect(await db.select().from(referrals).where(eq(referrals.referredUserId, u.id))).toHaveLength(0);
    expect(await db.select().from(onboardingIntents).where(eq(onboardingIntents.userId, u.id))).toHaveLength(0);
    // The same request from our own page onboards (and so does a bearer client, above).
    const same = await call(onboardGet, '/api/auth/onboard', { cookie, query, headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' } });
    expect(same.status).toBe(200);
    expect(same.body.user.username).toBe(query.username);
  });

  it('token ids are unique across parallel registrations', async () => {
    const players = await Promise.all(Array.from({ length: 8 }, () => seedUser()));
    const results = await Promise.all(players.map(async (p) => call(onchainStart, '/api/users/onboarding/onchain', { method: 'POST', token: await tokenFor(p) })));
    const ids = results.map((r) => r.body.onboardingIntent.nftTokenId);
    expect(new Set(ids).size).toBe(8);
  });

  it('a failed mint moves the intent to FAILED with its reason, and a retry completes it', async () => {
    const u = await seedUser();
    const token = await tokenFor(u);
    const started = await call(onchainStart, '/api/users/onboarding/onchain', { method: 'POST', token });
    const failing: TRegistrar = {
      kind: 'simulated',
      register: async () => {
        throw new RegistrarError('the registry reverted');
      },
    };
    setRegistrarForTests(failing);
    await processPendingRegistrations();
    const failed = await call(onchainStatus, '/api/users/onboarding/onchain', { token });
    expect(failed.body.onboardingIntent).toMatchObject({ status: 'FAILED', failureReason: 'the registry reverted', attempts: 1 });
    expect(failed.body.onChainRegistered).toBe(false);
    setRegistrarForTests(undefined);
    const retried = await call(onchainStart, '/api/users/onboarding/onchain', { method: 'POST', token });
    expect(retried.body.onboardingIntent).toMatchObject({ status: 'ONCHAIN_IN_PROGRESS', nftTokenId: started.body.onboardingIntent.nftTokenId, failureReason: null });
    await processPendingRegistrations();
    const [row] = await (await getDb()).select().from(onboardingIntents).where(and(eq(onboardingIntents.userId, u.id)));
    expect(row).toMatchObject({ status: 'COMPLETED', attempts: 2 });
  });

  it('agents register through /api/agents/onboard; players are refused there', async () => {
    const saved = process.env.AGENT_CREDENTIALS;
    process.env.AGENT_CREDENTIALS = 'onboard-bot:secret1';
    resetEnvCache();
    try {
      const auth = await call(agentAuth, '/api/agents/auth', { method: 'POST', body: { agentId: 'onboard-bot', agentSecret: 'secret1' } });
      const token = auth.body.sessionToken;
      const before = await call(agentStatus, '/api/agents/onboard', { token });
      expect(before.body).toMatchObject({ onChainRegistered: false, onboardingIntent: null });
      const started = await call(agentOnboard, '/api/agents/onboard', { method: 'POST', token });
      expect(started.status).toBe(200);
      expect(started.body.onboardingIntent.status).toBe('ONCHAIN_IN_PROGRESS');
      await processPendingRegistrations();
      expect((await call(agentStatus, '/api/agents/onboard', { token })).body).toMatchObject({ onChainRegistered: true, onboardingIntent: { status: 'COMPLETED' } });
      const player = await seedUser();
      const refused = await call(agentOnboard, '/api/agents/onboard', { method: 'POST', token: await tokenFor(player) });
      expect([refused.status, refused.body.error.code]).toEqual([403, 'NOT_AN_AGENT']);
    } finally {
      process.env.AGENT_CREDENTIALS = saved;
      resetEnvCache();
    }
  });
});

describe('social links, visibility and shares', () => {
  it('links social_a once for points, shows the handle, and hides it when asked', async () => {
    const u = await seedUser();
    const token = await tokenFor(u);
    const res = await call(linkSocial, `/api/users/${u.id}/link-social`, { method: 'POST', token, params: { userId: u.id }, body: { platform: 'social_a', accessToken: 'tok', username: '@alice' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ linked: true, platform: 'social_a', username: 'alice', pointsAwarded: 50, hasSocialA: true, hasSocialB: false, reputationPoints: 50 });
    const again = await call(linkSocial, `/api/users/${u.id}/link-social`, { method: 'POST', token, params: { userId: u.id }, body: { platform: 'social_a', accessToken: 'tok', username: 'alice2' } });
    expect(again.body).toMatchObject({ pointsAwarded: 0, username: 'alice2', reputationPoints: 50 });
    const viewer = await seedUser();
    const vtoken = await tokenFor(viewer);
    expect((await call(getProfile, `/api/users/${u.id}/profile`, { token: vtoken, params: { userId: u.id } })).body.user.socialAUsername).toBe('alice2');
    const vis = await call(updateVisibility, `/api/users/${u.id}/update-visibility`, { method: 'POST', token, params: { userId: u.id }, body: { showSocialAPublic: false, showWalletPublic: false } });
    expect(vis.body.visibility).toEqual({ showSocialAPublic: false, showSocialBPublic: true, showWalletPublic: false });
    expect((await call(getProfile, `/api/users/${u.id}/profile`, { token: vtoken, params: { userId: u.id } })).body.user.socialAUsername).toBeNull();
    // The owner still sees their own.
    expect((await call(getProfile, `/api/users/${u.id}/profile`, { token, params: { userId: u.id } })).body.user).toMatchObject({ socialAUsername: 'alice2', showSocialAPublic: false });
  });

  it('a refused verification links nothing; someone else\u2019s account is 403', async () => {
    const u = await seedUser();
    setSocialVerifierForTests({ verifyAccount: async () => ({ ok: false, reason: 'The access token is not active' }), verifyShare: async () => ({ ok: false, reason: 'no' }) });
    const res = await call(linkSocial, `/api/users/${u.id}/link-social`, { method: 'POST', token: await tokenFor(u), params: { userId: u.id }, body: { platform: 'social_b', accessToken: 'x', username: 'bob' } });
    expect([res.status, res.body.error.code]).toEqual([400, 'VERIFICATION_FAILED']);
    expect((await userRow(u.id)).hasSocialB).toBe(false);
    const other = await seedUser();
    const forbidden = await call(linkSocial, `/api/users/${u.id}/link-social`, { method: 'POST', token: await tokenFor(other), params: { userId: u.id }, body: { platform: 'social_b', accessToken: 'x', username: 'bob' } });
    expect(forbidden.status).toBe(403);
    const vis = await call(updateVisibility, `/api/users/${u.id}/update-visibility`, { method: 'POST', token: await tokenFor(other), params: { userId: u.id }, body: { showWalletPublic: false } });
    expect(vis.status).toBe(403);
  });

  it('records a share, verifies it once per content and platform for points', async () => {
    const u = await seedUser();
    const token = await tokenFor(u);
    expect((await call(linkSocial, `/api/users/${u.id}/link-social`, { method: 'POST', token, params: { userId: u.id }, body: { platform: 'social_a', accessToken: 'tok', username: 'sharer' } })).status).toBe(200);
    const share = (contentId: string) =>
      call(shareRoute, `/api/users/${u.id}/share`, { method: 'POST', token, params: { userId: u.id }, body: { platform: 'social_a', contentType: 'post', contentId, url: 'https://example.test/p/1' } });
    // Each verification names its own external post, by the linked handle (one post verifies one share, ever).
    const verify = (shareActionId: string, postId: string) =>
      call(verifyShare, `/api/users/${u.id}/verify-share`, { method: 'POST', token, params: { userId: u.id }, body: { shareActionId, verificationDetails: { postId, url: `https://social-a.example/sharer/post/${postId}` } } });
    const s1 = await share('post-1');
    expect(s1.status).toBe(201);
    expect(s1.body.shareAction).toMatchObject({ status: 'pending', contentId: 'post-1' });
    const v1 = await verify(s1.body.shareActionId, uniq('ext'));
    expect(v1.body).toMatchObject({ verified: true, pointsAwarded: 10, shareAction: { status: 'verified' } });
    expect((await verify(s1.body.shareActionId, uniq('ext'))).body.pointsAwarded).toBe(0);
    const s2 = await share('post-1');
    expect((await verify(s2.body.shareActionId, uniq('ext'))).body.pointsAwarded).toBe(0);
    const s3 = await share('post-2');
    expect((await verify(s3.body.shareActionId, uniq('ext'))).body.pointsAwarded).toBe(10);
    expect((await userRow(u.id)).reputationPoints).toBe(70);
    const missing = await verify('nope', uniq('ext'));
    expect([missing.status, missing.body.error.code]).toEqual([404, 'SHARE_ACTION_NOT_FOUND']);
    const other = await seedUser();
    const theirs = await call(verifyShare, `/api/users/${other.id}/verify-share`, { method: 'POST', token: await tokenFor(other), params: { userId: other.id }, body: { shareActionId: s3.body.shareActionId, verificationDetails: { postId: 'x', url: 'https://a.example/x' } } });
    expect(theirs.status).toBe(404);
  });
});

describe('waitlist', () => {
  it('email bonus: paid once the mailed token comes back, once per player and per address', async () => {
    const mail = createMemoryMailer();
    setMailer(mail);
    const [a, b] = [await seedUser(), await seedUser()];
    const email = `${uniq('mail')}@example.com`;
    const asked = await call(emailBonus, '/api/waitlist/bonus/email', { method: 'POST', token: await tokenFor(a), body: { email } });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ email, verificationSent: true });
    expect((await userRow(a.id)).reputationPoints).toBe(0);
    const token = /bonus: (\S+)/.exec(mail.sent.at(-1)!.text)![1]!;
    const first = await call(emailVerify, '/api/waitlist/bonus/email/verify', { method: 'POST', token: await tokenFor(a), body: { token } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ email, bonusAwarded: 25, points: 25 });
    const again = await call(emailBonus, '/api/waitlist/bonus/email', { method: 'POST', token: await tokenFor(a), body: { email: `x${email}` } });
    expect([again.status, again.body.error.code]).toEqual([409, 'BONUS_ALREADY_CLAIMED']);
    const taken = await call(emailBonus, '/api/waitlist/bonus/email', { method: 'POST', token: await tokenFor(b), body: { email: email.toUpperCase() } });
    expect([taken.status, taken.body.error.code]).toEqual([409, 'EMAIL_TAKEN']);
    const bad = await call(emailBonus, '/api/waitlist/bonus/email', { method: 'POST', token: await tokenFor(b), body: { email: 'not-an-email' } });
    expect(bad.status).toBe(400);
  });

  it('wallet bonus: an EIP-55 address and its signature of a challenge; sets walletAddress and pays the milestone once', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    const wallet = privateKeyToAccount(generatePrivateKey());
    const address = wallet.address;
    const signed = async (user: TUserRow) => {
      const c = await call(walletChallenge, '/api/users/wallet/challenge', { method: 'POST', token: await tokenFor(user), body: { address } });
      expect(c.status).toBe(201);
      return { walletAddress: address, challengeId: c.body.challenge.id, signature: await wallet.signMessage({ message: c.body.challenge.message }) };
    };
    const proof = await signed(a);
    // One letter's case flipped: a broken checksum.
    const at = address.slice(2).search(/[a-fA-F]/) + 2;
    const flipped = `${address.slice(0, at)}${address[at] === address[at]!.toLowerCase() ? address[at]!.toUpperCase() : address[at]!.toLowerCase()}${address.slice(at + 1)}`;
    for (const walletAddress of [address.toLowerCase(), flipped, '0x1234']) {
      const bad = await call(walletBonus, '/api/waitlist/bonus/wallet', { method: 'POST', token: await tokenFor(a), body: { ...proof, walletAddress } });
      expect([bad.status, bad.body.error.code], walletAddress).toEqual([400, 'VALIDATION_ERROR']);
    }
    const ok = await call(walletBonus, '/api/waitlist/bonus/wallet', { method: 'POST', token: await tokenFor(a), body: proof });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ walletAddress: address, bonusAwarded: 25, points: 25 });
    expect((await userRow(a.id)).walletAddress).toBe(address);
    const again = await call(walletBonus, '/api/waitlist/bonus/wallet', { method: 'POST', token: await tokenFor(a), body: await signed(a) });
    expect(again.body.bonusAwarded).toBe(0);
    const taken = await call(walletBonus, '/api/waitlist/bonus/wallet', { method: 'POST', token: await tokenFor(b), body: await signed(b) });
    expect([taken.status, taken.body.error.code]).toEqual([409, 'WALLET_TAKEN']);
  });

  it('position ranks players by points; the leaderboard is public and agrees', async () => {
    const top = await seedUser();
    const admin = await seedUser({ isAdmin: true });
    await withTransaction(async (tx) => {
      const { applyPointsChange } = await import('@/lib/points/ledger');
      await applyPointsChange(tx, { userId: top.id, amount: 1_000_000, reason: 'test' });
    });
    const pos = await call(waitlistPosition, '/api/waitlist/position', { token: await tokenFor(top) });
    expect(pos.status).toBe(200);
    expect(pos.body.position).toMatchObject({ userId: top.id, rank: 1, ahead: 0, points: 1_000_000, onWaitlist: true });
    const board = await call(waitlistTop, '/api/waitlist/leaderboard', { query: { limit: 3 } });
    expect(board.status).toBe(200);
    expect(board.body.leaderboard[0]).toMatchObject({ rank: 1, userId: top.id, points: 1_000_000 });
    expect(board.body.leaderboard.length).toBeLessThanOrEqual(3);
    expect(board.body.totalPlayers).toBeGreaterThanOrEqual(pos.body.position.totalPlayers - 5);
    const other = await seedUser();
    const forbidden = await call(waitlistPosition, '/api/waitlist/position', { token: await tokenFor(other), query: { userId: top.id } });
    expect(forbidden.status).toBe(403);
    const asAdmin = await call(waitlistPosition, '/api/waitlist/position', { token: await tokenFor(admin), query: { userId: top.id } });
    expect(asAdmin.body.position.rank).toBe(1);
    expect((await call(waitlistTop, '/api/waitlist/leaderboard', { query: { limit: 0 } })).status).toBe(400);
  });
});

describe('identity', () => {
  it('a fresh sign-in is provisioned with no points and the signup flow is needed', async () => {
    const token = await tokenForSubject(`idp|${uniq('fresh')}`);
    const me = await call(getMe, '/api/users/me', { token });
    expect(me.body.user).toMatchObject({ reputationPoints: 0, profileComplete: false, onChainRegistered: false, socialAUsername: null });
  });
});
