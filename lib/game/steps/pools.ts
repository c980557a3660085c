/**
 * Tick step: pools. Each active pool's manager trades by its tier and the tick's news (the pure
 * plan in lib/game/pools/plan.ts) through the pool trade services (lib/pools/service/trade.ts:
 * the same perps and prediction statements as any player, under the pool's lock), announces
 * notable moves in a post, and then every pool's NAV is recorded (a point for the charts and a
 * pool_update event) with the pools' rows locked, so each point prices one consistent state.
 * Between the two, arbitrage (steps/arbitrage.ts) brings every perp mark back within its band.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { actors, marketPositions, perpPositions, pools, users } from '@/db/schema';
import { npcCaller } from '@/lib/auth/caller';
import { isAppError } from '@/lib/errors/app-error';
import { loadHoldings } from '@/lib/pools/holdings';
import { recordNav } from '@/lib/pools/service/shared';
import { buyPoolPrediction, closePoolPerp, openPoolPerp, type TPoolTradeResult } from '@/lib/pools/service/trade';
import { createPost } from '@/lib/posts/service/create-post';
import { liquidateTicker } from '@/lib/perps/service/liquidate';
import { dec, toNumber } from '@/lib/money/decimal';
import type { TFundBook } from '../npc/fund';
import { catchUp } from '../npc/plan';
import { loadValuedMarkets } from '../npc/state';
import { planPoolTrades, POOL_ACT_CHANCE, type TPlanPool, type TPoolTrade } from '../pools/plan';
import { loadOrganizations } from '../state';
import { perpTradeLink, predictionTradeLink } from '../trade-links';
import { runArbitrageStep } from './arbitrage';
import type { TTickContext } from '../types';

/** Trades carried out per tick at most (the plan's order: pool by pool); the rest wait for the next tick's plan. */
export const MAX_POOL_TRADES_PER_TICK = 60;

export type TPoolStepResult = { pools: number; trades: number; posts: number; navPoints: number };

const execute = async (t: TPoolTrade): Promise<TPoolTradeResult> => {
  try {
    // The moved tickers are swept once at the end of the step, not after every fill.
    if (t.kind === 'open') return await openPoolPerp({ poolId: t.poolId, ticker: t.ticker, side: t.side, size: String(t.size), leverage: String(t.leverage) }, { sweep: false });
    if (t.kind === 'close') return await closePoolPerp({ poolId: t.poolId, positionId: t.positionId, ticker: t.ticker }, { sweep: false });
    return await buyPoolPrediction({ poolId: t.poolId, marketId: t.marketId, outcome: t.outcome, amount: String(t.amount) });
  } catch (e) {
    // The engines refuse with typed errors (a market that just closed): skip that trade.
    if (isAppError(e)) return { ok: false, id: null };
    throw e;
  }
};

/** Records every active pool's NAV as of `at`, with the pools locked (one consistent state each). */
export async function recordPoolNavs(at: Date) {
  return withTransaction(async (tx) => {
    const rows = await tx.select().from(pools).where(eq(pools.isActive, true)).orderBy(asc(pools.id)).for('update');
    const holdings = await loadHoldings(
      tx,
      rows.map((p) => p.accountUserId),
    );
    const snapshots = rows.map((p) => ({ poolId: p.id, nav: holdings.get(p.accountUserId)?.nav ?? dec(0), totalShares: dec(p.totalShares) }));
    await recordNav(tx, snapshots, 'tick', at);
    return snapshots.length;
  });
}

export async function runPoolStep(ctx: TTickContext): Promise<TPoolStepResult> {
  const db = await getDb();
  const rng = ctx.rng.fork('pools');
  const rows = await db
    .select({ pool: pools, username: users.username, role: actors.role })
    .from(pools)
    .innerJoin(users, eq(users.id, pools.npcActorId))
    .leftJoin(actors, eq(actors.userId, pools.npcActorId))
    .where(eq(pools.isActive, true))
    .orderBy(asc(pools.id));
  const holdings = await loadHoldings(
    db,
    rows.map((r) => r.pool.accountUserId),
  );
  const orgs = await loadOrganizations(db);
  // The open questions with their pools and values: managers buy toward what each is worth.
  const questions = await loadValuedMarkets(db, ctx.at);

  // Open interest by ticker and side (everyone's open positions): views lean against the heavier side.
  const oi = new Map<string, { long: number; short: number }>();
  for (const r of rowsOf<{ ticker: string; side: 'long' | 'short'; size: string }>(
    await db.execute(sql`select ticker, side, sum(size) as size from ${perpPositions} where status = 'open' group by ticker, side order by ticker, side`),
  )) {
    const o = oi.get(r.ticker) ?? { long: 0, short: 0 };
    o[r.side] = toNumber(String(r.size));
    oi.set(r.ticker, o);
  }
  // Each manager's personal book (sides only): a fund and its manager never face each other (npc/fund.ts).
  const books = new Map<string, TFundBook>();
  if (rows.length) {
    const managers = sql.join(rows.map((r) => sql`${r.pool.npcActorId}`), sql`, `);
    for (const r of rowsOf<{ user_id: string; kind: 'prediction' | 'perp'; key: string; side: string }>(
      await db.execute(sql`
        select user_id, 'prediction' as kind, market_id as key, side from ${marketPositions}
        where user_id in (${managers}) and shares > 0 and settled_at is null
        union
        select user_id, 'perp' as kind, ticker as key, side from ${perpPositions}
        where user_id in (${managers}) and status = 'open'
        order by 1, 2, 3, 4`),
    )) {
      const b = books.get(r.user_id) ?? { predictions: [], perps: [] };
      if (r.kind === 'prediction') (b.predictions as { marketId: string; side: 'YES' | 'NO' }[]).push({ marketId: r.key, side: r.side as 'YES' | 'NO' });
      else (b.perps as { ticker: string; side: 'long' | 'short' }[]).push({ ticker: r.key, side: r.side as 'long' | 'short' });
      books.set(r.user_id, b);
    }
  }
  const planPools: TPlanPool[] = rows.map(({ pool, username, role }) => {
    const h = holdings.get(pool.accountUserId);
    return {
      id: pool.id,
      name: pool.name,
      tier: pool.tier,
      manager: { id: pool.npcActorId, username, role: role ?? '' },
      cash: h ? toNumber(h.cash) : 0,
      nav: h ? toNumber(h.nav) : 0,
      perps: (h?.perps ?? []).map((p) => ({ id: p.id, ticker: p.ticker, side: p.side, margin: toNumber(p.margin), unrealizedPnL: toNumber(p.unrealizedPnL), openedAt: p.openedAt.getTime() })),
      predictions: (h?.predictions ?? []).map((p) => ({ marketId: p.marketId, side: p.side, shares: toNumber(p.shares) })),
      managerBook: books.get(pool.npcActorId),
    };
  });
  const actRng = rng.fork('acting');
  // After a gap, the chance of having looked at least once in the minutes it spans (catchUp).
  const actChance = 1 - (1 - (ctx.newEvents.length ? POOL_ACT_CHANCE.news : POOL_ACT_CHANCE.quiet)) ** catchUp(ctx.minutes);
  const acting = planPools.filter(() => actRng.chance(actChance));
  const plan = planPoolTrades(
    {
      pools: acting,
      tickers: orgs
        .filter((o) => o.markPrice !== null)
        .map((o) => ({ ticker: o.ticker, markPrice: o.markPrice!, fairValue: o.fairValue, oiLong: oi.get(o.ticker)?.long ?? 0, oiShort: oi.get(o.ticker)?.short ?? 0 })),
      questions,
    },
    ctx.newEvents,
    rng,
  );

  // Round robin over pools (each pool's first trade, then each one's second, …), so the cap
  // never starves the pools that come last.
  const rank = new Map<string, number>();
  const order = plan.trades
    .map((t, i) => {
      const k = rank.get(t.poolId) ?? 0;
      rank.set(t.poolId, k + 1);
      return { i, k };
    })
    .sort((a, b) => a.k - b.k || a.i - b.i)
    .slice(0, MAX_POOL_TRADES_PER_TICK);
  const done: (string | null)[] = [];
  const moved = new Set<string>();
  let trades = 0;
  for (const { i } of order) {
    if (performance.now() > ctx.deadline) break;
    const t = plan.trades[i]!;
    const r = await execute(t);
    done[i] = r.ok ? r.id : null;
    if (r.ok) trades++;
    if (r.ok && t.kind !== 'buy') moved.add(t.ticker);
  }
  for (const ticker of [...moved].sort()) await liquidateTicker(ticker);
  let posts = 0;
  const accountOf = new Map(rows.map(({ pool }) => [pool.id, pool.accountUserId]));
  for (const p of plan.posts) {
    const positionId = done[p.tradeIndex];
    if (!positionId || performance.now() > ctx.deadline) continue;
    // The post names the pool's trade it announces (a trade of the pool's account).
    const t = plan.trades[p.tradeIndex]!;
    const link =
      t.kind === 'buy'
        ? await predictionTradeLink({ userId: accountOf.get(t.poolId)!, positionId, action: 'buy' })
        : await perpTradeLink({ positionId, action: t.kind });
    if (!link) continue;
    try {
      await createPost({
        caller: npcCaller({ userId: p.managerId, username: p.managerUsername }),
        content: p.content,
        type: 'post',
        relatedQuestion: t.kind === 'buy' ? t.marketId : null,
        trade: link,
      });
      posts++;
    } catch (e) {
      if (!isAppError(e)) throw e;
    }
  }
  // The tick's last trades are done: arbitrage brings the marks back within their band, and the
  // NAVs are recorded at those marks.
  await runArbitrageStep(ctx);
  const navPoints = await recordPoolNavs(ctx.at);
  return { pools: rows.length, trades, posts, navPoints };
}
