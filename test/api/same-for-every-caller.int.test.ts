/**
 * Operations declared `sameForEveryCaller` (lib/contracts/endpoint.ts: market data, health, public
 * statistics) answer a signed-in call without reading the caller's row: here a plain signed token
 * gets the anonymous answer, its subject is never provisioned by it (the row was not looked for),
 * a bad token is still refused, the call still counts against the token's own rate-limit window,
 * and a route that is not declared so still provisions the caller on first sight.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as healthRoute } from '@/app/api/health/route';
import { GET as listRoute } from '@/app/api/markets/predictions/route';
import { GET as perpsRoute } from '@/app/api/markets/perps/route';
import { GET as leaderboardRoute } from '@/app/api/leaderboard/route';
import { getDb } from '@/db/client';
import { endpoints } from '@/lib/contracts';
import { createMarket } from '@/lib/markets/service/create-market';
import { setLimiter } from '@/lib/operations/rate-limit';
import { findUserBySubject } from '@/lib/users/queries';
import { seedWorld } from '@/lib/world/seed/world';
import { call, pinnedLimiter, tokenForSubject } from '@/test/http';

const known = async (subject: string) => !!(await findUserBySubject(await getDb(), subject));

describe('operations the same for every caller', () => {
  beforeAll(async () => {
    await seedWorld(await getDb());
    await createMarket({ caller: null, text: 'Will a caller-blind list show this question?', resolutionDate: new Date(Date.now() + 7 * 86_400_000) });
  });
  beforeEach(() => setLimiter(pinnedLimiter()));

  it('answers a signed-in call as an anonymous one, without reading or provisioning the caller', async () => {
    expect(endpoints.filter((e) => e.sameForEveryCaller).map((e) => e.id)).toEqual(expect.arrayContaining(['predictions.list', 'perps.list', 'system.health']));
    const subject = 'caller-blind|never-seen';
    const token = await tokenForSubject(subject);
    for (const [handler, path] of [
      [listRoute, '/api/markets/predictions?limit=5'],
      [perpsRoute, '/api/markets/perps'],
      [healthRoute, '/api/health'],
    ] as const) {
      const signedIn = await call(handler, path, { token });
      const anonymous = await call(handler, path);
      expect(signedIn.status, path).toBe(200);
      expect(signedIn.body, path).toEqual(anonymous.body);
    }
    expect(await known(subject)).toBe(false);
    // A route that is not declared so loads (and here provisions) its caller as always.
    expect((await call(leaderboardRoute, '/api/leaderboard', { token })).status).toBe(200);
    expect(await known(subject)).toBe(true);
  });

  it('still refuses a bad token and counts the call in the token subject window', async () => {
    const bad = await call(listRoute, '/api/markets/predictions', { token: 'not-a-token' });
    expect(bad.status).toBe(401);
    const token = await tokenForSubject('caller-blind|counted');
    const first = await call(listRoute, '/api/markets/predictions', { token });
    const second = await call(listRoute, '/api/markets/predictions', { token });
    const anonymous = await call(listRoute, '/api/markets/predictions');
    const remaining = (r: { headers: Headers }) => Number(r.headers.get('x-ratelimit-remaining'));
    expect(remaining(second)).toBe(remaining(first) - 1);
    // The address's window holds the bad-token call and the anonymous one, not the token's two.
    expect(remaining(anonymous)).toBe(remaining(first) - 1);
  });
});
