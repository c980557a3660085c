/**
 * GET /api/users/me reads its caller's row, the account's numbers and the stats in one statement
 * when the token is a plain signed token (lib/equity readMeBySubject, the route's caller read):
 * here that answer is held equal to the two-statement reading (the principal's row, then
 * readAccountNumbersWithStatsCounts) for an account with positions, a post, followers and a
 * referral, and for a fresh one; a subject's first sight still provisions the account; and a
 * session token, whose own lookup loads the row, answers the same through the second statement.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as meRoute } from '@/app/api/users/me/route';
import { getDb } from '@/db/client';
import { follows, posts, users, type TUserRow } from '@/db/schema';
import { callerOfUser, toCaller } from '@/lib/auth/caller';
import { openSession } from '@/lib/auth/sessions';
import { getCurrentUserWithNumbers, readMeBySubject } from '@/lib/equity/answers';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { createMarket } from '@/lib/markets/service/create-market';
import { principalFor, verifyCredentials } from '@/lib/principals/principal';
import { findUserBySubject } from '@/lib/users/queries';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, tokenFor, tokenForSubject } from '@/test/http';

/** The two-statement reading: the principal as the wrapper loads it without a caller read, then the numbers. */
const twoStatements = async (token: string) => {
  const claims = (await verifyCredentials({ token, via: 'bearer' }))!;
  const principal = await principalFor(claims, 'bearer');
  expect(principal.preloaded).toBeUndefined();
  return getCurrentUserWithNumbers({ caller: toCaller(principal), principal });
};

let active: TUserRow;
let quiet: TUserRow;

describe('GET /api/users/me in one statement', () => {
  beforeAll(async () => {
    const db = await getDb();
    await seedWorld(db);
    active = await seedUser({ balance: '5000' });
    quiet = await seedUser({ balance: '250.5' });
    const fan = await seedUser();
    await db.update(users).set({ referredById: active.id }).where(sql`${users.id} = ${fan.id}`);
    await db.insert(follows).values({ followerId: fan.id, followingId: active.id, createdAt: new Date() } as typeof follows.$inferInsert);
    await db.insert(posts).values({ authorId: active.id, content: 'One statement for my own page', createdAt: new Date(), updatedAt: new Date() } as typeof posts.$inferInsert);
    const market = await createMarket({ caller: null, text: 'Will the one-statement read agree with the two?', resolutionDate: new Date(Date.now() + 9 * 86_400_000) });
    await buyShares({ caller: callerOfUser(active), marketId: market.id, outcome: 'YES', amount: '120.25' });
    await buyShares({ caller: callerOfUser(active), marketId: market.id, outcome: 'NO', amount: '30' });
  });

  it('loads the row with the numbers and the stats, and answers as the two statements do', async () => {
    for (const user of [active, quiet]) {
      const token = await tokenFor(user);
      const claims = (await verifyCredentials({ token, via: 'bearer' }))!;
      const principal = await principalFor(claims, 'bearer', readMeBySubject);
      expect(principal.preloaded?.read).toBe(readMeBySubject);
      expect(principal.user).toEqual(await findUserBySubject(await getDb(), user.authSubject!));

      const res = await call(meRoute, '/api/users/me', { token });
      expect(res.status).toBe(200);
      expect(res.body.user).toEqual(JSON.parse(JSON.stringify(await twoStatements(token))));
    }
    const me = (await call(meRoute, '/api/users/me', { token: await tokenFor(active) })).body.user;
    // The figures the one statement reads are really there (an empty account would agree trivially).
    expect(me.stats).toMatchObject({ followers: 1, referralCount: 1, posts: 1 });
    expect(Number(me.account.products.predictions.value)).toBeGreaterThan(0);
  });

  it("provisions a subject on first sight, then reads it in one statement", async () => {
    const subject = 'one-statement|first-sight';
    expect(await readMeBySubject(subject)).toBeUndefined();
    const token = await tokenForSubject(subject, { preferred_username: 'firstsight' });
    const first = await call(meRoute, '/api/users/me', { token });
    expect(first.status).toBe(200);
    const row = await findUserBySubject(await getDb(), subject);
    expect(first.body.user.id).toBe(row!.id);
    const read = await readMeBySubject(subject);
    expect(read?.user.id).toBe(row!.id);
    const again = await call(meRoute, '/api/users/me', { token });
    expect(again.body.user).toEqual(first.body.user);
  });

  it('answers a session token, whose lookup loads the row, through the second statement', async () => {
    const { token } = await openSession({ user: active, kind: 'cookie', expiresAt: new Date(Date.now() + 3_600_000) });
    const claims = (await verifyCredentials({ token, via: 'bearer' }))!;
    expect(claims.sessionUser?.id).toBe(active.id);
    expect((await principalFor(claims, 'bearer', readMeBySubject)).preloaded).toBeUndefined();
    const viaSession = await call(meRoute, '/api/users/me', { token });
    const viaToken = await call(meRoute, '/api/users/me', { token: await tokenFor(active) });
    expect(viaSession.status).toBe(200);
    expect(viaSession.body.user).toEqual(viaToken.body.user);
  });
});
