/**
 * Administrator and moderator routes as a player, and scope escalation (issue 29, items 7 and
 * 12), against a production server on each database:
 *  - every route the contracts declare for administrators or moderators answers a player 403,
 *    whatever the body and query (authorisation before validation: a malformed body is not a
 *    400 that teaches the admin schema), walked from the contracts so a new admin route is covered;
 *  - with valid bodies too, a player cannot make themselves (or anyone) an administrator or a
 *    moderator, ban someone, award points or pause the game;
 *  - the profile update and signup take no role fields: isAdmin, isModerator, role are refused.
 * After every attempt the player reads back: not an administrator, not a moderator, not banned,
 * points and game state as they were.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '@/lib/contracts';
import { isPrivileged } from '@/lib/auth/permissions';
import { call, expectOk, expectRefused, me, newPlayer, targets, unique, type TPlayer } from './harness';

const privileged = endpoints.filter((e) => isPrivileged(e.requires));

describe.each(targets())('admin routes as a player, scope escalation ($name)', (t) => {
  let player: TPlayer;
  let victim: TPlayer;

  beforeAll(async () => {
    player = await newPlayer(t, 'admin-player');
    victim = await newPlayer(t, 'admin-victim');
  });

  const expectPlain = async (p: TPlayer) => {
    const user = await me(t, p.token);
    expect(user.isAdmin ?? false).toBe(false);
    expect(user.isModerator ?? false).toBe(false);
    expect(user.isBanned ?? false).toBe(false);
  };

  it(`answers 403 on every administrator and moderator route (${privileged.length}) whatever the body: authorisation before validation`, async () => {
    expect(privileged.length).toBeGreaterThan(10);
    const answers: string[] = [];
    for (const e of privileged) {
      // {userId} is the player's own id: were the route to run, it would act on the player.
      const path = e.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'userId' ? player.id : 'no-such-thing'));
      const res =
        e.method === 'GET'
          ? await call(t, `${path}?limit=-5&bogus=%5B%5D`, { token: player.token })
          : await call(t, path, { method: e.method, token: player.token, body: { bogus: [[['x']]], role: 42, amount: 'lots' } });
      answers.push(`${e.method} ${e.path}: ${res.status} ${res.body?.error?.code}`);
    }
    expect(answers).toEqual(privileged.map((e) => `${e.method} ${e.path}: 403 FORBIDDEN`));
    await expectPlain(player);
  });

  it('refuses valid admin calls from a player: no role, no ban, no points, no pause', async () => {
    const points = async () => expectOk(await call(t, `/api/users/${player.id}/points?limit=1`, { token: player.token })).points as number;
    const pointsBefore = await points();
    const controlBefore = expectOk(await call(t, '/api/game/control', { token: player.token }));

    for (const role of ['admin', 'moderator']) {
      expectRefused(await call(t, `/api/admin/users/${player.id}/role`, { token: player.token, body: { role } }), 403, 'FORBIDDEN');
      expectRefused(await call(t, `/api/admin/users/${victim.id}/role`, { token: player.token, body: { role } }), 403, 'FORBIDDEN');
    }
    expectRefused(await call(t, `/api/admin/users/${victim.id}/ban`, { token: player.token, body: { action: 'ban', reason: 'because' } }), 403, 'FORBIDDEN');
    expectRefused(await call(t, '/api/users/points/award', { token: player.token, body: { userId: player.id, amount: 1000, reason: 'self' } }), 403, 'FORBIDDEN');
    expectRefused(await call(t, '/api/game/control', { token: player.token, body: { action: 'pause' } }), 403, 'FORBIDDEN');

    await expectPlain(player);
    await expectPlain(victim);
    expect(await points()).toBe(pointsBefore);
    const controlAfter = expectOk(await call(t, '/api/game/control', { token: player.token }));
    expect(controlAfter.status).toBe(controlBefore.status);
    // The player is still an ordinary player who can write (not banned, not locked out).
    expectOk(await call(t, '/api/posts', { token: victim.token, body: { content: `still here ${unique('v')}` } }), 201);
  });

  it('refuses role fields in the profile update and in signup; the player stays a player', async () => {
    const attempts = [{ isAdmin: true }, { isModerator: true }, { role: 'admin' }, { displayName: 'Boss', isAdmin: true }];
    for (const body of attempts) {
      expectRefused(await call(t, `/api/users/${player.id}/update-profile`, { token: player.token, body }), 400);
    }
    const fresh = await newPlayer(t, 'admin-signup');
    const signup = await call(t, '/api/users/signup', { token: fresh.token, body: { username: unique('boss'), displayName: 'Boss', isAdmin: true, role: 'admin' } });
    expectRefused(signup, 400);
    await expectPlain(player);
    await expectPlain(fresh);
    expect((await me(t, player.token)).displayName).not.toBe('Boss');
    expect((await me(t, fresh.token)).profileComplete).toBe(false);
  });
});
