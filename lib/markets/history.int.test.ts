/**
 * The bulk history writer (history.ts) against the services it stands in for: the same ordered
 * trades go through buyShares / sellShares (clock pinned at each trade) on one market and one group
 * of users, and through writePredictionHistory on an identical market and identical users, in the
 * same database; every row either path writes must then be the same, ids mapped. Also: refusals
 * write nothing, a referred trader is refused outright, and a 2,000-trade batch (its time printed).
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { getDb, rowsOf, textArray, withTransaction } from '@/db/client';
import { balanceTransactions, marketPositions, marketPricePoints, markets, trades, users, type TUserRow } from '@/db/schema';
import { callerOfUser } from '@/lib/auth/caller';
import { setFixedTime } from '@/lib/clock/clock';
import { isAppError } from '@/lib/errors/app-error';
import { D, dec } from '@/lib/money/decimal';
import { expectLedgerChain } from '@/test/invariants';
import { seedUser } from '@/test/factories';
import { writePredictionHistory, type THistoryRefusal, type TPredictionHistoryTrade } from './history';
import { buyShares } from './service/buy-shares';
import { createMarket } from './service/create-market';
import { sellShares } from './service/sell-shares';

const T0 = Date.parse('2030-03-01T12:00:00.000Z');
const MINUTE = 60_000;
const at = (minutes: number) => new Date(T0 + minutes * MINUTE);

afterAll(() => setFixedTime(undefined));

/** A small deterministic generator (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type TOutcome = 'YES' | 'NO';
/** A planned step; a sale names a fraction of what the trader holds at that moment, or a fixed rule. */
type TStep =
  | { kind: 'buy'; user: number; outcome: TOutcome; amount: string }
  | { kind: 'sell'; user: number; outcome: TOutcome; size: number | 'all' | 'all-as-number' | 'too-many' | 'any-held' };

const BALANCES = ['3000', '2000', '1200', '40'];
const RESOLVES_AT_MINUTE = 55;

/** ~60 steps: random buys and partial sales, plus the cases the services refuse or treat specially. */
function planSteps(): TStep[] {
  const r = rng(20260301);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const fixed: Record<number, TStep> = {
    0: { kind: 'buy', user: 0, outcome: 'YES', amount: '120' },
    1: { kind: 'buy', user: 1, outcome: 'NO', amount: '95.5' },
    5: { kind: 'buy', user: 3, outcome: 'YES', amount: '500' }, // INSUFFICIENT_BALANCE
    8: { kind: 'buy', user: 2, outcome: 'NO', amount: '0.5' }, // INVALID_TRADE_SIZE (below the minimum)
    10: { kind: 'sell', user: 0, outcome: 'YES', size: 'too-many' }, // INSUFFICIENT_SHARES
    20: { kind: 'sell', user: 0, outcome: 'YES', size: 'all' },
    30: { kind: 'sell', user: 1, outcome: 'NO', size: 'all-as-number' }, // the sell-all dust rule
    56: { kind: 'buy', user: 0, outcome: 'NO', amount: '10' }, // MARKET_CLOSED
    57: { kind: 'sell', user: 0, outcome: 'YES', size: 'any-held' }, // MARKET_CLOSED
  };
  const steps: TStep[] = [];
  for (let i = 0; i < 60; i++) {
    const reserved = fixed[i];
    if (reserved) {
      steps.push(reserved);
      continue;
    }
    const user = pick([0, 1, 2, 3]);
    const outcome = pick(['YES', 'NO'] as const);
    if (r() < 0.6) steps.push({ kind: 'buy', user, outcome, amount: dec(1 + r() * 180).toDecimalPlaces(r() < 0.5 ? 2 : 8, D.ROUND_DOWN).toFixed() });
    else steps.push({ kind: 'sell', user, outcome, size: 0.1 + r() * 0.8 });
  }
  return steps;
}

const db = () => getDb();

async function heldShares(userId: string, marketId: string, outcome: TOutcome) {
  const [p] = await (await db())
    .select({ shares: marketPositions.shares })
    .from(marketPositions)
    .where(and(eq(marketPositions.userId, userId), eq(marketPositions.marketId, marketId), eq(marketPositions.side, outcome)));
  return dec(p?.shares ?? '0');
}

/** The rows a group's trading left on its market, ids replaced by the user's index and the side. */
async function snapshot(marketId: string, marketText: string, group: TUserRow[]) {
  const d = await db();
  const userIndex = new Map(group.map((u, i) => [u.id, i]));
  const positionRows = await d.select().from(marketPositions).where(eq(marketPositions.marketId, marketId));
  const positionName = new Map(positionRows.map((p) => [p.id, `${userIndex.get(p.userId)}:${p.side}`]));
  const positions = positionRows
    .map(({ id, userId, marketId: _m, ...rest }) => ({ ...rest, position: positionName.get(id), user: userIndex.get(userId) }))
    .sort((a, b) => a.position!.localeCompare(b.position!));
  const tradeRows = (await d.select().from(trades).where(eq(trades.marketId, marketId)).orderBy(asc(trades.createdAt))).map(
    ({ id: _id, userId, marketId: _m, positionId, ...rest }) => ({ ...rest, user: userIndex.get(userId), position: positionName.get(positionId) }),
  );
  const points = (
    await d
      .select()
      .from(marketPricePoints)
      .where(and(eq(marketPricePoints.marketId, marketId), eq(marketPricePoints.source, 'trade')))
      .orderBy(asc(marketPricePoints.createdAt))
  ).map(({ id: _id, marketId: _m, ...rest }) => rest);
  const [market] = await d
    .select({ yesShares: markets.yesShares, noShares: markets.noShares, volume: markets.volume, liquidity: markets.liquidity, status: markets.status })
    .from(markets)
    .where(eq(markets.id, marketId));
  const ledger = (
    await d
      .select()
      .from(balanceTransactions)
      .where(
        inArray(
          balanceTransactions.userId,
          group.map((u) => u.id),
        ),
      )
      .orderBy(asc(balanceTransactions.seq))
  ).map(({ id: _id, seq: _seq, userId, description, referenceId, ...rest }) => ({
    ...rest,
    user: userIndex.get(userId),
    description: description.replaceAll(marketText, '<market>'),
    referenceId: referenceId === marketId ? '<market>' : referenceId,
  }));
  const balances = (
    await d
      .select({ id: users.id, balance: users.virtualBalance, pnl: users.lifetimePnL, deposited: users.totalDeposited, withdrawn: users.totalWithdrawn })
      .from(users)
      .where(
        inArray(
          users.id,
          group.map((u) => u.id),
        ),
      )
  )
    .map(({ id, ...rest }) => ({ ...rest, user: userIndex.get(id) }))
    .sort((a, b) => a.user! - b.user!);
  return { positions, trades: tradeRows, points, market, ledger, balances };
}

describe('writePredictionHistory', () => {
  it('writes exactly the rows buyShares / sellShares write for the same trades, and refuses the same ones', async () => {
    setFixedTime(at(-60));
    const resolutionDate = at(RESOLVES_AT_MINUTE);
    const textA = 'History equivalence A: will the dam hold?';
    const textB = 'History equivalence B: will the dam hold?';
    const marketA = await createMarket({ caller: null, text: textA, resolutionDate, liquidity: 700, probability: 0.37 });
    const marketB = await createMarket({ caller: null, text: textB, resolutionDate, liquidity: 700, probability: 0.37 });
    const groupA: TUserRow[] = [];
    const groupB: TUserRow[] = [];
    for (const balance of BALANCES) {
      groupA.push(await seedUser({ balance, isActor: true }));
      groupB.push(await seedUser({ balance, isActor: true }));
    }

    // Group A through the services; each sale's size is fixed from what A holds at that moment,
    // and the same concrete trade list is then handed to the bulk writer for group B.
    const steps = planSteps();
    const itemsB: TPredictionHistoryTrade[] = [];
    const refusedA: THistoryRefusal[] = [];
    const fullSales: string[] = [];
    for (const [index, step] of steps.entries()) {
      const when = at(index);
      const userA = groupA[step.user]!;
      const base = { marketId: marketA.id, outcome: step.outcome, at: when };
      let itemA: TPredictionHistoryTrade;
      if (step.kind === 'buy') {
        itemA = { ...base, action: 'buy', userId: userA.id, amount: step.amount };
      } else {
        let outcome = step.outcome;
        let held = await heldShares(userA.id, marketA.id, outcome);
        if (step.size === 'any-held' && held.isZero()) {
          outcome = outcome === 'YES' ? 'NO' : 'YES';
          held = await heldShares(userA.id, marketA.id, outcome);
        }
        let shares: string;
        if (step.size === 'too-many') shares = held.plus(1_000_000).toFixed();
        else if (step.size === 'all') shares = held.toFixed();
        else if (step.size === 'all-as-number') shares = String(held.toNumber());
        else if (step.size === 'any-held') shares = held.div(2).toDecimalPlaces(6, D.ROUND_DOWN).toFixed();
        else shares = held.gt(0) ? held.times(step.size).toDecimalPlaces(6, D.ROUND_DOWN).toFixed() : '5';
        itemA = { ...base, outcome, action: 'sell', userId: userA.id, shares };
      }
      setFixedTime(when);
      try {
        if (itemA.action === 'buy') {
          await buyShares({ caller: callerOfUser(userA), marketId: marketA.id, outcome: itemA.outcome, amount: itemA.amount });
        } else {
          await sellShares({ caller: callerOfUser(userA), marketId: marketA.id, outcome: itemA.outcome, shares: itemA.shares });
          if (step.kind === 'sell' && (step.size === 'all' || step.size === 'all-as-number')) {
            expect((await heldShares(userA.id, marketA.id, itemA.outcome)).toFixed(), `step ${index} sold the whole position`).toBe('0');
            fullSales.push(step.size);
          }
        }
      } catch (e) {
        if (!isAppError(e)) throw e;
        refusedA.push({ index, code: e.code });
      }
      itemsB.push({ ...itemA, userId: groupB[step.user]!.id, marketId: marketB.id });
    }

    // The cases this test is meant to cover did occur on the service path.
    expect(fullSales).toEqual(['all', 'all-as-number']);
    const codes = new Set(refusedA.map((r) => r.code));
    for (const code of ['INSUFFICIENT_BALANCE', 'INSUFFICIENT_SHARES', 'MARKET_CLOSED', 'INVALID_TRADE_SIZE']) expect(codes, code).toContain(code);
    expect(refusedA).toContainEqual({ index: 5, code: 'INSUFFICIENT_BALANCE' });
    expect(refusedA).toContainEqual({ index: 10, code: 'INSUFFICIENT_SHARES' });
    expect(refusedA).toContainEqual({ index: 56, code: 'MARKET_CLOSED' });
    expect(refusedA).toContainEqual({ index: 57, code: 'MARKET_CLOSED' });

    setFixedTime(at(-30)); // the bulk path takes its times from the items, not the clock
    const result = await withTransaction((tx) => writePredictionHistory(tx, itemsB));
    expect(result.refused).toEqual(refusedA);
    expect(result.written).toBe(steps.length - refusedA.length);

    const a = await snapshot(marketA.id, textA, groupA);
    const b = await snapshot(marketB.id, textB, groupB);
    expect(a.trades.length).toBe(result.written);
    expect(a.trades.filter((t) => t.action === 'sell').length).toBeGreaterThan(5);
    expect(b.trades).toEqual(a.trades);
    expect(b.positions).toEqual(a.positions);
    expect(b.market).toEqual(a.market);
    expect(b.points.length).toBe(result.written);
    expect(b.points).toEqual(a.points);
    expect(b.ledger.filter((r) => r.type === 'pred_buy' || r.type === 'pred_sell').length).toBe(result.written);
    expect(b.ledger).toEqual(a.ledger);
    expect(b.balances).toEqual(a.balances);
    expect(a.balances.some((u) => !dec(u.pnl).isZero()), 'some realised P&L was booked').toBe(true);
    await expectLedgerChain([...groupA, ...groupB].map((u) => u.id));
  });

  it('reports refused trades and writes nothing for them', async () => {
    setFixedTime(at(-60));
    const market = await createMarket({ caller: null, text: 'History refusals', resolutionDate: at(10) });
    const user = await seedUser({ balance: '50', isActor: true });
    const items: TPredictionHistoryTrade[] = [
      { action: 'buy', userId: user.id, marketId: market.id, outcome: 'YES', amount: '80', at: at(0) },
      { action: 'sell', userId: user.id, marketId: market.id, outcome: 'YES', shares: '1', at: at(1) },
      { action: 'buy', userId: user.id, marketId: market.id, outcome: 'NO', amount: '0.99', at: at(2) },
      { action: 'buy', userId: user.id, marketId: 'no-such-market', outcome: 'NO', amount: '5', at: at(3) },
      { action: 'buy', userId: user.id, marketId: market.id, outcome: 'NO', amount: '5', at: at(10) },
    ];
    const d = await db();
    const count = async () =>
      rowsOf<{ trades: string; positions: string; points: string; ledger: string }>(
        await d.execute(sql`select
          (select count(*) from trades where market_id = ${market.id})::text as trades,
          (select count(*) from market_positions where user_id = ${user.id})::text as positions,
          (select count(*) from market_price_points where market_id = ${market.id})::text as points,
          (select count(*) from balance_transactions where user_id = ${user.id})::text as ledger`),
      )[0];
    const before = await count();
    const [marketBefore] = await d.select().from(markets).where(eq(markets.id, market.id));
    const [userBefore] = await d.select().from(users).where(eq(users.id, user.id));

    const result = await withTransaction((tx) => writePredictionHistory(tx, items));

    expect(result).toEqual({
      written: 0,
      refused: [
        { index: 0, code: 'INSUFFICIENT_BALANCE' },
        { index: 1, code: 'INSUFFICIENT_SHARES' },
        { index: 2, code: 'INVALID_TRADE_SIZE' },
        { index: 3, code: 'NOT_FOUND' },
        { index: 4, code: 'MARKET_CLOSED' },
      ],
    });
    expect(await count()).toEqual(before);
    expect((await d.select().from(markets).where(eq(markets.id, market.id)))[0]).toEqual(marketBefore);
    expect((await d.select().from(users).where(eq(users.id, user.id)))[0]).toEqual(userBefore);

    // Between refusals, the accepted trade alone is written.
    const mixed = await withTransaction((tx) => writePredictionHistory(tx, [items[0]!, { ...items[4]!, at: at(5) }, items[1]!]));
    expect(mixed).toEqual({ written: 1, refused: [{ index: 0, code: 'INSUFFICIENT_BALANCE' }, { index: 2, code: 'INSUFFICIENT_SHARES' }] });
    const after = await count();
    expect(Number(after!.trades)).toBe(1);
    expect(Number(after!.ledger)).toBe(Number(before!.ledger) + 1);
    await expectLedgerChain([user.id]);
  });

  it('refuses the whole batch when a trader has a referrer (the bulk path is for NPCs)', async () => {
    setFixedTime(at(-60));
    const market = await createMarket({ caller: null, text: 'History referral', resolutionDate: at(10) });
    const referrer = await seedUser({ balance: '0' });
    const referred = await seedUser({ balance: '100' });
    await (await db()).update(users).set({ referredById: referrer.id }).where(eq(users.id, referred.id));
    await expect(
      withTransaction((tx) =>
        writePredictionHistory(tx, [{ action: 'buy', userId: referred.id, marketId: market.id, outcome: 'YES', amount: '10', at: at(0) }]),
      ),
    ).rejects.toThrow(/referrer/);
    const [row] = await (await db()).select({ n: sql<string>`count(*)::text` }).from(trades).where(eq(trades.marketId, market.id));
    expect(row!.n).toBe('0');
  });

  it('writes a 2,000-trade batch in one transaction (time printed, counts asserted)', async () => {
    setFixedTime(at(-60));
    const marketIds: string[] = [];
    for (let i = 0; i < 10; i++) marketIds.push((await createMarket({ caller: null, text: `History bulk ${i}`, resolutionDate: at(10_000) })).id);
    const traders: TUserRow[] = [];
    for (let i = 0; i < 40; i++) traders.push(await seedUser({ balance: '5000', isActor: true }));
    const r = rng(7);
    const items: TPredictionHistoryTrade[] = [];
    for (let i = 0; i < 2000; i++) {
      const base = {
        userId: traders[Math.floor(r() * traders.length)]!.id,
        marketId: marketIds[Math.floor(r() * marketIds.length)]!,
        outcome: r() < 0.5 ? ('YES' as const) : ('NO' as const),
        at: new Date(T0 + i * 1000),
      };
      items.push(
        r() < 0.7
          ? { ...base, action: 'buy', amount: dec(1 + r() * 60).toDecimalPlaces(2, D.ROUND_DOWN).toFixed() }
          : { ...base, action: 'sell', shares: dec(0.5 + r() * 10).toDecimalPlaces(4, D.ROUND_DOWN).toFixed() },
      );
    }
    const started = performance.now();
    const result = await withTransaction((tx) => writePredictionHistory(tx, items));
    console.info(`writePredictionHistory: ${items.length} trades (${result.written} written) in ${Math.round(performance.now() - started)} ms`);

    expect(result.written + result.refused.length).toBe(items.length);
    expect(result.written).toBeGreaterThan(1500);
    expect(new Set(result.refused.map((x) => x.code))).toEqual(new Set(['INSUFFICIENT_SHARES']));
    const d = await db();
    const [counts] = rowsOf<{ trades: string; points: string; ledger: string }>(
      await d.execute(sql`select
        (select count(*) from trades where market_id = any(${textArray(marketIds)}))::text as trades,
        (select count(*) from market_price_points where market_id = any(${textArray(marketIds)}) and source = 'trade')::text as points,
        (select count(*) from balance_transactions where type in ('pred_buy', 'pred_sell') and reference_id = any(${textArray(marketIds)}))::text as ledger`),
    );
    expect(Number(counts!.trades)).toBe(result.written);
    expect(Number(counts!.points)).toBe(result.written);
    expect(Number(counts!.ledger)).toBe(result.written);
    await expectLedgerChain(traders.map((u) => u.id));
  });
});
