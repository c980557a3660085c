/**
 * One set of numbers (issue 31): random accounts do random activity through the real routes
 * (prediction buys and sales, a resolution, perp opens and closes at moving marks, pool deposits
 * and withdrawals), then every answer that shows equity or P&L agrees with lib/equity to the
 * cent: the balance, the positions (the portfolio), the caller's own account and a stranger's
 * view of the profile, the stats, the track record, the admin list, and A2A getBalance and
 * getPositions. The identities hold exactly: P&L = equity − contributions = Σ products' P&L,
 * and equity = cash + what the positions, perps and pool stakes are worth in their own answers.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as a2aRoute } from '@/app/api/a2a/route';
import { GET as adminUsersRoute } from '@/app/api/admin/users/route';
import { POST as adminPriceRoute } from '@/app/api/admin/perps/[ticker]/price/route';
import { POST as resolveRoute } from '@/app/api/admin/markets/[id]/resolve/route';
import { POST as closeRoute } from '@/app/api/markets/perps/[positionId]/close/route';
import { POST as openRoute } from '@/app/api/markets/perps/open/route';
import { GET as positionsRoute } from '@/app/api/markets/positions/[userId]/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { POST as sellRoute } from '@/app/api/markets/predictions/[id]/sell/route';
import { POST as depositRoute } from '@/app/api/pools/[id]/deposit/route';
import { POST as withdrawRoute } from '@/app/api/pools/[id]/withdraw/route';
import { GET as poolDepositsRoute } from '@/app/api/pools/deposits/[userId]/route';
import { GET as balanceRoute } from '@/app/api/users/[userId]/balance/route';
import { GET as profileRoute } from '@/app/api/users/[userId]/profile/route';
import { GET as statsRoute } from '@/app/api/users/[userId]/stats/route';
import { GET as trackRecordRoute } from '@/app/api/users/[userId]/track-record/route';
import { GET as meRoute } from '@/app/api/users/me/route';
import { getDb } from '@/db/client';
import type { TUserRow } from '@/db/schema';
import { readAccountNumbers } from '@/lib/equity/service';
import { createRng } from '@/lib/game/rng';
import { accountNumbersOf, LEDGER_CLASS, PRODUCTS, type TAccountNumbers } from '@/lib/ledger/account-numbers';
import { TRANSACTION_TYPES } from '@/lib/ledger/ledger';
import { createMarket } from '@/lib/markets/service/create-market';
import { dec } from '@/lib/money/decimal';
import { buyPoolPrediction, openPoolPerp } from '@/lib/pools/service/trade';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { seedWorld } from '@/lib/world/seed/world';
import { seedPool, seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';
import { expectLedgerChain } from '@/test/invariants';

const TICKERS = ['HELX', 'QBIT', 'SOLR'];
const ACCOUNTS = 4;
const STEPS = 14;

let admin: TUserRow;
let players: TUserRow[] = [];
let marketIds: string[] = [];
let poolId: string;

const post = async (handler: any, path: string, user: TUserRow, params: Record<string, string>, body?: unknown) =>
  call(handler, path, { method: 'POST', token: await tokenFor(user), params, body });

const rpc = async (user: TUserRow, method: string, params: unknown) => {
  const res = await call(a2aRoute, '/api/a2a', { method: 'POST', token: await tokenFor(user), body: { jsonrpc: '2.0', id: 1, method, params } });
  expect(res.status).toBe(200);
  expect(res.body.error).toBeUndefined();
  return res.body.result;
};

/** To the cent: the answers carry JSON numbers in places, decimal strings in others. */
const cents = (v: string | number | ReturnType<typeof dec>) => dec(v).toDecimalPlaces(2).toFixed(2);

beforeAll(async () => {
  await seedWorld(await getDb());
  setLimiter(createMemoryLimiter());
  admin = await seedUser({ isAdmin: true, balance: '0' });
  players = [];
  for (let i = 0; i < ACCOUNTS; i++) players.push(await seedUser({ balance: '5000' }));
  marketIds = [];
  for (const text of ['Will the equity test see rain?', 'Will the equity test see snow?', 'Will the equity test see sun?']) {
    marketIds.push((await createMarket({ caller: null, text, resolutionDate: new Date(Date.now() + 20 * 86_400_000), liquidity: 5000 })).id);
  }
  poolId = (await seedPool({ seed: '10000' })).pool.id;
  // The pool holds a perp and a prediction of its own, so its stakes move with marks and prices.
  expect((await openPoolPerp({ poolId, ticker: 'HELX', side: 'long', size: '4000', leverage: '5' })).ok).toBe(true);
  expect((await buyPoolPrediction({ poolId, marketId: marketIds[1]!, outcome: 'YES', amount: '500' })).ok).toBe(true);

  // Random activity, the same every run (seeded).
  const rng = createRng('equity-reconciliation');
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rng.next() * xs.length)]!;
  const openPerps = new Map<string, string[]>();
  const lots = new Map<string, string[]>();
  for (let step = 0; step < STEPS; step++) {
    for (const p of players) {
      const action = pick(['buy', 'buy', 'sell', 'open', 'open', 'close', 'deposit', 'withdraw'] as const);
      const marketId = pick(marketIds.slice(step < STEPS / 2 ? 0 : 1));
      if (action === 'buy') {
        const res = await post(buyRoute, `/api/markets/predictions/${marketId}/buy`, p, { id: marketId }, { outcome: pick(['YES', 'NO']), amount: 10 + Math.floor(rng.next() * 90) });
        expect(res.status).toBe(200);
      } else if (action === 'sell') {
        const pos = await call(positionsRoute, `/api/markets/positions/${p.id}`, { token: await tokenFor(p), params: { userId: p.id } });
        const held = (pos.body.predictions as { marketId: string; side: string; shares: number }[]).filter((x) => x.shares > 1);
        if (held.length) {
          const h = pick(held);
          const res = await post(sellRoute, `/api/markets/predictions/${h.marketId}/sell`, p, { id: h.marketId }, { outcome: h.side, shares: Math.floor(h.shares / 2) });
          expect(res.status).toBe(200);
        }
      } else if (action === 'open') {
        const res = await post(openRoute, '/api/markets/perps/open', p, {}, { ticker: pick(TICKERS), side: pick(['long', 'short']), size: 50 + Math.floor(rng.next() * 300), leverage: pick([1, 2, 5, 10]) });
        expect(res.status).toBe(200);
        openPerps.set(p.id, [...(openPerps.get(p.id) ?? []), res.body.position.id]);
      } else if (action === 'close') {
        const ids = openPerps.get(p.id) ?? [];
        if (ids.length) {
          const id = ids.shift()!;
          const res = await post(closeRoute, `/api/markets/perps/${id}/close`, p, { positionId: id });
          expect([200, 404]).toContain(res.status); // 404: liquidated meanwhile
        }
      } else if (action === 'deposit') {
        const res = await post(depositRoute, `/api/pools/${poolId}/deposit`, p, { id: poolId }, { amount: 100 + Math.floor(rng.next() * 200) });
        expect(res.status).toBe(200);
        lots.set(p.id, [...(lots.get(p.id) ?? []), res.body.deposit.id]);
      } else {
        const ids = lots.get(p.id) ?? [];
        if (ids.length) {
          const res = await post(withdrawRoute, `/api/pools/${poolId}/withdraw`, p, { id: poolId }, { depositId: ids.shift()!, shares: 10 });
          expect(res.status).toBe(200);
        }
      }
    }
    // Marks move (the pool's stake value and every perp with them).
    const ticker = pick(TICKERS);
    const mark = dec((await readMark(ticker)) ?? 100).times(0.94 + rng.next() * 0.12).toDecimalPlaces(4);
    expect((await post(adminPriceRoute, `/api/admin/perps/${ticker}/price`, admin, { ticker }, { price: mark.toNumber() })).status).toBe(200);
    if (step === Math.floor(STEPS / 2)) {
      const res = await post(resolveRoute, `/api/admin/markets/${marketIds[0]}/resolve`, admin, { id: marketIds[0]! }, { outcome: 'YES' });
      expect(res.status).toBe(200);
    }
  }
}, 300_000);

beforeEach(() => setLimiter(createMemoryLimiter()));

const readMark = async (ticker: string) => {
  const { sql } = await import('drizzle-orm');
  const rows = (await (await getDb()).execute(sql`select mark_price::text as p from perp_markets where ticker = ${ticker}`)) as unknown;
  const list = (Array.isArray(rows) ? rows : (rows as { rows: { p: string }[] }).rows) as { p: string }[];
  return list[0]?.p;
};

describe('one definition of equity and P&L', () => {
  it('classifies every ledger type: a contribution or exactly one product', () => {
    for (const t of TRANSACTION_TYPES) expect(['contribution', ...PRODUCTS]).toContain(LEDGER_CLASS[t]);
    expect(Object.keys(LEDGER_CLASS).sort()).toEqual([...TRANSACTION_TYPES].sort());
  });

  it('gives a fresh account its cash as equity and no P&L', async () => {
    const fresh = await seedUser({ balance: '1234.5' });
    const n = (await readAccountNumbers(fresh.id))!;
    expect(n).toMatchObject({ cash: '1234.5', equity: '1234.5', contributions: '1234.5', pnl: '0', realizedPnL: '0', unrealizedPnL: '0' });
  });

  it('holds its identities after random activity, and the ledger chain with them', async () => {
    await expectLedgerChain(players.map((p) => p.id));
    let traded = 0;
    for (const p of players) {
      const n = (await readAccountNumbers(p.id))!;
      // P&L = equity − contributions = Σ products (exact decimals).
      expect(dec(n.pnl).eq(dec(n.equity).minus(n.contributions))).toBe(true);
      expect(dec(n.pnl).eq(PRODUCTS.reduce((s, k) => s.plus(n.products[k].pnl), dec(0)))).toBe(true);
      expect(dec(n.pnl).eq(dec(n.realizedPnL).plus(n.unrealizedPnL))).toBe(true);
      expect(n.contributions).toBe('5000');
      // The pure twin gives the same from the same parts.
      const again = accountNumbersOf({
        cash: n.cash,
        contributions: n.contributions,
        products: Object.fromEntries(PRODUCTS.map((k) => [k, { flows: dec(n.products[k].pnl).minus(n.products[k].value), value: n.products[k].value, cost: n.products[k].costBasis }])) as never,
      });
      expect(again).toEqual(n);
      if (!dec(n.pnl).isZero()) traded++;
    }
    expect(traded).toBeGreaterThan(0);
  });

  it('is what every answer shows, to the cent', async () => {
    const adminList = await call(adminUsersRoute, '/api/admin/users', { token: await tokenFor(admin), query: { limit: 100, sortBy: 'pnl' } });
    expect(adminList.status).toBe(200);
    for (const p of players) {
      const n = (await readAccountNumbers(p.id))!;
      const token = await tokenFor(p);
      const expectSame = (a: TAccountNumbers) => expect(a).toEqual(n);

      const balance = await call(balanceRoute, `/api/users/${p.id}/balance`, { token, params: { userId: p.id } });
      expect(balance.status).toBe(200);
      expectSame(balance.body.account);
      expect(balance.body.lifetimePnL).toBe(n.pnl);
      expect(balance.body.balance).toBe(n.cash);

      const positions = await call(positionsRoute, `/api/markets/positions/${p.id}`, { token, params: { userId: p.id } });
      expect(positions.status).toBe(200);
      expectSame(positions.body.account);
      // Equity is cash + what each position, perp and pool stake is worth in its own answer.
      const deposits = await call(poolDepositsRoute, `/api/pools/deposits/${p.id}`, { token, params: { userId: p.id } });
      expect(deposits.status).toBe(200);
      const preds = (positions.body.predictions as { value: number; status: string }[]).reduce((s, x) => s.plus(x.value), dec(0));
      const perps = (positions.body.perps as { collateral: number; unrealizedPnL: number }[]).reduce((s, x) => s.plus(Math.max(0, x.collateral + x.unrealizedPnL)), dec(0));
      const stakes = dec(deposits.body.totals.currentValue);
      expect(cents(dec(n.cash).plus(preds).plus(perps).plus(stakes))).toBe(cents(n.equity));
      expect(cents(n.products.pools.value)).toBe(cents(stakes));

      const me = await call(meRoute, '/api/users/me', { token });
      expectSame(me.body.user.account);
      expect(cents(me.body.user.lifetimePnL)).toBe(cents(n.pnl));
      expect(cents(me.body.user.stats.lifetimePnL)).toBe(cents(n.pnl));

      const seen = await call(profileRoute, `/api/users/${p.id}/profile`, { token: await tokenFor(players[(players.indexOf(p) + 1) % players.length]!), params: { userId: p.id } });
      expect(seen.body.user.account).toBeUndefined(); // cash is the owner's
      expect(cents(seen.body.user.lifetimePnL)).toBe(cents(n.pnl));
      const stranger = await call(positionsRoute, `/api/markets/positions/${p.id}`, { token: await tokenFor(admin === p ? players[0]! : players[(players.indexOf(p) + 1) % players.length]!), params: { userId: p.id } });
      expect(stranger.body.account).toBeUndefined();

      const stats = await call(statsRoute, `/api/users/${p.id}/stats`, { params: { userId: p.id } });
      expect(cents(stats.body.stats.lifetimePnL)).toBe(cents(n.pnl));

      const record = await call(trackRecordRoute, `/api/users/${p.id}/track-record`, { params: { userId: p.id } });
      expect(record.status).toBe(200);
      expect(cents(record.body.pnl.total)).toBe(cents(n.pnl));
      for (const k of PRODUCTS) expect(cents(record.body.pnl[k])).toBe(cents(n.products[k].pnl));
      expect(cents(record.body.unrealizedPnL)).toBe(cents(n.unrealizedPnL));

      const row = (adminList.body.users as { id: string; lifetimePnL: string; equity: string }[]).find((u) => u.id === p.id)!;
      expect(row).toMatchObject({ lifetimePnL: n.pnl, equity: n.equity });

      expectSame((await rpc(p, 'a2a.getBalance', {})).account);
      expectSame((await rpc(p, 'a2a.getPositions', {})).account);
    }
    // Sorted by the one P&L.
    const listed = (adminList.body.users as { lifetimePnL: string }[]).map((u) => dec(u.lifetimePnL));
    for (let i = 1; i < listed.length; i++) expect(listed[i - 1]!.gte(listed[i]!)).toBe(true);
  });
});
