/**
 * history.ts writes exactly what the services write: one ordered, pseudo-random list of opens
 * and closes (with refusals of every kind, and fills that liquidate 100x positions) runs through
 * the services for group A (setFixedTime + setMark + openPosition / closePosition, as
 * lib/game/backfill/write.ts does) and through writePerpHistory for group B, an identical set of
 * users, a day later on the same tickers. Every row either writes is compared with users,
 * positions and times mapped: positions, trades, ledger rows, balances and lifetimePnL,
 * liquidation notifications, price points, the markets' marks, volume and each group's open
 * interest (from its own positions: the tickers are shared).
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { perpMarkets } from '@/db/schema';
import { npcCaller } from '@/lib/auth/caller';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { isAppError } from '@/lib/errors/app-error';
import { dec } from '@/lib/money/decimal';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { expectLedgerChain, expectPerpTickerCounters } from '@/test/invariants';
import { writePerpHistory, type TPerpHistoryTrade } from './history';
import { closePosition } from './service/close-position';
import { openPosition } from './service/open-position';

const DAY = 24 * 60 * 60 * 1000;
const START = new Date('2031-03-01T00:00:00.000Z');

/** mulberry32: a small deterministic generator. */
const rng = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

type TItem = TPerpHistoryTrade;
/** An item on a user slot (the same list for both groups). */
type TSlotted = (Omit<Extract<TItem, { action: 'open' }>, 'userId'> | Omit<Extract<TItem, { action: 'close' }>, 'userId'>) & { slot: number };

/**
 * The list, on user slots 0..n−1: marks walk ±1.5% per trade, leverages from 2x to 100x (so
 * some fills liquidate), closes of open keys, plus refusals: a bad leverage, a spent user (slot
 * `poor`), an unknown key, another user's position, and a second close of the same key.
 */
const makeList = (o: { seed: number; count: number; tickers: readonly string[]; marks: ReadonlyMap<string, number>; slots: number; poor: number }) => {
  const r = rng(o.seed);
  const marks = new Map(o.marks);
  const out: TSlotted[] = [];
  const open: { key: string; slot: number; ticker: string }[] = [];
  const closed: { key: string; slot: number; ticker: string }[] = [];
  let n = 0;
  let t = 0;
  const levs = [2, 3, 5, 10, 50, 100, 100];
  const markOf = (ticker: string) => {
    const m = marks.get(ticker)! * (1 + (r() - 0.5) * 0.03);
    marks.set(ticker, m);
    return m.toFixed(4);
  };
  const at = () => new Date(START.getTime() + ++t * 60_000);
  for (let i = 0; i < o.count; i++) {
    const special = i % 13 === 7 ? Math.floor(i / 13) % 4 : -1;
    if (special === 0) {
      const ticker = o.tickers[Math.floor(r() * o.tickers.length)]!;
      out.push({ action: 'open', key: `k${++n}`, slot: 0, ticker, side: 'long', size: '100', leverage: 150, mark: markOf(ticker), at: at() });
    } else if (special === 1) {
      const ticker = o.tickers[Math.floor(r() * o.tickers.length)]!;
      out.push({ action: 'open', key: `k${++n}`, slot: o.poor, ticker, side: 'short', size: '900', leverage: 2, mark: markOf(ticker), at: at() });
    } else if (special === 2 && open.length) {
      const p = open[Math.floor(r() * open.length)]!;
      out.push({ action: 'close', key: p.key, slot: (p.slot + 1) % o.slots, ticker: p.ticker, mark: markOf(p.ticker), at: at() });
    } else if (special === 3 && closed.length) {
      const p = closed[Math.floor(r() * closed.length)]!;
      out.push({ action: 'close', key: p.key, slot: p.slot, ticker: p.ticker, mark: markOf(p.ticker), at: at() });
    } else if (i % 20 === 4) {
      // A 100x long closed at a mark far below its liquidation price (setMark sweeps nothing): the close returns nothing.
      const ticker = o.tickers[i % o.tickers.length]!;
      const key = `k${++n}`;
      const m = markOf(ticker);
      out.push({ action: 'open', key, slot: 1, ticker, side: 'long', size: '300', leverage: 100, mark: m, at: at() });
      out.push({ action: 'close', key, slot: 1, ticker, mark: (Number(m) * 0.95).toFixed(4), at: at() });
    } else if (open.length > 3 && r() < 0.45) {
      const p = open.splice(Math.floor(r() * open.length), 1)[0]!;
      closed.push(p);
      out.push({ action: 'close', key: p.key, slot: p.slot, ticker: p.ticker, mark: markOf(p.ticker), at: at() });
    } else {
      const ticker = o.tickers[Math.floor(r() * o.tickers.length)]!;
      const slot = Math.floor(r() * o.slots);
      const key = `k${++n}`;
      open.push({ key, slot, ticker });
      out.push({
        action: 'open',
        key,
        slot,
        ticker,
        side: r() < 0.5 ? 'long' : 'short',
        size: (50 + r() * 1950).toFixed(2),
        leverage: levs[Math.floor(r() * levs.length)]!,
        mark: markOf(ticker),
        at: at(),
      });
    }
  }
  out.push({ action: 'close', key: 'nobody', slot: 0, ticker: o.tickers[0]!, mark: '1', at: at() });
  return out;
};

const forGroup = (list: readonly TSlotted[], userIds: readonly string[], shift: number): TItem[] =>
  list.map(({ slot, ...it }) => ({ ...it, userId: userIds[slot]!, at: new Date(it.at.getTime() + shift) }) as TItem);

/** Runs the list through the services as write.ts does; returns key → position id and the refusals. */
const runServices = async (items: readonly TItem[], earlier: ReadonlyMap<string, string> = new Map()) => {
  const db = await getDb();
  const ids = new Map(earlier);
  const refused: { index: number; code: string }[] = [];
  try {
    for (const [index, it] of items.entries()) {
      setFixedTime(it.at);
      const caller = npcCaller({ userId: it.userId, username: it.userId });
      if (it.action === 'close' && !ids.has(it.key)) {
        refused.push({ index, code: 'NOT_FOUND' });
        continue;
      }
      await db.update(perpMarkets).set({ markPrice: it.mark, updatedAt: it.at }).where(eq(perpMarkets.ticker, it.ticker));
      try {
        if (it.action === 'open') {
          const r = await openPosition({ caller, ticker: it.ticker, side: it.side, size: it.size, leverage: it.leverage });
          ids.set(it.key, r.position.id);
        } else await closePosition({ caller, positionId: ids.get(it.key)! });
      } catch (e) {
        if (!isAppError(e)) throw e;
        refused.push({ index, code: e.code });
      }
    }
  } finally {
    resetClock();
  }
  return { ids, refused };
};

const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await (await getDb()).execute(query));
const idList = (ids: readonly string[]) => sql`array[${sql.join(
  ids.map((id) => sql`${id}`),
  sql`, `,
)}]::text[]`;

/** Everything a group's users own, with ids replaced by slots and keys, and times by offsets from `base`. */
const snapshot = async (userIds: readonly string[], keys: ReadonlyMap<string, string>, base: number) => {
  const slotOf = new Map(userIds.map((id, i) => [id, i]));
  const keyOf = new Map([...keys].map(([k, id]) => [id, k]));
  // Times as offsets from the group's start; earlier ones (the users' creation and deposit) as 'before'.
  const t = (v: string | Date | null | undefined) => (v === null || v === undefined ? null : new Date(v).getTime() < base ? 'before' : new Date(v).getTime() - base);
  type TText = string | null;
  const positions = await q<{ id: string; user_id: string; status: string; liquidation_warned_at: TText; opened_at: string; closed_at: TText; updated_at: string } & Record<string, TText>>(sql`
    select id, user_id, ticker, side, size::text, units::text, entry_price::text, leverage::text, margin::text, collateral::text,
      funding_paid::text, liquidation_price::text, funding_index_entry::text, liquidation_key::text, open_fee::text, close_fee::text,
      exit_price::text, realized_pnl::text, net_pnl::text, status, liquidation_warned_at, opened_at, closed_at, updated_at
    from perp_positions where user_id = any(${idList(userIds)})`);
  const trades = await q<{ user_id: string; position_id: string; created_at: string } & Record<string, TText>>(sql`
    select user_id, position_id, ticker, side, action, size::text, price::text, fee::text, realized_pnl::text, created_at
    from perp_trades where user_id = any(${idList(userIds)})`);
  const ledger = await q<{ user_id: string; type: string; amount: string; reference_type: TText; reference_id: TText; created_at: string } & Record<string, TText>>(sql`
    select user_id, type, amount::text, balance_before::text, balance_after::text, description, reference_type, reference_id, created_at
    from balance_transactions where user_id = any(${idList(userIds)}) order by seq`);
  const accounts = await q<{ id: string; virtual_balance: string; lifetime_pnl: string; updated_at: string | Date }>(sql`
    select id, virtual_balance::text, lifetime_pnl::text, updated_at from users where id = any(${idList(userIds)})`);
  const notes = await q<{ user_id: string; message: string; created_at: string } & Record<string, TText>>(sql`
    select user_id, type, kind, link, title, message, read, created_at from notifications where user_id = any(${idList(userIds)}) and kind = 'liquidation'`);
  const sort = <T>(rows: T[]) => rows.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return {
    positions: sort(
      positions.map(({ id, user_id, opened_at, closed_at, updated_at, liquidation_warned_at, ...rest }) => ({
        key: keyOf.get(id!) ?? `unmapped ${id}`,
        slot: slotOf.get(user_id!),
        ...rest,
        liquidation_warned_at,
        opened_at: t(opened_at),
        closed_at: t(closed_at),
        updated_at: t(updated_at),
      })),
    ),
    trades: sort(trades.map(({ user_id, position_id, created_at, ...rest }) => ({ slot: slotOf.get(user_id!), key: keyOf.get(position_id!), ...rest, created_at: t(created_at) }))),
    ledger: ledger.map(({ user_id, reference_id, created_at, ...rest }) => ({
      slot: slotOf.get(user_id!),
      ...rest,
      reference_id: reference_id && (keyOf.get(reference_id) ?? (rest.reference_type === 'perp_position' ? `unmapped ${reference_id}` : 'other')),
      created_at: t(created_at),
    })),
    accounts: accounts
      .map((a) => ({ slot: slotOf.get(a.id)!, balance: a.virtual_balance, pnl: a.lifetime_pnl, updated_at: t(a.updated_at) }))
      .sort((a, b) => a.slot - b.slot),
    notes: sort(notes.map(({ user_id, created_at, ...rest }) => ({ slot: slotOf.get(user_id!), ...rest, created_at: t(created_at) }))),
    /** Open interest of the group's own open positions, per ticker and side: size and units. */
    openInterest: await q<{ ticker: string; side: string; size: string; units: string; n: number }>(sql`
      select ticker, side, sum(size)::text as size, sum(units)::text as units, count(*)::int as n
      from perp_positions where user_id = any(${idList(userIds)}) and status = 'open' group by ticker, side order by ticker, side`),
  };
};

const marketsOf = async (tickers: readonly string[]) =>
  (await (await getDb()).select().from(perpMarkets).where(inArray(perpMarkets.ticker, [...tickers])).orderBy(perpMarkets.ticker)).map((m) => ({
    ticker: m.ticker,
    mark: m.markPrice,
    volume: m.volume,
    updatedAt: m.updatedAt.getTime(),
  }));

const pointsIn = async (tickers: readonly string[], from: number, to: number) =>
  (
    await q<{ ticker: string; mark_price: string; index_price: string; source: string; created_at: string | Date }>(sql`
    select ticker, mark_price::text, index_price::text, source, created_at from perp_price_points
    where ticker = any(${idList(tickers)}) and created_at >= ${new Date(from).toISOString()}::timestamptz and created_at < ${new Date(to).toISOString()}::timestamptz
    order by created_at, ticker`)
  ).map((p) => ({ ...p, created_at: new Date(p.created_at).getTime() - from }));

let tickers: string[] = [];
let initialMarks = new Map<string, number>();

beforeAll(async () => {
  await seedWorld(await getDb());
  const rows = await (await getDb()).select().from(perpMarkets).orderBy(perpMarkets.ticker).limit(3);
  tickers = rows.map((r) => r.ticker);
  initialMarks = new Map(rows.map((r) => [r.ticker, Number(r.markPrice)]));
  // A funding index away from 0: positions enter at it and the sweep's reach shifts by it.
  await (await getDb()).update(perpMarkets).set({ fundingIndex: '0.123456789012345678' }).where(inArray(perpMarkets.ticker, tickers));
});

const makeGroup = async (balances: readonly string[]) => {
  const out: string[] = [];
  for (const balance of balances) out.push((await seedUser({ balance, isActor: true })).id);
  return out;
};

describe('writePerpHistory', () => {
  it('writes exactly the rows the services write for the same ordered list, refusals and liquidations included', async () => {
    const balances = ['6000', '6000', '4000', '40'];
    const groupA = await makeGroup(balances);
    const groupB = await makeGroup(balances);
    const list = makeList({ seed: 20311, count: 62, tickers, marks: initialMarks, slots: 4, poor: 3 });
    const itemsA = forGroup(list, groupA, 0);
    const itemsB = forGroup(list, groupB, DAY);
    const baseA = START.getTime();
    const baseB = baseA + DAY;

    const marksBefore = await marketsOf(tickers);
    const a = await runServices(itemsA);
    const marketsA = await marketsOf(tickers);
    const snapA = await snapshot(groupA, a.ids, baseA);
    const pointsA = await pointsIn(tickers, baseA, baseA + DAY);

    // Back to the marks before A's run (volume stays: B adds to it).
    const db = await getDb();
    for (const m of marksBefore) await db.update(perpMarkets).set({ markPrice: m.mark, updatedAt: new Date(m.updatedAt) }).where(eq(perpMarkets.ticker, m.ticker));

    const b = await withTransaction((tx) => writePerpHistory(tx, itemsB));
    const marketsB = await marketsOf(tickers);
    const snapB = await snapshot(groupB, b.positionIds, baseB);
    const pointsB = await pointsIn(tickers, baseB, baseB + DAY);

    // The list exercises what it should: every kind of refusal, trades, liquidations.
    const codes = new Set(a.refused.map((r) => r.code));
    expect([...codes].sort()).toEqual(['FORBIDDEN', 'INSUFFICIENT_BALANCE', 'NOT_FOUND', 'POSITION_CLOSED', 'VALIDATION_ERROR']);
    expect(snapA.positions.filter((p) => p.status === 'liquidated').length).toBeGreaterThan(0);
    expect(snapA.positions.filter((p) => p.status === 'closed').length).toBeGreaterThan(5);
    expect(snapA.positions.filter((p) => p.status === 'open').length).toBeGreaterThan(0);
    // Closes that returned nothing (no ledger row, only lifetimePnL) are in the list too.
    expect(snapA.positions.filter((p) => p.status === 'closed' && !snapA.ledger.some((l) => l.reference_id === p.key && l.type === 'perp_close')).length).toBeGreaterThan(0);

    expect(b.refused).toEqual(a.refused);
    expect(b.written).toBe(list.length - a.refused.length);
    expect([...b.positionIds.keys()].sort()).toEqual([...a.ids.keys()].sort());
    expect(snapB.positions).toEqual(snapA.positions);
    expect(snapB.trades).toEqual(snapA.trades);
    expect(snapB.ledger).toEqual(snapA.ledger);
    expect(snapB.accounts).toEqual(snapA.accounts);
    expect(snapB.notes).toEqual(snapA.notes);
    expect(snapB.openInterest).toEqual(snapA.openInterest);
    expect(pointsB).toEqual(pointsA);
    expect(pointsA.length).toBe(b.written);

    // The markets: the same final marks, each a day later, and the same volume added.
    const volumeAdded = (after: typeof marketsA, before: typeof marketsA) =>
      after.map((m, i) => ({ ticker: m.ticker, mark: m.mark, added: dec(m.volume).minus(before[i]!.volume).toFixed() }));
    expect(volumeAdded(marketsB, marketsA)).toEqual(volumeAdded(marketsA, marksBefore));
    expect(marketsB.map((m) => m.updatedAt - baseB)).toEqual(marketsA.map((m) => m.updatedAt - baseA));

    await expectLedgerChain([...groupA, ...groupB]);
  });

  it('closes, by key, positions an earlier call opened, with funding accrued between the calls, as the services do', async () => {
    const ticker = tickers[1]!;
    const db = await getDb();
    const setIndex = (v: string) => db.update(perpMarkets).set({ fundingIndex: v }).where(eq(perpMarkets.ticker, ticker));
    const [m0] = await db.select().from(perpMarkets).where(eq(perpMarkets.ticker, ticker));
    const raised = dec(m0!.fundingIndex).plus('0.75').toFixed();
    const groupA = await makeGroup(['5000', '5000']);
    const groupB = await makeGroup(['5000', '5000']);
    const t0 = START.getTime() + 3 * DAY;
    const first = [
      { action: 'open' as const, key: 'x1', slot: 0, ticker, side: 'long' as const, size: '500', leverage: 2, mark: '100', at: new Date(t0) },
      { action: 'open' as const, key: 'x2', slot: 1, ticker, side: 'short' as const, size: '800', leverage: 10, mark: '100.5', at: new Date(t0 + 60_000) },
      // A 100x long the second call's fill at 99 liquidates, with the funding it accrued meanwhile.
      { action: 'open' as const, key: 'x3', slot: 1, ticker, side: 'long' as const, size: '400', leverage: 100, mark: '100', at: new Date(t0 + 90_000) },
    ];
    const second = [
      { action: 'close' as const, key: 'x1', slot: 0, ticker, mark: '101', at: new Date(t0 + 120_000) },
      { action: 'close' as const, key: 'x2', slot: 0, ticker, mark: '99', at: new Date(t0 + 180_000) },
      { action: 'close' as const, key: 'x2', slot: 1, ticker, mark: '99', at: new Date(t0 + 240_000) },
      { action: 'close' as const, key: 'x1', slot: 0, ticker, mark: '98', at: new Date(t0 + 300_000) },
    ];
    const a1 = await runServices(forGroup(first, groupA, 0));
    await setIndex(raised);
    const a2 = await runServices(forGroup(second, groupA, 0), a1.ids);
    const snapA = await snapshot(groupA, a1.ids, t0);

    await setIndex(m0!.fundingIndex);
    const b1 = await withTransaction((tx) => writePerpHistory(tx, forGroup(first, groupB, DAY)));
    await setIndex(raised);
    const b2 = await withTransaction((tx) => writePerpHistory(tx, forGroup(second, groupB, DAY), b1.positionIds));
    const snapB = await snapshot(groupB, b1.positionIds, t0 + DAY);

    expect(a2.refused).toEqual([
      { index: 1, code: 'FORBIDDEN' },
      { index: 3, code: 'POSITION_CLOSED' },
    ]);
    expect(b2).toMatchObject({ written: 2, refused: a2.refused });
    expect(snapA.positions.map((p) => [p.key, p.status])).toEqual([
      ['x1', 'closed'],
      ['x2', 'closed'],
      ['x3', 'liquidated'],
    ]);
    expect(snapA.notes.map((n) => n.message)).toEqual([expect.stringMatching(/was liquidated at .* It had paid \d+\.\d\d in funding\.$/)]);
    expect(b2.positionIds.size).toBe(0);
    // Both legs of each settlement: the long paid funding, the short received it.
    expect(snapA.ledger.filter((l) => l.type === 'funding_paid').map((l) => [l.reference_id, dec(l.amount!).isNegative()])).toEqual([
      ['x1', true],
      ['x2', false],
    ]);
    expect(snapB.positions).toEqual(snapA.positions);
    expect(snapB.trades).toEqual(snapA.trades);
    expect(snapB.ledger).toEqual(snapA.ledger);
    expect(snapB.accounts).toEqual(snapA.accounts);
    expect(snapB.notes).toEqual(snapA.notes);
    await expectLedgerChain([...groupA, ...groupB]);
  });

  it('refuses a trader with a referrer, writing nothing', async () => {
    const [u, referrer] = await makeGroup(['5000', '10']);
    const db = await getDb();
    await db.execute(sql`update users set referred_by_id = ${referrer!} where id = ${u!}`);
    const at = new Date(START.getTime() + 5 * DAY);
    await expect(
      withTransaction((tx) => writePerpHistory(tx, [{ action: 'open', key: 'y1', userId: u!, ticker: tickers[0]!, side: 'long', size: '50', leverage: 2, mark: '100', at }])),
    ).rejects.toThrow(/referrer/);
    expect(await q(sql`select id from perp_positions where user_id = ${u!}`)).toEqual([]);
  });

  it('replays 2,000 items in one transaction (speed printed, not asserted, beside the services on 150)', async () => {
    const users = await makeGroup(Array.from({ length: 20 }, () => '1000000'));
    const list = makeList({ seed: 7, count: 2000, tickers, marks: initialMarks, slots: 20, poor: 19 });
    const items = forGroup(list, users, 10 * DAY);
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const r = await withTransaction((tx) => writePerpHistory(tx, items));
    const ms = performance.now() - t0;
    const cpuMs = (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000;
    expect(r.written).toBeGreaterThan(1500);
    await expectLedgerChain(users);
    expect((await expectPerpTickerCounters()).hourRows).toBeGreaterThan(0);

    const others = await makeGroup(Array.from({ length: 20 }, () => '1000000'));
    const few = forGroup(list.slice(0, 150), others, 20 * DAY);
    const cpu2 = process.cpuUsage();
    const t1 = performance.now();
    await runServices(few);
    const serviceMs = performance.now() - t1;
    const serviceCpuMs = (process.cpuUsage(cpu2).user + process.cpuUsage(cpu2).system) / 1000;
    const per = (x: number, n: number) => (x / n).toFixed(2);
    console.info(
      `[perps history] bulk: ${items.length} items (${r.written} written, ${r.refused.length} refused) in ${Math.round(ms)} ms wall, ${Math.round(cpuMs)} ms CPU ` +
        `(${per(ms, items.length)} / ${per(cpuMs, items.length)} ms an item); services: ${few.length} items in ${Math.round(serviceMs)} ms wall, ` +
        `${Math.round(serviceCpuMs)} ms CPU (${per(serviceMs, few.length)} / ${per(serviceCpuMs, few.length)} ms an item)`,
    );
  });
});
