/**
 * Trading notifications (issue 19, deliverable 7): each kind is written once, only when due, in
 * the transaction of its cause; the liquidation warning comes once per approach (its liquidation
 * price with the funding accrued); funding moves a per-ticker index in the same statements however
 * many positions are open, and notifies nobody (issue 20).
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { POST as createMarketRoute } from '@/app/api/admin/markets/route';
import { POST as resolveRoute } from '@/app/api/admin/markets/[id]/resolve/route';
import { POST as adminPriceRoute } from '@/app/api/admin/perps/[ticker]/price/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { POST as openRoute } from '@/app/api/markets/perps/open/route';
import { GET as notificationsRoute } from '@/app/api/notifications/route';
import { getDb, rowsOf, type Tx } from '@/db/client';
import { notifications, perpMarkets, perpPositions, type TUserRow } from '@/db/schema';
import { now, resetClock } from '@/lib/clock/clock';
import { runAlertsStep } from '@/lib/game/steps/alerts';
import { createRng } from '@/lib/game/rng';
import { markAtRatio } from '@/lib/notifications/alerts-math';
import { notifyPriceMoves } from '@/lib/notifications/trading';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { effectiveLiquidationPrice, MAINTENANCE_RATE } from '@/lib/perps/math';
import { dec } from '@/lib/money/decimal';
import { payDueFunding } from '@/lib/perps/service/funding';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';

beforeAll(async () => {
  await seedWorld(await getDb());
});
beforeEach(() => setLimiter(createMemoryLimiter()));
afterEach(() => resetClock());

let admin: TUserRow;
const adminToken = async () => tokenFor((admin ??= await seedUser({ isAdmin: true, balance: '0' })));

const setPrice = async (ticker: string, price: number) => {
  const res = await call(adminPriceRoute, `/api/admin/perps/${ticker}/price`, { method: 'POST', token: await adminToken(), params: { ticker }, body: { price } });
  expect(res.status).toBe(200);
};
const open = async (user: TUserRow, body: Record<string, unknown>) => {
  const res = await call(openRoute, '/api/markets/perps/open', { method: 'POST', token: await tokenFor(user), body });
  expect(res.status).toBe(200);
  return res.body.position as { id: string };
};
const newMarket = async (text = 'Will the trading notifications reach their holders?') => {
  const res = await call(createMarketRoute, '/api/admin/markets', {
    method: 'POST',
    token: await adminToken(),
    body: { text, resolutionDate: new Date(Date.now() + 7 * 86_400_000).toISOString(), liquidity: 1000 },
  });
  expect(res.status).toBe(200);
  return res.body.market as { id: string };
};
const buy = async (user: TUserRow, marketId: string, outcome: 'YES' | 'NO', amount: number) => {
  const res = await call(buyRoute, `/api/markets/predictions/${marketId}/buy`, { method: 'POST', token: await tokenFor(user), params: { id: marketId }, body: { outcome, amount } });
  expect(res.status).toBe(200);
};
const listOf = async (user: TUserRow) => {
  const res = await call(notificationsRoute, '/api/notifications', { token: await tokenFor(user) });
  expect(res.status).toBe(200);
  return res.body.notifications as { type: string; kind: string | null; link: string | null; title: string; message: string }[];
};
const ofKind = async (user: TUserRow, kind: string) => (await listOf(user)).filter((n) => n.kind === kind);
const tick = () => runAlertsStep({ at: now(), rng: createRng('alerts-test'), deadline: Number.POSITIVE_INFINITY, newEvents: [] });

const positionRow = async (id: string) => {
  const [p] = await (await getDb()).select().from(perpPositions).where(eq(perpPositions.id, id));
  return p!;
};
/** The mark at which the position's buffer ratio is `ratio`, from its stored columns. */
const markAt = async (id: string, ratio: number) => {
  const p = await positionRow(id);
  const mark = markAtRatio(
    { maintenanceRate: MAINTENANCE_RATE.toNumber(), side: p.side, units: Number(p.units), size: Number(p.size), margin: Number(p.margin), liquidationPrice: Number(p.liquidationPrice) },
    ratio,
  );
  return Math.round(mark * 1e4) / 1e4;
};

describe('liquidation warnings (tick step alerts)', () => {
  it('warns once per approach, is not repeated, comes again after a recovery, then the liquidation is notified', async () => {
    const user = await seedUser({ balance: '10000' });
    await setPrice('HELX', 100);
    const pos = await open(user, { ticker: 'HELX', side: 'long', size: 1000, leverage: 10 });
    const entry = Number((await positionRow(pos.id)).entryPrice);

    // Just above the threshold (the SQL agrees with alerts-math at the edge): nothing.
    await setPrice('HELX', await markAt(pos.id, 0.27));
    await tick();
    expect(await ofKind(user, 'liquidation_warning')).toHaveLength(0);

    await setPrice('HELX', await markAt(pos.id, 0.2));
    const first = await tick();
    expect(first.liquidationWarnings).toBeGreaterThanOrEqual(1);
    const warned = await ofKind(user, 'liquidation_warning');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ type: 'system', link: '/perps/HELX', title: 'Liquidation warning: HELX' });
    expect(warned[0]!.message).toContain('10x long on HELX');
    expect((await positionRow(pos.id)).liquidationWarnedAt).not.toBeNull();

    // The next tick, still near: not repeated. Recovering only to 40 % keeps it warned.
    await tick();
    await setPrice('HELX', await markAt(pos.id, 0.4));
    await tick();
    expect(await ofKind(user, 'liquidation_warning')).toHaveLength(1);

    // Back to the entry: reset; approaching again warns again.
    await setPrice('HELX', entry);
    await tick();
    expect((await positionRow(pos.id)).liquidationWarnedAt).toBeNull();
    expect(await ofKind(user, 'liquidation_warning')).toHaveLength(1);
    await setPrice('HELX', await markAt(pos.id, 0.1));
    await tick();
    expect(await ofKind(user, 'liquidation_warning')).toHaveLength(2);

    // Through the liquidation price: liquidated, with its own kind and link, and no more warnings.
    await setPrice('HELX', await markAt(pos.id, -0.1));
    expect((await positionRow(pos.id)).status).toBe('liquidated');
    const liq = await ofKind(user, 'liquidation');
    expect(liq).toHaveLength(1);
    expect(liq[0]).toMatchObject({ link: '/perps/HELX', title: 'Position liquidated' });
    await tick();
    expect(await ofKind(user, 'liquidation_warning')).toHaveLength(2);
  });

  it('warns shorts as the mark rises, and never NPC actors', async () => {
    const user = await seedUser({ balance: '10000' });
    await setPrice('QBIT', 80);
    const pos = await open(user, { ticker: 'QBIT', side: 'short', size: 500, leverage: 50 });
    await setPrice('QBIT', await markAt(pos.id, 0.15));
    await tick();
    const [w] = await ofKind(user, 'liquidation_warning');
    expect(w).toMatchObject({ link: '/perps/QBIT' });
    expect(w!.message).toContain('50x short on QBIT');
    const db = await getDb();
    const [actorNotes] = rowsOf<{ n: string }>(
      await db.execute(sql`select count(*) as n from notifications n join users u on u.id = n.user_id where u.is_actor and n.kind = 'liquidation_warning'`),
    );
    expect(Number(actorNotes!.n)).toBe(0);
    await setPrice('QBIT', 80);
  });
});

describe('liquidation warnings with funding', () => {
  it('counts the funding accrued since the open: the index alone brings the warning, at the funded liquidation price', async () => {
    const db = await getDb();
    const user = await seedUser({ balance: '10000' });
    await setPrice('VRSE', 100);
    const pos = await open(user, { ticker: 'VRSE', side: 'long', size: 1000, leverage: 10 });
    const row = await positionRow(pos.id);
    const [m] = await db.select().from(perpMarkets).where(eq(perpMarkets.ticker, 'VRSE'));
    const mark = dec(m!.markPrice);
    const M = MAINTENANCE_RATE;
    // The funded liquidation price that leaves a fifth of the buffer at this mark, and the index that makes it.
    const initial = dec(row.margin).minus(M.times(row.size));
    const target = mark.minus(initial.times('0.2').div(dec(row.units).times(dec(1).minus(M))));
    const index = dec(row.fundingIndexEntry).plus(target.minus(row.liquidationPrice).times(dec(1).minus(M))).toDecimalPlaces(18, 1);
    const liq = effectiveLiquidationPrice(row, index);
    expect(liq.minus(target).abs().lt('1e-9')).toBe(true);
    await tick();
    expect(await ofKind(user, 'liquidation_warning')).toHaveLength(0);
    try {
      await db.update(perpMarkets).set({ fundingIndex: index.toFixed() }).where(eq(perpMarkets.ticker, 'VRSE'));
      await tick();
    } finally {
      await db.update(perpMarkets).set({ fundingIndex: m!.fundingIndex }).where(eq(perpMarkets.ticker, 'VRSE'));
    }
    const [w] = await ofKind(user, 'liquidation_warning');
    expect(w!.message).toContain(`close to its liquidation price of ${Number(liq.toDecimalPlaces(4).toFixed(4))} (mark`);
    expect((await positionRow(pos.id)).status).toBe('open');
  });
});

describe('price moves (tick step alerts)', () => {
  it('tells each holder once a day when a market they hold moved 10 points, not for small moves', async () => {
    const holder = await seedUser({ balance: '5000' });
    const whale = await seedUser({ balance: '20000' });
    const bystander = await seedUser({ balance: '5000' });
    const big = await newMarket('Will the big move be noticed by its holders?');
    const small = await newMarket('Will a small move stay quiet for its holders?');
    await buy(holder, big.id, 'NO', 10);
    await buy(holder, small.id, 'YES', 10);
    await buy(whale, big.id, 'YES', 800);
    expect(await notifyPriceMoves(await getDb(), now())).toBeGreaterThanOrEqual(2);
    const notes = await ofKind(holder, 'price_move');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ type: 'system', link: `/markets/${big.id}` });
    // The holder holds NO in a market that rose: told it moved against them, naming the side.
    expect(notes[0]!.title).toMatch(/^Down \d+ points for your NO shares$/);
    expect(notes[0]!.message).toMatch(/moved from 50% to \d+% YES in 24 h: down for you, as you hold NO\.$/);
    const [w] = await ofKind(whale, 'price_move');
    expect(w!.title).toMatch(/^Up \d+ points for your YES shares$/);
    expect(w!.message).toMatch(/up for you, as you hold YES\.$/);
    expect(await ofKind(bystander, 'price_move')).toHaveLength(0);
    // The next tick the same day: nothing new.
    await tick();
    expect(await ofKind(holder, 'price_move')).toHaveLength(1);
    expect(await ofKind(whale, 'price_move')).toHaveLength(1);
  });
});

describe('resolution and payout notifications', () => {
  it('tells winners what they were paid and losers that it resolved, once, in the resolution', async () => {
    const yes = await seedUser({ balance: '1000' });
    const no = await seedUser({ balance: '1000' });
    const m = await newMarket('Will the resolution notify both sides of the market?');
    await buy(yes, m.id, 'YES', 50);
    await buy(no, m.id, 'NO', 30);
    const token = await adminToken();
    const res = await call(resolveRoute, `/api/admin/markets/${m.id}/resolve`, { method: 'POST', token, params: { id: m.id }, body: { outcome: 'YES' } });
    expect(res.status).toBe(200);
    const [paid] = await ofKind(yes, 'payout');
    expect(paid).toMatchObject({ type: 'system', link: `/markets/${m.id}` });
    expect(paid!.title).toMatch(/^Payout: \d/);
    expect(paid!.message).toContain('resolved YES. Your YES shares paid');
    expect(await ofKind(yes, 'resolution')).toHaveLength(0);
    const [lost] = await ofKind(no, 'resolution');
    expect(lost).toMatchObject({ title: 'Market resolved YES', link: `/markets/${m.id}` });
    expect(lost!.message).toContain('Your NO shares paid nothing (−30.00 on this market)');
    expect(await ofKind(no, 'payout')).toHaveLength(0);
    // Resolving again pays and notifies nothing.
    await call(resolveRoute, `/api/admin/markets/${m.id}/resolve`, { method: 'POST', token, params: { id: m.id }, body: { outcome: 'NO' } });
    expect((await listOf(yes)).filter((n) => n.kind === 'payout' || n.kind === 'resolution')).toHaveLength(1);
    expect((await listOf(no)).filter((n) => n.kind === 'payout' || n.kind === 'resolution')).toHaveLength(1);
  });
});

describe('funding notifications', () => {
  /** Counts the statements payDueFunding sends, inside its transactions too. */
  const countStatements = async (fn: () => Promise<unknown>) => {
    const db = await getDb();
    let n = 0;
    const exec = db.execute.bind(db);
    const transaction = db.transaction.bind(db);
    const execute = vi.spyOn(db, 'execute').mockImplementation(((q: never) => {
      n++;
      return exec(q);
    }) as never);
    const tx = vi.spyOn(db, 'transaction').mockImplementation(((run: (t: Tx) => Promise<unknown>, cfg?: never) =>
      transaction((t: Tx) => {
        const inner = t.execute.bind(t);
        t.execute = ((q: never) => {
          n++;
          return inner(q);
        }) as never;
        return run(t);
      }, cfg)) as never);
    try {
      await fn();
    } finally {
      execute.mockRestore();
      tx.mockRestore();
    }
    return n;
  };

  it('moves the index in the same number of statements at 3 or 9 holders, and notifies no holder under the threshold', async () => {
    const db = await getDb();
    await payDueFunding(now());
    // Longs pay when the mark sits above the index.
    await setPrice('NEXA', 160);
    await setPrice('ORBT', 300);
    const openFor = async (count: number) => {
      const users: TUserRow[] = [];
      for (let i = 0; i < count; i++) {
        const u = await seedUser({ balance: '10000' });
        await open(u, { ticker: 'NEXA', side: 'long', size: 300, leverage: 5 });
        await open(u, { ticker: 'ORBT', side: 'long', size: 300, leverage: 5 });
        users.push(u);
      }
      return users;
    };
    const fewer = await openFor(3);
    const [m] = await db.select().from(perpMarkets).where(eq(perpMarkets.ticker, 'NEXA'));
    const next = (k: number) => new Date(new Date(m!.lastFundingAt).getTime() + k * 8 * 3_600_000 + 60_000);
    const small = await countStatements(() => payDueFunding(next(1)));
    const more = await openFor(6);
    const large = await countStatements(() => payDueFunding(next(2)));
    expect(small).toBeGreaterThan(0);
    expect(large).toBe(small);
    const [after] = await db.select().from(perpMarkets).where(eq(perpMarkets.ticker, 'NEXA'));
    expect(Number(after!.fundingIndex)).toBeGreaterThan(Number(m!.fundingIndex));
    for (const u of [...fewer, ...more]) expect(await ofKind(u, 'funding')).toHaveLength(0);
    // The same period again moves nothing.
    await payDueFunding(next(2));
    const [again] = await db.select().from(perpMarkets).where(eq(perpMarkets.ticker, 'NEXA'));
    expect(again!.fundingIndex).toBe(after!.fundingIndex);
    const rows = await db.select().from(notifications).where(and(eq(notifications.userId, more[0]!.id), eq(notifications.kind, 'funding')));
    expect(rows).toHaveLength(0);
  });

  it('tells a holder once their funding since the last notice reaches the threshold, not every period (issue 35)', async () => {
    const db = await getDb();
    await payDueFunding(now());
    await setPrice('NEXA', 160);
    const user = await seedUser({ balance: '30000' });
    // 20x of 20,000: collateral about 1,000, so the threshold is 5 % of it (about 50), several periods at the capped rate.
    await open(user, { ticker: 'NEXA', side: 'long', size: 20000, leverage: 20 });
    const [m] = await db.select().from(perpMarkets).where(eq(perpMarkets.ticker, 'NEXA'));
    const next = (k: number) => new Date(new Date(m!.lastFundingAt).getTime() + k * 8 * 3_600_000 + 60_000);
    let k = 0;
    const periodsUntilNotice = async (had: number) => {
      const start = k;
      while ((await ofKind(user, 'funding')).length === had && k - start < 30) await payDueFunding(next(++k));
      return k - start;
    };
    const first = await periodsUntilNotice(0);
    // More than one period: a notice is not a write per holder per period.
    expect(first).toBeGreaterThan(1);
    expect(first).toBeLessThan(30);
    const [note] = await ofKind(user, 'funding');
    expect(note).toMatchObject({ type: 'system', link: '/perps/NEXA', title: 'Funding paid: NEXA' });
    expect(note!.message).toMatch(/^Your NEXA position has paid [\d,.]+ in funding since it opened \([\d.]+% of its collateral\)\.$/);
    // The next period adds less than the threshold since that notice: nothing new.
    await payDueFunding(next(++k));
    expect(await ofKind(user, 'funding')).toHaveLength(1);
    // Counting from the notice, the next one takes about as many periods again.
    const second = await periodsUntilNotice(1);
    expect(second + 1).toBeGreaterThanOrEqual(first - 1);
    const notes = await ofKind(user, 'funding');
    expect(notes).toHaveLength(2);
    expect(notes[0]!.message).toContain('since your last funding notice');
    await setPrice('NEXA', 100);
  });
});
