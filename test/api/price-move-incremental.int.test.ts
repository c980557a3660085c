/**
 * The tick's price-move alerts are incremental (migration 0029): from the last run's watermark, a
 * run reads only what changed since (markets that newly moved, trades in moved markets, notices
 * turning a day old, price_move preference changes), not every holder of every moved market, and
 * writes exactly the notices the full run would. Rows are counted, never time.
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb, rowsOf, withTransaction, type DbOrTx } from '@/db/client';
import type { TUserRow } from '@/db/schema';
import { callerOfUser } from '@/lib/auth/caller';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { createMarket } from '@/lib/markets/service/create-market';
import { sellShares } from '@/lib/markets/service/sell-shares';
import { setPreferences } from '@/lib/notifications/preferences';
import { notifyPriceMovesCounted, notifyPriceMovesFull } from '@/lib/notifications/trading';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';

beforeAll(async () => {
  await seedWorld(await getDb());
});
beforeEach(() => setLimiter(createMemoryLimiter()));
afterEach(() => resetClock());

const HOUR = 3_600_000;
const MINUTE = 60_000;
const DAY = 24 * HOUR;

const run = (at: Date) => withTransaction((tx) => notifyPriceMovesCounted(tx, at));
const buy = async (u: TUserRow, marketId: string, outcome: 'YES' | 'NO', amount: number, at: Date) => {
  setFixedTime(at);
  await buyShares({ caller: callerOfUser(u), marketId, outcome, amount: String(amount) });
};
const newMarket = async (text: string, at: Date) => {
  setFixedTime(at);
  return createMarket({ caller: null, text, resolutionDate: new Date(at.getTime() + 60 * DAY), liquidity: 1000 });
};

type TNotice = { user_id: string; link: string; title: string; message: string; delivery: string };
const noticesAt = async (db: DbOrTx, at: Date): Promise<TNotice[]> =>
  rowsOf<TNotice>(
    await db.execute(sql`
      select user_id, link, title, message, delivery from notifications
      where kind = 'price_move' and created_at = ${at.toISOString()}::timestamptz
      order by user_id, link`),
  );
const countOf = async (userId: string, link: string) => {
  const [r] = rowsOf<{ n: string }>(
    await (await getDb()).execute(sql`select count(*) as n from notifications where kind = 'price_move' and user_id = ${userId} and link = ${link}`),
  );
  return Number(r!.n);
};

class Rollback extends Error {}
/** What the full run would write at `at`, in a transaction rolled back. */
const fullWouldWrite = async (at: Date) => {
  let out: TNotice[] = [];
  await withTransaction(async (tx) => {
    await notifyPriceMovesFull(tx, at);
    out = await noticesAt(tx, at);
    throw new Rollback();
  }).catch((e) => {
    if (!(e instanceof Rollback)) throw e;
  });
  return out;
};

describe('price-move alerts: incremental from the last run', () => {
  it('reads nothing when nothing changed, one trade for a new holder, all holders of a newly moved market, and the notices turning a day old', async () => {
    const T0 = Math.floor(Date.now() / HOUR) * HOUR + 40 * DAY;
    const at = (ms: number) => new Date(T0 + ms);
    const a = await newMarket('Will the incremental alerts reach the holders of market A?', at(0));
    const b = await newMarket('Will the incremental alerts reach the holders of market B?', at(0));
    const hs = await Promise.all([1, 2, 3, 4, 5].map(() => seedUser({ balance: '5000' })));
    const gs = await Promise.all([1, 2].map(() => seedUser({ balance: '5000' })));
    const [whale1, whale2, whale3, late, quiet] = await Promise.all([1, 2, 3, 4, 5].map(() => seedUser({ balance: '20000' })));
    for (const h of hs) await buy(h, a.id, 'YES', 10, at(0));
    // A holder of A who turned price moves off.
    await buy(quiet!, a.id, 'YES', 10, at(0));
    await setPreferences({ caller: callerOfUser(quiet!), preferences: [{ kind: 'price_move', channel: 'off' }] });
    for (const g of gs) await buy(g, b.id, 'YES', 10, at(0));
    await buy(whale1!, a.id, 'YES', 800, at(MINUTE));

    // No watermark: the full run reads every holder of A (the one market that moved).
    expect(await run(at(10 * MINUTE))).toEqual({ notified: 6, examined: 7, incremental: false });
    // Nothing changed: nothing read, nothing written.
    expect(await run(at(20 * MINUTE))).toEqual({ notified: 0, examined: 0, incremental: true });
    // A new holder of A: the one trade is read, the one holder told.
    await buy(late!, a.id, 'NO', 10, at(25 * MINUTE));
    expect(await run(at(30 * MINUTE))).toEqual({ notified: 1, examined: 1, incremental: true });
    expect(await countOf(late!.id, `/markets/${a.id}`)).toBe(1);
    expect(await run(at(40 * MINUTE))).toEqual({ notified: 0, examined: 0, incremental: true });
    // The holder who turned them off turns them back on: their preference row is read, they are told.
    setFixedTime(at(41 * MINUTE));
    await setPreferences({ caller: callerOfUser(quiet!), preferences: [{ kind: 'price_move', channel: 'digest' }] });
    expect(await run(at(44 * MINUTE))).toEqual({ notified: 1, examined: 1, incremental: true });
    expect(await countOf(quiet!.id, `/markets/${a.id}`)).toBe(1);
    // B newly moves: all its holders are read and told.
    await buy(whale2!, b.id, 'NO', 800, at(45 * MINUTE));
    expect(await run(at(50 * MINUTE))).toEqual({ notified: 3, examined: 3, incremental: true });
    for (const g of gs) expect(await countOf(g.id, `/markets/${b.id}`)).toBe(1);
    expect(await run(at(60 * MINUTE))).toEqual({ notified: 0, examined: 0, incremental: true });
    // A moves again: the one buyer is read and told; the others were told within 24 h.
    await buy(whale3!, a.id, 'YES', 3000, at(20 * HOUR));
    expect(await run(at(20 * HOUR + 10 * MINUTE))).toEqual({ notified: 1, examined: 1, incremental: true });
    // The first run's notices turn a day old while A is still moved (from its price a day before):
    // those six are read and their holders told again, as the full run would.
    const t = at(DAY + 15 * MINUTE);
    const expected = await fullWouldWrite(t);
    expect(expected).toHaveLength(6);
    expect(await run(t)).toEqual({ notified: 6, examined: 6, incremental: true });
    expect(await noticesAt(await getDb(), t)).toEqual(expected);
    for (const h of [...hs, whale1!]) expect(await countOf(h.id, `/markets/${a.id}`)).toBe(2);
    expect(await countOf(late!.id, `/markets/${a.id}`)).toBe(1);
    // A clock gone back: the full run (it reads every holder of the moved markets).
    expect((await run(at(DAY))).incremental).toBe(false);
  });

  it('writes the notices the full run writes, run after run, over random trades, sales and preferences', async () => {
    const T0 = Math.floor(Date.now() / HOUR) * HOUR + 120 * DAY;
    let s = 20260529;
    const rnd = () => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s / 2147483648;
    };
    const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    const markets = await Promise.all([1, 2, 3].map((i) => newMarket(`Will random market ${i} move for the equivalence check?`, new Date(T0))));
    const users = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(() => seedUser({ balance: '100000' })));
    const held = new Map<string, number>();
    let clock = T0 + MINUTE;
    let runs = 0;
    let notified = 0;
    let incremental = 0;
    for (let step = 0; step < 40; step++) {
      // Between runs: a few trades, sales and preference changes, each at its own time.
      const actions = 1 + Math.floor(rnd() * 3);
      for (let k = 0; k < actions; k++) {
        clock += Math.floor(rnd() * 90) * MINUTE + MINUTE;
        const u = pick(users);
        const m = pick(markets);
        const r = rnd();
        if (r < 0.5) {
          const side = rnd() < 0.5 ? 'YES' : 'NO';
          await buy(u, m.id, side, rnd() < 0.5 ? 1500 : 10, new Date(clock));
          held.set(`${u.id}|${m.id}|${side}`, 1);
        } else if (r < 0.65) {
          const key = [...held.keys()].find((x) => x.startsWith(`${u.id}|${m.id}|`));
          if (key) {
            setFixedTime(new Date(clock));
            const side = key.split('|')[2] as 'YES' | 'NO';
            const [p] = rowsOf<{ shares: string }>(
              await (await getDb()).execute(sql`select shares from market_positions where user_id = ${u.id} and market_id = ${m.id} and side = ${side}`),
            );
            if (p && Number(p.shares) > 0) await sellShares({ caller: callerOfUser(u), marketId: m.id, outcome: side, shares: p.shares });
            held.delete(key);
          }
        } else {
          setFixedTime(new Date(clock));
          await setPreferences({ caller: callerOfUser(u), preferences: [{ kind: 'price_move', channel: pick(['off', 'in_app', 'digest'] as const) }] });
        }
      }
      clock += (5 + Math.floor(rnd() * 300)) * MINUTE;
      const at = new Date(clock);
      const expected = await fullWouldWrite(at);
      const r = await run(at);
      expect(await noticesAt(await getDb(), at)).toEqual(expected);
      expect(r.notified).toBe(expected.length);
      runs++;
      notified += r.notified;
      if (r.incremental) incremental++;
    }
    expect(runs).toBe(40);
    // The scenario did exercise both: notices written, and incremental runs.
    expect(notified).toBeGreaterThan(0);
    expect(incremental).toBeGreaterThan(30);
  });
});
