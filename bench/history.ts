/**
 * Figure "history write" (BENCH_ONLY=history): prediction trades per second written by the
 * backfill's set-based writer (lib/markets/history.ts writePredictionHistory, one transaction for
 * the whole list), with no HTTP and no server, on a throwaway database of its own (created,
 * migrated by opening db/client.ts on it, seeded through seedWorld, provisionUser and createMarket,
 * dropped at the end).
 *
 * The reference, same run, same database, same list: the same trades through the services the
 * routes call, one by one in order (buyShares, sellShares), each its own statement or transaction:
 * what the backfill did before. Two identical groups of users and two identical markets, so both
 * start from the same state; the writer's equivalence test (history.int.test.ts) holds that they
 * write the same rows. Goal: a ratio well above 1 (the writer is why a month of live-density
 * history fits in a boot).
 *
 * Environment: BENCH_HISTORY_TRADES (default 2,000).
 */
import postgres from 'postgres';
import { callerOfUser } from '@/lib/auth/caller';
import { setFixedTime } from '@/lib/clock/clock';
import { dec } from '@/lib/money/decimal';
import type { TPredictionHistoryTrade } from '@/lib/markets/history';
import type { TFigure } from './figures';
import { closeLibDb, openLibDb } from './pools';

const TRADES = Number(process.env.BENCH_HISTORY_TRADES ?? 2000);
const USERS = 20;

export const benchHistoryWrite = async (ctx: { baseUrl: string; figures: TFigure[]; poolMax: number }) => {
  const dbName = `pm_history_${Date.now()}`;
  const admin = postgres(ctx.baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(ctx.baseUrl);
  url.pathname = `/${dbName}`;
  await closeLibDb();
  const saved = process.env.STARTING_BALANCE;
  try {
    console.log(`\nHistory write: ${TRADES} prediction trades, set-based against the services one by one, database ${dbName}…`);
    process.env.STARTING_BALANCE = '1000000';
    const db = await openLibDb(url.toString(), ctx.poolMax);
    const { seedWorld } = await import('@/lib/world/seed/world');
    const { provisionUser } = await import('@/lib/users/service/provision-user');
    const { createMarket } = await import('@/lib/markets/service/create-market');
    const { buyShares } = await import('@/lib/markets/service/buy-shares');
    const { sellShares } = await import('@/lib/markets/service/sell-shares');
    const { writePredictionHistory } = await import('@/lib/markets/history');
    const { withTransaction } = await import('@/db/client');
    await seedWorld(db);
    const group = async (label: string) => Promise.all(Array.from({ length: USERS }, (_, i) => provisionUser({ subject: `history|${label}|${i}` })));
    const [a, b] = [await group('a'), await group('b')];
    const resolutionDate = new Date(Date.now() + 30 * 86_400_000);
    const [ma, mb] = [
      await createMarket({ caller: null, text: 'History benchmark question A?', resolutionDate, liquidity: 100000 }),
      await createMarket({ caller: null, text: 'History benchmark question B?', resolutionDate, liquidity: 100000 }),
    ];
    // One deterministic list: user i buys, and every fourth trade sells a third of what it bought last.
    const t0 = Date.now();
    const list = Array.from({ length: TRADES }, (_, i) => ({ user: i % USERS, at: new Date(t0 + i * 1000), sell: i % 4 === 3, amount: String(5 + (i % 17) * 3) }));
    const bought = new Map<number, number>();
    const started = performance.now();
    const items: TPredictionHistoryTrade[] = [];
    for (const t of list) {
      setFixedTime(t.at);
      const caller = callerOfUser(a[t.user]!);
      if (t.sell && bought.get(t.user)) {
        const shares = dec(bought.get(t.user)!).div(3).toDecimalPlaces(6, 1).toFixed();
        await sellShares({ caller, marketId: ma.id, outcome: 'YES', shares });
        items.push({ action: 'sell' as const, userId: b[t.user]!.id, marketId: mb.id, outcome: 'YES' as const, shares, at: t.at });
        bought.set(t.user, 0);
      } else {
        const r = await buyShares({ caller, marketId: ma.id, outcome: 'YES', amount: t.amount });
        items.push({ action: 'buy' as const, userId: b[t.user]!.id, marketId: mb.id, outcome: 'YES' as const, amount: t.amount, at: t.at });
        bought.set(t.user, r.shares);
      }
    }
    const servicesMs = performance.now() - started;
    setFixedTime(undefined);
    const bulkStarted = performance.now();
    const r = await withTransaction((tx) => writePredictionHistory(tx, items));
    const bulkMs = performance.now() - bulkStarted;
    console.log(`  services: ${servicesMs.toFixed(0)} ms; set-based: ${bulkMs.toFixed(0)} ms (${r.written} written, ${r.refused.length} refused)`);
    ctx.figures.push({
      name: 'history write',
      project: (r.written * 1000) / bulkMs,
      reference: (items.length * 1000) / servicesMs,
      unit: 'trades/s',
      higherIsBetter: true,
      referenceIs: 'the same trades through buyShares/sellShares, one by one',
    });
  } finally {
    process.env.STARTING_BALANCE = saved;
    await closeLibDb();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
};
