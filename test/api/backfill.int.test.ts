/**
 * The world's backfilled past (lib/game/backfill): after seedWorld and backfillHistory, charts have
 * 30 days behind them, markets have volume and moved prices, some questions resolved with payouts,
 * the books balance, a second run writes nothing, and two fresh worlds get the same past.
 */
import { sql, type SQL } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as predictionHistoryRoute } from '@/app/api/markets/predictions/[id]/history/route';
import { GET as tickerHistoryRoute } from '@/app/api/markets/perps/tickers/[ticker]/history/route';
import { getDb, rowsOf } from '@/db/client';
import { now, setFixedTime } from '@/lib/clock/clock';
import { backfillHistory, type TBackfillResult } from '@/lib/game/backfill/write';
import { runGameTick } from '@/lib/game/tick';
import { seedWorld } from '@/lib/world/seed/world';
import { ORGANIZATIONS, QUESTIONS } from '@/lib/world/seed/world-data';
import { switchToFreshDatabase } from '@/test/databases';
import { call } from '@/test/http';
import { expectLedgerChain, expectPerpTickerCounters, expectPoolBooks } from '@/test/invariants';

const T0 = new Date('2026-06-01T12:34:56.000Z');
const DAY = 86_400_000;
const q = async <T>(query: SQL) => rowsOf<T>(await (await getDb()).execute(query));

/** Rows that say what the past is, without generated ids. */
const snapshot = async () => ({
  trades: await q(sql`select user_id, side, action, amount::text, shares::text, created_at from trades order by created_at, user_id`),
  perpTrades: await q(sql`select p.user_id, p.ticker, p.side, p.size::text, p.entry_price::text, p.exit_price::text, p.status, p.opened_at from perp_positions p order by opened_at, user_id`),
  markets: await q(sql`select text, status, resolved_outcome, yes_shares::text, no_shares::text, volume::text, created_at from markets order by created_at, text`),
  balances: await q(sql`select id, virtual_balance::text from users order by id`),
  perpPoints: await q(sql`select ticker, mark_price::text, index_price::text, created_at from perp_price_points order by created_at, ticker, source`),
  navPoints: await q(sql`select pool_id, total_value::text, created_at from pool_nav_points order by created_at, pool_id`),
  events: await q(sql`select id, title, created_at from world_events order by created_at, id`),
});

let result: TBackfillResult;

beforeAll(async () => {
  setFixedTime(T0);
  const db = await getDb();
  await seedWorld(db);
  result = await backfillHistory(db);
}, 300_000);

describe('backfillHistory', () => {
  it('writes 30 days of history in bounded time and gives the clock back', () => {
    expect(result.skipped).toBe(false);
    if (result.skipped) return;
    console.info(`[backfill] ${result.ms} ms (cpu ${result.cpuMs} ms)`, result.actions, result.actionMs, result.failures);
    expect(result.start).toBe(new Date(T0.getTime() - 30 * DAY).toISOString());
    expect(result.failed).toBe(0);
    expect(now().toISOString()).toBe(T0.toISOString());
  });

  it('gives every ticker and every seeded market points over ~30 days, and 24 h, 7 d and 30 d differ', async () => {
    const tickers = await q<{ ticker: string; n: number; first: string | Date; last: string | Date }>(
      sql`select ticker, count(*)::int as n, min(created_at) as first, max(created_at) as last from perp_price_points group by ticker order by ticker`,
    );
    expect(tickers.map((t) => t.ticker).sort()).toEqual(ORGANIZATIONS.map((o) => o.ticker).sort());
    for (const t of tickers) {
      expect(new Date(t.first).getTime()).toBeLessThan(T0.getTime() - 29 * DAY);
      expect(new Date(t.last).getTime()).toBeLessThanOrEqual(T0.getTime());
      expect(t.n).toBeGreaterThan(600);
    }
    const seeded = await q<{ market_id: string; first: string | Date; n: number }>(
      sql`select market_id, min(created_at) as first, count(*)::int as n from market_price_points where market_id like 'seed-q-%' group by market_id`,
    );
    expect(seeded).toHaveLength(QUESTIONS.length);
    for (const m of seeded) {
      expect(new Date(m.first).getTime()).toBeLessThan(T0.getTime() - 29 * DAY);
      expect(m.n).toBeGreaterThan(600);
    }

    const ranges = ['24h', '7d', '30d'] as const;
    const market = await Promise.all(ranges.map((range) => call(predictionHistoryRoute, `/api/markets/predictions/seed-q-1/history`, { params: { id: 'seed-q-1' }, query: { range } })));
    const ticker = await Promise.all(ranges.map((range) => call(tickerHistoryRoute, `/api/markets/perps/tickers/NEXA/history`, { params: { ticker: 'NEXA' }, query: { range } })));
    for (const res of [...market, ...ticker]) expect(res.status).toBe(200);
    const firstTimes = (rs: typeof market) => rs.map((r) => JSON.stringify(r.body).match(/"(?:timestamp|createdAt|time)":"([^"]+)"/)?.[1]);
    const m = firstTimes(market);
    const t = firstTimes(ticker);
    expect(new Set(m).size).toBe(3);
    expect(new Set(t).size).toBe(3);
    expect(new Date(m[2]!).getTime()).toBeLessThan(T0.getTime() - 29 * DAY);
  });

  it('leaves most markets traded, away from 50 %, and some questions resolved with payouts', async () => {
    const active = await q<{ volume: string; p: string }>(
      sql`select volume::text, (yes_shares / (yes_shares + no_shares))::text as p from markets where status = 'active'`,
    );
    expect(active.length).toBeGreaterThanOrEqual(10);
    expect(active.filter((m) => Number(m.volume) > 0).length / active.length).toBeGreaterThanOrEqual(0.8);
    expect(active.filter((m) => Math.abs(Number(m.p) - 0.5) > 0.02).length / active.length).toBeGreaterThan(0.5);
    const [resolved] = await q<{ n: number; latest: string | Date }>(sql`select count(*)::int as n, max(resolved_at) as latest from markets where status = 'resolved'`);
    expect(resolved!.n).toBeGreaterThanOrEqual(3);
    expect(new Date(resolved!.latest).getTime()).toBeLessThanOrEqual(T0.getTime());
    const [paid] = await q<{ n: number }>(sql`select count(*)::int as n from balance_transactions where type = 'pred_payout'`);
    expect(paid!.n).toBeGreaterThan(0);
    const [perps] = await q<{ n: number; closed: number }>(sql`select count(*)::int as n, count(*) filter (where status = 'closed')::int as closed from perp_positions`);
    expect(perps!.closed).toBeGreaterThan(20);
    const [vol] = await q<{ n: number }>(sql`select count(distinct ticker)::int as n from perp_trades`);
    expect(vol!.n).toBe(ORGANIZATIONS.length);
  });

  it('keeps the books: the ledger chain and every pool’s NAV', async () => {
    await expectLedgerChain();
    await expectPoolBooks();
    // The history's set-based writes kept the tickers' open units and hour rows as the live trades do.
    const counted = await expectPerpTickerCounters();
    expect(counted.openPositions).toBeGreaterThan(0);
    expect(counted.hourRows).toBeGreaterThan(0);
    const navs = await q<{ pool_id: string; n: number; first: string | Date }>(sql`select pool_id, count(*)::int as n, min(created_at) as first from pool_nav_points group by pool_id`);
    expect(navs.length).toBeGreaterThan(0);
    for (const p of navs) {
      expect(p.n).toBeGreaterThan(600);
      expect(new Date(p.first).getTime()).toBeLessThan(T0.getTime() - 29 * DAY);
    }
  });

  it('is as busy every day as any other: trades, NPC posts and NAV moves (row counts)', async () => {
    const perDay = async (table: SQL, where: SQL = sql`true`) => {
      const rows = await q<{ d: number; n: number }>(
        sql`select floor(extract(epoch from (${T0.toISOString()}::timestamptz - created_at - interval '1 millisecond')) / 86400)::int as d, count(*)::int as n
          from ${table} where created_at < ${T0.toISOString()}::timestamptz and ${where} group by 1`,
      );
      const days = new Array<number>(30).fill(0);
      for (const r of rows) if (r.d >= 0 && r.d < 30) days[r.d] = r.n;
      return days;
    };
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const trades = await perDay(sql`trades`);
    const perps = await perDay(sql`perp_trades`);
    const all = trades.map((n, i) => n + perps[i]!);
    const npcPosts = await perDay(sql`posts`, sql`author_id in (select user_id from actors)`);
    console.info('[backfill density] trades per day (newest first):', all.join(' '), '| NPC posts:', npcPosts.join(' '));
    // No cliff: every day (the first, partial one aside) within half and twice the month's mean.
    for (const xs of [all, npcPosts]) {
      const m = mean(xs.slice(0, 29));
      for (const [i, d] of xs.slice(0, 29).entries()) {
        expect(d, `day ${i}`).toBeGreaterThan(m / 2);
        expect(d, `day ${i}`).toBeLessThan(m * 2);
      }
    }
    // Every trade post names its trade and was written after it.
    const [orphans] = await q<{ n: number }>(sql`
      select count(*)::int as n from posts p
      left join trades t on p.trade_kind = 'prediction' and t.id = p.trade_id
      left join perp_trades x on p.trade_kind = 'perp' and x.id = p.trade_id
      where p.trade_id is not null and (coalesce(t.created_at, x.created_at) is null or coalesce(t.created_at, x.created_at) >= p.created_at)`);
    expect(orphans!.n).toBe(0);
    // Every pool's NAV moves nearly every hour of the window.
    const moves = await q<{ pool_id: string; n: number; moved: number }>(sql`
      select pool_id, count(*)::int as n, count(*) filter (where total_value <> prev)::int as moved
      from (select pool_id, total_value, lag(total_value) over (partition by pool_id order by created_at) as prev from pool_nav_points where source = 'tick') v
      where prev is not null group by pool_id`);
    expect(moves.length).toBeGreaterThan(0);
    for (const m of moves) expect(m.moved / m.n, m.pool_id).toBeGreaterThan(0.9);
  });

  it('runs once: a second call writes nothing', async () => {
    const before = await snapshot();
    const again = await backfillHistory(await getDb());
    expect(again).toEqual({ skipped: true, reason: 'done' });
    expect(await snapshot()).toEqual(before);
  });

  it('leaves the present as the seed made it, so the first live tick continues from now', async () => {
    const orgs = await q<{ ticker: string; current_price: string; mark_price: string }>(
      sql`select o.ticker, o.current_price::text, p.mark_price::text from organizations o join perp_markets p on p.ticker = o.ticker`,
    );
    for (const o of ORGANIZATIONS) {
      const row = orgs.find((r) => r.ticker === o.ticker)!;
      expect(Number(row.current_price)).toBe(Number(o.price));
      expect(Number(row.mark_price) / Number(o.price)).toBeCloseTo(1, 2);
    }
    const [clock] = await q<{ n: number }>(sql`select count(*)::int as n from game_clock where id = 'main'`);
    expect(clock!.n).toBe(0);
    setFixedTime(new Date(T0.getTime() + 60_000));
    // The steps' clock stopped, as in the live hour below: the tick does its whole work however busy the machine.
    const stopped = vi.spyOn(performance, 'now').mockReturnValue(0);
    const tick = await runGameTick({}).finally(() => stopped.mockRestore());
    expect(tick).toMatchObject({ skipped: false });
    const [points] = await q<{ n: number }>(sql`select count(*)::int as n from perp_price_points where source = 'tick' and created_at = ${new Date(T0.getTime() + 60_000).toISOString()}::timestamptz`);
    expect(points!.n).toBe(ORGANIZATIONS.length);
    await expectLedgerChain();
  }, 120_000);

  it('matches a live hour: trades, perp trades, NPC posts and replies per hour within half and three times the past’s', async () => {
    // The first live tick ran at T0 + 1 min (the test above); the hour's other 59 follow, a minute apart.
    // Each step stops at its budget (performance.now() past its deadline) and leaves the rest to
    // the next tick: on a loaded machine a step cut short changes what the hour does (a loaded CI run
    // on PostgreSQL counted 116 prediction trades where a quiet one counts 74), so the hour is counted
    // with the steps' clock stopped: every step does its whole work, as on a quiet machine.
    const stopped = vi.spyOn(performance, 'now').mockReturnValue(0);
    try {
      for (let m = 2; m <= 60; m++) {
        setFixedTime(new Date(T0.getTime() + m * 60_000));
        expect(await runGameTick({})).toMatchObject({ skipped: false });
      }
    } finally {
      stopped.mockRestore();
    }
    const end = new Date(T0.getTime() + 61 * 60_000);
    const hour = async (table: SQL, where: SQL, from: Date, to: Date) => {
      const [r] = await q<{ n: number }>(sql`select count(*)::int as n from ${table} where created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz and ${where}`);
      return r!.n;
    };
    const npc = (col: SQL) => sql`(${col} in (select user_id from actors) or ${col} in (select account_user_id from pools))`;
    const kinds = {
      'prediction trades': [sql`trades`, npc(sql`user_id`)],
      'perp trades': [sql`perp_trades`, npc(sql`user_id`)],
      'NPC posts': [sql`posts`, npc(sql`author_id`)],
      'NPC replies': [sql`comments`, npc(sql`author_id`)],
    } as const;
    const start = new Date(T0.getTime() - 30 * DAY);
    for (const [name, [table, where]] of Object.entries(kinds)) {
      const past = (await hour(table, where, start, T0)) / (30 * 24);
      const live = await hour(table, where, T0, end);
      console.info(`[backfill density] ${name} per hour: past ${past.toFixed(1)}, live ${live}`);
      expect(live, name).toBeGreaterThan(past / 2);
      // One live hour is one sample: with the same seed and time it counted 74 prediction trades in
      // some runs and 116 in others (on both databases; what varies between runs is not pinned down
      // yet), against 46.5 an hour in the past. The bound is what a cliff between the past and the
      // present would break, not that sample's spread.
      expect(live, name).toBeLessThan(past * 3);
    }
  }, 300_000);

  it('is deterministic: two fresh worlds with the same seed and time get the same past (three days of it)', async () => {
    // The same code as the month above, on a shorter window: the determinism is the point, not the length.
    const runWorld = async () => {
      await switchToFreshDatabase('backfill');
      setFixedTime(T0);
      const db = await getDb();
      await seedWorld(db);
      await backfillHistory(db, { days: 3 });
      return snapshot();
    };
    const a = await runWorld();
    const b = await runWorld();
    expect(a.trades.length).toBeGreaterThan(100);
    expect(b).toEqual(a);
  }, 480_000);
});
