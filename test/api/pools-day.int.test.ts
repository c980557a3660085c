/**
 * A simulated day of trading pools: players deposit into and withdraw from the seeded pools (and
 * a pool of the test's own) while game ticks run under the test clock (ALLOW_TEST_CLOCK=1, a
 * `now` body, as test/api/game.int.test.ts drives them), at the same time as the requests. The
 * tick's pool step (lib/game/steps/pools.ts) lets the managers trade and records every pool's
 * NAV; this file asserts what must hold whatever they did: the ledger chain for every user, every
 * pool's books (totalShares = its lots' remaining shares, flows = ledger legs, NAV recomputed from
 * the rows), no negative balance, and each player's balance = what they put in and took out.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as tickRoute } from '@/app/api/cron/game-tick/route';
import { POST as investRoute } from '@/app/api/npc/[actorId]/invest/route';
import { POST as depositRoute } from '@/app/api/pools/[id]/deposit/route';
import { GET as detailRoute } from '@/app/api/pools/[id]/route';
import { POST as withdrawRoute } from '@/app/api/pools/[id]/withdraw/route';
import { GET as userDepositsRoute } from '@/app/api/pools/deposits/[userId]/route';
import { getDb } from '@/db/client';
import { balanceTransactions, poolDeposits, poolNavPoints, pools, users, type TUserRow } from '@/db/schema';
import { resetClock } from '@/lib/clock/clock';
import { env, resetEnvCache } from '@/lib/env';
import { dec } from '@/lib/money/decimal';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { seedWorld } from '@/lib/world/seed/world';
import { seedPool, seedUser } from '@/test/factories';
import { call, tokenFor, type TCallResult } from '@/test/http';
import { expectLedgerChain, expectPerpTickerCounters, expectPoolBooks, navFromRows } from '@/test/invariants';

const HOUR = 3_600_000;
/** Game time of the first tick: the next whole hour after the seed (the seeded questions are weeks out). */
const T0 = new Date(Math.ceil(Date.now() / HOUR) * HOUR + HOUR);
const at = (hours: number) => new Date(T0.getTime() + hours * HOUR).toISOString();
const tick = (now: string) => call(tickRoute, '/api/cron/game-tick', { method: 'POST', token: env().cronSecret, body: { now } });

const START = 20_000;
let players: TUserRow[] = [];
let ownPoolId = '';
let ownManagerId = '';

beforeAll(async () => {
  process.env.GAME_SEED = 'pools-day-seed';
  process.env.ALLOW_TEST_CLOCK = '1';
  resetEnvCache();
  resetClock();
  await seedWorld(await getDb());
  players = [];
  for (let i = 0; i < 5; i++) players.push(await seedUser({ balance: String(START) }));
  const own = await seedPool({ seed: '8000', fee: '0.1500', tier: 'C' });
  ownPoolId = own.pool.id;
  ownManagerId = own.manager.id;
});

afterAll(() => {
  delete process.env.GAME_SEED;
  delete process.env.ALLOW_TEST_CLOCK;
  resetEnvCache();
  resetClock();
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

const tokens = new Map<string, string>();
const tokenOf = async (u: TUserRow) => {
  let t = tokens.get(u.id);
  if (!t) tokens.set(u.id, (t = await tokenFor(u)));
  return t;
};

type TFlow = { what: string; res: TCallResult };

describe('a simulated day of pools', () => {
  it('players deposit and withdraw while ticks run (and managers trade): every invariant holds after each tick and at the end', async () => {
    const db = await getDb();
    const poolIds = ['seed-pool-1', 'seed-pool-2', 'seed-pool-3', 'seed-pool-4', ownPoolId];
    const flows: TFlow[] = [];
    let ticks = 0;
    let stepRan = false;

    const deposit = async (u: TUserRow, poolId: string, amount: number) => ({
      what: `deposit ${amount} into ${poolId}`,
      res: await call(depositRoute, `/api/pools/${poolId}/deposit`, { method: 'POST', token: await tokenOf(u), params: { id: poolId }, body: { amount } }),
    });
    /** Withdraws `fraction` of the player's oldest lot still holding shares (in any pool), if any. */
    const withdrawPart = async (u: TUserRow, fraction: number): Promise<TFlow | null> => {
      const [lot] = await db
        .select()
        .from(poolDeposits)
        .where(sql`${poolDeposits.userId} = ${u.id} and ${poolDeposits.remainingShares} > 0`)
        .orderBy(asc(poolDeposits.createdAt), asc(poolDeposits.id))
        .limit(1);
      if (!lot) return null;
      const shares = fraction >= 1 ? lot.remainingShares : dec(lot.remainingShares).times(fraction).toDecimalPlaces(8, 1).toFixed();
      return {
        what: `withdraw ${shares} of ${lot.id} in ${lot.poolId}`,
        res: await call(withdrawRoute, `/api/pools/${lot.poolId}/withdraw`, {
          method: 'POST',
          token: await tokenOf(u),
          params: { id: lot.poolId },
          body: { depositId: lot.id, shares },
        }),
      };
    };
    const invest = async (u: TUserRow, actorId: string, action: 'deposit' | 'withdraw', amount: number) => ({
      what: `invest ${action} ${amount} with ${actorId}`,
      res: await call(investRoute, `/api/npc/${actorId}/invest`, { method: 'POST', token: await tokenOf(u), params: { actorId }, body: { action, amount } }),
    });

    // Six ticks four hours apart: a day of game time.
    for (let round = 0; round < 6; round++) {
      setLimiter(createMemoryLimiter());
      const [p0, p1, p2, p3, p4] = players as [TUserRow, TUserRow, TUserRow, TUserRow, TUserRow];
      const [tickRes, ...done] = await Promise.all([
        tick(at(round * 4)),
        deposit(p0, poolIds[round % 5]!, 500 + round * 111),
        deposit(p1, poolIds[(round + 1) % 5]!, 1000),
        deposit(p2, ownPoolId, 250.5),
        round > 0 ? withdrawPart(p0, 0.5) : deposit(p0, 'seed-pool-1', 3000),
        round > 1 ? withdrawPart(p1, 1) : deposit(p1, 'seed-pool-2', 2000),
        invest(p3, round % 2 ? 'actor-marcus_reed' : ownManagerId, 'deposit', 400),
        round > 0 ? invest(p3, round % 2 ? ownManagerId : 'actor-marcus_reed', 'withdraw', 50) : deposit(p3, 'seed-pool-3', 100),
        round > 2 ? withdrawPart(p4, 0.25) : deposit(p4, poolIds[round]!, 1500),
      ]);
      ticks++;
      expect(tickRes.status, JSON.stringify(tickRes.body)).toBe(200);
      expect(tickRes.body.skipped).toBe(false);
      expect(tickRes.body.errors?.pools, 'the pool step failed').toBeUndefined();
      const step = tickRes.body.pools as { pools: number; trades: number; navPoints: number } | undefined;
      if (step) {
        stepRan = true;
        expect(step.trades).toBeGreaterThanOrEqual(0);
        expect(step.navPoints).toBe(poolIds.length);
      }
      for (const f of done) if (f) flows.push(f);

      // After each tick: the books of every pool, and the chain of every user.
      await expectPoolBooks();
      await expectLedgerChain();
    }
    expect(ticks).toBe(6);

    // Every flow was answered: deposits paid, withdrawals paid or refused for want of cash only.
    for (const f of flows) {
      if (f.res.status === 200) continue;
      const code = f.res.body.error?.code;
      const allowed = f.what.startsWith('deposit') || f.what.startsWith('invest deposit') ? [] : ['INSUFFICIENT_LIQUIDITY', 'INSUFFICIENT_SHARES'];
      expect(allowed, `${f.what}: ${f.res.status} ${JSON.stringify(f.res.body)}`).toContain(code);
    }
    expect(flows.filter((f) => f.res.status === 200).length).toBeGreaterThan(30);

    // The end of the day.
    await expectLedgerChain();
    await expectPerpTickerCounters();
    const checked = await expectPoolBooks();
    expect(checked).toEqual(expect.arrayContaining(poolIds));
    const [neg] = await db.select({ n: sql<number>`count(*)::int` }).from(users).where(sql`${users.virtualBalance} < 0`);
    expect(Number(neg!.n)).toBe(0);
    for (const id of poolIds) {
      const [p] = await db.select().from(pools).where(eq(pools.id, id));
      const lots = await db.select().from(poolDeposits).where(eq(poolDeposits.poolId, id));
      expect(dec(p!.totalShares).toFixed(), id).toBe(lots.reduce((s, l) => s.plus(l.remainingShares), dec(0)).toFixed());
      const d = await call(detailRoute, `/api/pools/${id}`, { params: { id }, query: { range: 'all' } });
      expect(d.status).toBe(200);
      expect(d.body.pool.totalValue).toBeCloseTo((await navFromRows(id)).toNumber(), 6);
      expect(d.body.history.length).toBeGreaterThan(0);
      if (stepRan) {
        // The tick records a NAV point per active pool per tick (when the pool step is there).
        const points = await db.select().from(poolNavPoints).where(sql`${poolNavPoints.poolId} = ${id} and ${poolNavPoints.source} = 'tick'`);
        expect(points.length, id).toBeGreaterThanOrEqual(ticks);
      }
    }
    // Each player's money is what they started with, plus what the pools paid, less what they put in.
    for (const u of players) {
      const rows = await db.select().from(balanceTransactions).where(eq(balanceTransactions.userId, u.id));
      expect(rows.every((r) => ['deposit', 'pool_deposit', 'pool_withdraw'].includes(r.type))).toBe(true);
      const flowsOf = rows.filter((r) => r.type !== 'deposit').reduce((s, r) => s.plus(r.amount), dec(0));
      const [me] = await db.select().from(users).where(eq(users.id, u.id));
      expect(me!.virtualBalance).toBe(dec(START).plus(flowsOf).toFixed(8));
      const listing = await call(userDepositsRoute, `/api/pools/deposits/${u.id}`, { token: await tokenOf(u), params: { userId: u.id } });
      expect(listing.status).toBe(200);
      const held = await db.select().from(poolDeposits).where(sql`${poolDeposits.userId} = ${u.id} and ${poolDeposits.remainingShares} > 0`);
      expect(listing.body.deposits.filter((l: { status: string }) => l.status === 'active')).toHaveLength(held.length);
    }
  }, 300_000);
});
