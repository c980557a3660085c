/**
 * Writes the generated past (generate.ts) into a freshly seeded world, once. Questions are asked
 * and resolved through the real services (lib/markets create and resolve) with the clock pinned to
 * each action's past time; the trades between them (NPCs' and pools' buys, sells, perp opens and
 * closes, as many a minute as the live tick makes) are written set-based by lib/markets/history.ts
 * and lib/perps/history.ts, which write exactly the rows the services would (equivalence tests
 * there), with one ledger batch per segment, so balances, positions, ledger rows, volume and CPMM
 * state are what those trades make; price, NAV, news and the NPCs' chatter go in as bulk inserts. The world's seed rows (questions,
 * organizations, actors, pools with their seed lots and first NAV points, and the opening ledger
 * rows) move back to the window's start, so nothing trades before it exists.
 *
 * Once: a `game_clock` row (`id = 'backfill'`) claimed before anything is written; a restart, a
 * second call or a world the tick has already run in (the main clock has ticks) writes nothing.
 * The clock is given back as it was (pinned tests keep their time, a server its wall clock), so
 * the first live tick continues from `end`.
 */
import 'server-only';
import { and, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { rowsOf, unnestSql, type Db } from '@/db/client';
import {
  actors,
  balanceTransactions,
  gameClock,
  marketPricePoints,
  markets,
  organizations,
  perpMarkets,
  perpPricePoints,
  perpPositions,
  perpTrades,
  poolDeposits,
  poolNavPoints,
  pools,
  posts,
  questionRules,
  trades,
  users,
} from '@/db/schema';
import { now, setFixedTime } from '@/lib/clock/clock';
import { env } from '@/lib/env';
import { isAppError } from '@/lib/errors/app-error';
import { LedgerBatch } from '@/lib/ledger/batch';
import { preparePredictionHistory, type TPredictionHistoryTrade } from '@/lib/markets/history';
import { preparePerpHistory, type TPerpHistoryTrade } from '@/lib/perps/history';
import { resolveMarket } from '@/lib/markets/service/resolve-market';
import { dec, toDecimalString } from '@/lib/money/decimal';
import { describeTrade, POST_MAX_CHARS, visibleLength } from '@/lib/posts/text';
import { liquidateTicker } from '@/lib/perps/service/liquidate';
import { loadHoldings } from '@/lib/pools/holdings';
import { SHARE_SCALE, sharePriceOf } from '@/lib/pools/math';
import { recordNav } from '@/lib/pools/service/shared';
import { insertWorldEvents } from '@/lib/world/events';
import { TRADE_POST_CHANCE } from '../npc/plan';
import { generateChatter, loadChatterWorld, writeChatter } from './chatter';
import { POST_CHANCE as POOL_POST_CHANCE } from '../pools/plan';
import { createRng } from '../rng';
import { toRule, type TRuleColumns } from '../state';
import { createRuledQuestion } from '../steps/questions';
import { publishDueBeats, publishResolved } from '../storylines/service';
import { CLOCK_ID } from '../tick';
import { BACKFILL_QUESTION_LIQUIDITY, generateHistory, type TBackfillAction, type TBackfillWorld, type THistory } from './generate';

/** The marker row in game_clock: present once a backfill has started. */
export const BACKFILL_CLOCK_ID = 'backfill';
/** Rows per bulk insert (well under PostgreSQL's 65,535 parameters). */
const CHUNK = 1000;

export type TBackfillResult =
  | { skipped: true; reason: 'done' | 'old-world' }
  | {
      skipped: false;
      /** Wall time, and this process's CPU time (on PGlite the database's too: the load-independent cost). */
      ms: number;
      cpuMs: number;
      start: string;
      end: string;
      /** Actions carried out by kind, the time they took (ms) by kind, and the refused ones (first few). */
      actions: Record<string, number>;
      actionMs: Record<string, number>;
      failed: number;
      failures: string[];
      /** Refused trades by `kind:code` (the services would have refused them too). */
      refusedBy: Record<string, number>;
      points: { perps: number; markets: number; navs: number };
      events: number;
      /** The NPCs' posts about their past trades. */
      posts: number;
      /** Their plain posts, replies and the posts' tags (chatter.ts). */
      chatter: { posts: number; replies: number; tags: number };
    };

/**
 * Whether the clock is pinned (tests): a pinned clock reads the same time twice across a pause,
 * wall time does not. lib/clock does not say, and the backfill must give back what it found.
 */
const isClockPinned = async () => {
  const a = now().getTime();
  await new Promise((r) => setTimeout(r, 3));
  return now().getTime() === a;
};

const loadWorld = async (db: Db): Promise<TBackfillWorld & { usernames: Map<string, string> }> => {
  const orgs = await db.select().from(organizations).orderBy(organizations.ticker);
  const npcs = await db
    .select({ id: users.id, username: users.username, name: users.displayName, organizationId: actors.organizationId, cash: users.virtualBalance })
    .from(actors)
    .innerJoin(users, eq(users.id, actors.userId))
    .orderBy(users.id);
  // The seed's open questions with their rules (SOLR's is a price rule; the others have none).
  const open = rowsOf<TRuleColumns & { id: string; yes_shares: string; no_shares: string; resolution_date: string | Date }>(
    await db.execute(sql`
      select m.id, m.yes_shares::text as yes_shares, m.no_shares::text as no_shares, m.resolution_date,
        r.kind, r.organization_id, r.ticker, r.actor_id, r.event_kind, r.comparison, r.threshold::text as threshold
      from ${markets} m left join ${questionRules} r on r.market_id = m.id
      where m.status = 'active'
      order by m.id`),
  ).map((m) => ({ id: m.id, yesShares: m.yes_shares, noShares: m.no_shares, resolutionDate: new Date(m.resolution_date), rule: toRule(m) }));
  const poolRows = await db
    .select({ id: pools.id, accountUserId: pools.accountUserId, cash: users.virtualBalance })
    .from(pools)
    .innerJoin(users, eq(users.id, pools.accountUserId))
    .where(eq(pools.isActive, true))
    .orderBy(pools.id);
  return {
    usernames: new Map(npcs.map((a) => [a.id, a.username])),
    orgs: orgs.map((o) => ({ id: o.id, name: o.name, ticker: o.ticker, price: Number(o.currentPrice), volatility: Number(o.volatility) })),
    actors: npcs.map((a) => ({ id: a.id, name: a.name ?? a.id, organizationId: a.organizationId, cash: Number(a.cash) })),
    markets: open,
    pools: poolRows.map((p) => ({ id: p.id, accountUserId: p.accountUserId, cash: Number(p.cash) })),
  };
};

const insertChunks = async <T>(rows: readonly T[], insert: (chunk: T[]) => Promise<unknown>) => {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
};

/** The seed's rows exist from the window's start: the past's trades never precede them. */
const moveSeedBack = async (db: Db, world: TBackfillWorld, start: Date) => {
  const marketIds = world.markets.map((m) => m.id);
  const userIds = [...world.actors.map((a) => a.id), ...world.pools.map((p) => p.accountUserId)];
  await db.transaction(async (tx) => {
    if (marketIds.length) {
      await tx.update(markets).set({ createdAt: start }).where(and(inArray(markets.id, marketIds), gt(markets.createdAt, start)));
      await tx
        .update(marketPricePoints)
        .set({ createdAt: start })
        .where(and(inArray(marketPricePoints.marketId, marketIds), eq(marketPricePoints.source, 'create'), gt(marketPricePoints.createdAt, start)));
    }
    await tx.update(organizations).set({ createdAt: start }).where(gt(organizations.createdAt, start));
    await tx.update(perpMarkets).set({ createdAt: start }).where(gt(perpMarkets.createdAt, start));
    await tx.update(pools).set({ createdAt: start }).where(gt(pools.createdAt, start));
    // The manager's seed lot and the pool's first NAV point open the pool's chart.
    await tx.update(poolDeposits).set({ createdAt: start }).where(and(eq(poolDeposits.isSeed, true), gt(poolDeposits.createdAt, start)));
    await tx.update(poolNavPoints).set({ createdAt: start }).where(and(eq(poolNavPoints.source, 'seed'), gt(poolNavPoints.createdAt, start)));
    if (userIds.length) {
      await tx.update(users).set({ createdAt: start }).where(and(inArray(users.id, userIds), gt(users.createdAt, start)));
      await tx.update(actors).set({ createdAt: start }).where(and(inArray(actors.userId, userIds), gt(actors.createdAt, start)));
      await tx
        .update(balanceTransactions)
        .set({ createdAt: start })
        .where(and(inArray(balanceTransactions.userId, userIds), gt(balanceTransactions.createdAt, start)));
    }
  });
};

/**
 * Carries the actions out in time order. Questions are asked and resolved through the services
 * (lib/markets create and resolve, with the clock pinned to the action's time); the trades between
 * two of those are one segment, written set-based in one transaction by lib/markets/history.ts and
 * lib/perps/history.ts (the rows buy, sell, open and close would write, without the broadcast),
 * their ledger changes chained in time order by one LedgerBatch. A refused trade is counted and
 * skipped, as the services would refuse it.
 */
const runActions = async (db: Db, history: THistory) => {
  const marketIds = new Map<string, string>();
  const positionIds = new Map<string, string>();
  const marketOf = (ref: string) => marketIds.get(ref) ?? ref;
  const counts: Record<string, number> = {};
  const ms: Record<string, number> = {};
  const failures: string[] = [];
  /** Refusals by `kind:code`. */
  const refusedBy: Record<string, number> = {};
  let failed = 0;
  const count = (kind: string, ok: boolean, elapsed: number, why?: string) => {
    ms[kind] = (ms[kind] ?? 0) + elapsed;
    if (ok) counts[kind] = (counts[kind] ?? 0) + 1;
    else {
      failed++;
      if (failures.length < 5 && why) failures.push(why);
    }
  };
  let segment: TBackfillAction[] = [];
  const flush = async () => {
    if (!segment.length) return;
    const actions = segment;
    segment = [];
    const t0 = performance.now();
    const predictions: TPredictionHistoryTrade[] = [];
    const predictionActions: TBackfillAction[] = [];
    const perps: TPerpHistoryTrade[] = [];
    const perpActions: TBackfillAction[] = [];
    for (const a of actions) {
      if (a.kind === 'buy') predictions.push({ action: 'buy', userId: a.userId, marketId: marketOf(a.market), outcome: a.outcome, amount: a.amount, at: a.at });
      else if (a.kind === 'sell') predictions.push({ action: 'sell', userId: a.userId, marketId: marketOf(a.market), outcome: a.outcome, shares: a.shares, at: a.at });
      else if (a.kind === 'open') perps.push({ action: 'open', key: a.key, userId: a.trader.userId, ticker: a.ticker, side: a.side, size: a.size, leverage: Number(a.leverage), mark: a.mark, at: a.at });
      else if (a.kind === 'close') perps.push({ action: 'close', key: a.key, userId: a.trader.userId, ticker: a.ticker, mark: a.mark, at: a.at });
      else continue;
      (a.kind === 'buy' || a.kind === 'sell' ? predictionActions : perpActions).push(a);
    }
    const refused = await db.transaction(async (tx) => {
      // Lock order as the services keep it: the markets and tickers first, then the balances.
      const marketList = [...new Set(predictions.map((p) => p.marketId))].sort();
      const tickerList = [...new Set(perps.map((p) => p.ticker))].sort();
      if (marketList.length) await tx.select({ id: markets.id }).from(markets).where(inArray(markets.id, marketList)).orderBy(markets.id).for('update');
      if (tickerList.length) await tx.select({ ticker: perpMarkets.ticker }).from(perpMarkets).where(inArray(perpMarkets.ticker, tickerList)).orderBy(perpMarkets.ticker).for('update');
      const ledger = await LedgerBatch.open(tx, [...predictions.map((p) => p.userId), ...perps.map((p) => p.userId)]);
      const predictionWriter = await preparePredictionHistory(tx, predictions, { ledger });
      const perpWriter = await preparePerpHistory(tx, perps, positionIds, { ledger });
      // One time order for both: each trade sees the balance the ones before it left.
      let pi = 0;
      let fi = 0;
      for (const a of actions) {
        if (a.kind === 'buy' || a.kind === 'sell') predictionWriter.step(pi++);
        else if (a.kind === 'open' || a.kind === 'close') perpWriter.step(fi++);
      }
      const p = await predictionWriter.finish();
      const f = await perpWriter.finish();
      for (const [k, id] of f.positionIds) positionIds.set(k, id);
      await ledger.apply(tx);
      return [...p.refused.map((r) => ({ a: predictionActions[r.index]!, code: r.code })), ...f.refused.map((r) => ({ a: perpActions[r.index]!, code: r.code }))];
    });
    // A segment's time is shared among its trades.
    const no = new Set(refused.map((r) => r.a));
    const each = (performance.now() - t0) / actions.length;
    for (const a of actions) count(a.kind, !no.has(a), each);
    for (const r of refused) {
      refusedBy[`${r.a.kind}:${r.code}`] = (refusedBy[`${r.a.kind}:${r.code}`] ?? 0) + 1;
      if (failures.length < 5) failures.push(`${r.a.kind} at ${r.a.at.toISOString()}: ${r.code}`);
    }
  };
  for (const a of history.actions) {
    if (a.kind !== 'create' && a.kind !== 'resolve') {
      segment.push(a);
      continue;
    }
    await flush();
    setFixedTime(a.at);
    const t0 = performance.now();
    try {
      if (a.kind === 'create') {
        // The question and its rule commit together, as the tick's question step does.
        await db.transaction(async (tx) => {
          marketIds.set(
            a.key,
            await createRuledQuestion(tx, { text: a.text, resolutionDate: a.resolutionDate, rule: a.rule, liquidity: BACKFILL_QUESTION_LIQUIDITY, at: a.at, odds: a.odds }),
          );
        });
      } else await resolveMarket({ marketId: marketOf(a.market), outcome: a.outcome });
      count(a.kind, true, performance.now() - t0);
    } catch (e) {
      if (!isAppError(e)) throw e;
      count(a.kind, false, performance.now() - t0, `${a.kind} at ${a.at.toISOString()}: ${e.code}`);
    }
  }
  await flush();
  for (const k of Object.keys(ms)) ms[k] = Math.round(ms[k]!);
  return { marketIds, counts, ms, failed, failures, refusedBy };
};

/** Bulk inserts of the points and the news, with the questions' real ids and numbers. */
const writePoints = async (db: Db, history: THistory, marketIds: Map<string, string>) => {
  const idOf = (ref: string) => marketIds.get(ref) ?? ref;
  await insertChunks(history.perpPoints, (c) =>
    db.insert(perpPricePoints).values(c.map((p) => ({ ticker: p.ticker, markPrice: p.mark.toFixed(4), indexPrice: p.index.toFixed(4), source: 'tick' as const, createdAt: p.at }))),
  );
  await insertChunks(history.marketPoints, (c) =>
    db.insert(marketPricePoints).values(c.map((p) => ({ marketId: idOf(p.market), yesPrice: p.yesPrice, yesShares: p.yesShares, noShares: p.noShares, source: 'tick' as const, createdAt: p.at }))),
  );
  const shares = new Map((await db.select({ id: pools.id, totalShares: pools.totalShares }).from(pools)).map((p) => [p.id, p.totalShares]));
  await insertChunks(history.navPoints, (c) =>
    db.insert(poolNavPoints).values(
      c.map((p) => {
        const totalShares = shares.get(p.poolId) ?? '0';
        return {
          poolId: p.poolId,
          totalValue: p.nav,
          totalShares,
          sharePrice: toDecimalString(sharePriceOf({ nav: p.nav, totalShares }).toDecimalPlaces(SHARE_SCALE, 1)),
          source: 'tick' as const,
          createdAt: p.at,
        };
      }),
    ),
  );
  const ids = [...marketIds.values()];
  const numbers = new Map(
    ids.length ? (await db.select({ id: markets.id, n: markets.questionNumber }).from(markets).where(inArray(markets.id, ids))).map((m) => [m.id, m.n]) : [],
  );
  await insertChunks(history.events, (c) =>
    insertWorldEvents(
      db,
      c.map((e) => ({
        id: e.id,
        kind: e.kind,
        title: e.title,
        content: e.content,
        organizationId: e.organizationId,
        actorId: e.actorId,
        impact: e.impact,
        relatedQuestions: e.related.map((r) => numbers.get(idOf(r))).filter((n): n is number => typeof n === 'number'),
        createdAt: e.at,
      })),
    ),
  );
};

/**
 * The NPCs' posts about their past trades, as the live tick writes them (lib/game/npc: a trade is
 * announced in a post written after it, linked by `trade_kind`/`trade_id`, with chance
 * TRADE_POST_CHANCE, within the minute's post budget; a pool's trades by its manager with chance
 * POST_CHANCE): at most one announcement a minute, a minute after its trade, chosen by a hash of
 * the trade's time (deterministic). Bulk inserts; the words are lib/posts/text's `describeTrade`,
 * plus the question for a prediction.
 */
const writeTradePosts = async (db: Db, history: THistory, seed: string) => {
  const window = sql`${history.start.toISOString()}::timestamptz and ${history.end.toISOString()}::timestamptz`;
  // The author: the NPC itself, or the manager of the pool whose account traded.
  const author = (col: SQL) => sql`coalesce((select npc_actor_id from ${pools} where account_user_id = ${col}), ${col})`;
  const traders = (col: SQL) => sql`(${col} in (select user_id from ${actors}) or ${col} in (select account_user_id from ${pools}))`;
  const isPool = (col: SQL) => sql`${col} in (select account_user_id from ${pools})`;
  const prediction = rowsOf<{ id: string; author_id: string; pool: boolean; market_id: string; text: string; side: string; action: string; price: string; amount: string; shares: string; created_at: string | Date }>(
    await db.execute(sql`
      select t.id, ${author(sql`t.user_id`)} as author_id, ${isPool(sql`t.user_id`)} as pool, t.market_id, m.text, t.side, t.action,
        t.price::text, t.amount::text, t.shares::text, t.created_at
      from ${trades} t join ${markets} m on m.id = t.market_id
      where t.created_at between ${window} and ${traders(sql`t.user_id`)}
      order by t.created_at, t.user_id, t.id`),
  );
  const perp = rowsOf<{ id: string; author_id: string; pool: boolean; ticker: string; side: string; action: string; price: string; size: string; leverage: string; created_at: string | Date }>(
    await db.execute(sql`
      select x.id, ${author(sql`x.user_id`)} as author_id, ${isPool(sql`x.user_id`)} as pool, x.ticker, x.side, x.action, x.price::text, x.size::text,
        p.leverage::text, x.created_at
      from ${perpTrades} x join ${perpPositions} p on p.id = x.position_id
      where x.created_at between ${window} and x.action in ('open', 'close') and ${traders(sql`x.user_id`)}
      order by x.created_at, x.user_id, x.id`),
  );
  const rng = createRng(`${seed}:backfill:trade-posts`);
  const chance = (pool: boolean, kind: 'prediction' | 'perp') => (pool ? POOL_POST_CHANCE : TRADE_POST_CHANCE[kind]);
  const at = (t: string | Date) => new Date(Math.min(new Date(t).getTime() + 60_000, history.end.getTime() - 1));
  const fit = (s: string) => (visibleLength(s) <= POST_MAX_CHARS ? s : `${[...s].slice(0, POST_MAX_CHARS - 1).join('')}…`);
  const candidates = [
    ...prediction.map((t) => ({
      time: new Date(t.created_at).getTime(),
      pool: t.pool,
      row: () => ({
        authorId: t.author_id,
        content: fit(
          `${describeTrade({ kind: 'prediction', side: t.side, action: t.action, ticker: null, marketId: t.market_id, price: Number(t.price), amount: Number(t.amount), shares: Number(t.shares), leverage: null })}: ${t.text}`,
        ),
        relatedQuestionId: t.market_id,
        tradeKind: 'prediction' as const,
        tradeId: t.id,
        createdAt: at(t.created_at),
        updatedAt: at(t.created_at),
      }),
      kind: 'prediction' as const,
    })),
    ...perp.map((t) => ({
      time: new Date(t.created_at).getTime(),
      pool: t.pool,
      row: () => ({
        authorId: t.author_id,
        content: fit(describeTrade({ kind: 'perp', side: t.side, action: t.action, ticker: t.ticker, marketId: null, price: Number(t.price), amount: Number(t.size), shares: null, leverage: Number(t.leverage) })),
        relatedQuestionId: null,
        tradeKind: 'perp' as const,
        tradeId: t.id,
        createdAt: at(t.created_at),
        updatedAt: at(t.created_at),
      }),
      kind: 'perp' as const,
    })),
  ].sort((a, b) => a.time - b.time);
  // At most one announcement a minute (the live budget's room beside the minute's plain post).
  const rows: ReturnType<(typeof candidates)[number]['row']>[] = [];
  let lastMinute = -1;
  for (const c of candidates) {
    const minute = Math.floor(c.time / 60_000);
    if (minute === lastMinute || !rng.chance(chance(c.pool, c.kind))) continue;
    lastMinute = minute;
    rows.push(c.row());
  }
  // One array per column (lib/db unnestSql): tens of thousands of rows, a few parameters each statement.
  for (let i = 0; i < rows.length; i += 5000) {
    const c = rows.slice(i, i + 5000);
    const v = unnestSql('v', {
      author_id: c.map((r) => r.authorId),
      content: c.map((r) => r.content),
      related_question_id: c.map((r) => r.relatedQuestionId),
      trade_kind: c.map((r) => r.tradeKind),
      trade_id: c.map((r) => r.tradeId),
      at: c.map((r) => r.createdAt.toISOString()),
    });
    await db.execute(sql`
      insert into ${posts} (id, author_id, type, content, related_question_id, trade_kind, trade_id, created_at, updated_at)
      select gen_random_uuid()::text, v.author_id, 'post', v.content, v.related_question_id, v.trade_kind, v.trade_id, v.at::timestamptz, v.at::timestamptz
      from ${v}`);
  }
  return rows.length;
};

/** Today's prices where the walk ended, the sweep, and each pool's NAV as of `end`. */
const settlePresent = async (db: Db, history: THistory) => {
  const { end } = history;
  await db.transaction(async (tx) => {
    for (const o of history.final) {
      await tx.update(organizations).set({ fairValue: o.fair.toFixed(4), currentPrice: o.fair.toFixed(4) }).where(eq(organizations.id, o.id));
      await tx.update(perpMarkets).set({ markPrice: o.mark.toFixed(4), updatedAt: end }).where(eq(perpMarkets.ticker, o.ticker));
    }
  });
  await liquidateTicker();
  await db.transaction(async (tx) => {
    const rows = await tx.select().from(pools).where(eq(pools.isActive, true)).orderBy(pools.id).for('update');
    const holdings = await loadHoldings(
      tx,
      rows.map((p) => p.accountUserId),
    );
    await recordNav(
      tx,
      rows.map((p) => ({ poolId: p.id, nav: holdings.get(p.accountUserId)?.nav ?? dec(0), totalShares: dec(p.totalShares) })),
      'tick',
      end,
    );
  });
};

/**
 * Backfills `days` of history ending now (game time), once per world. Call after seedWorld.
 * `stepMinutes` is the generator's step (an hour by default).
 */
export async function backfillHistory(db: Db, opts: { days?: number; stepMinutes?: number } = {}): Promise<TBackfillResult> {
  const days = opts.days ?? 30;
  const stepMinutes = opts.stepMinutes ?? 60;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const end = now();
  // Claim the backfill before writing anything: a concurrent or later call finds the row.
  const claimed = await db.insert(gameClock).values({ id: BACKFILL_CLOCK_ID, lastTickAt: end }).onConflictDoNothing().returning({ id: gameClock.id });
  if (!claimed.length) return { skipped: true, reason: 'done' };
  const [main] = await db.select({ ticks: gameClock.tickCount }).from(gameClock).where(eq(gameClock.id, CLOCK_ID));
  if (main && main.ticks > 0) return { skipped: true, reason: 'old-world' };

  const world = await loadWorld(db);
  const history = generateHistory({ seed: env().gameSeed, end, days, stepMinutes, world });
  const pinned = await isClockPinned();
  let written: Awaited<ReturnType<typeof runActions>>;
  try {
    await moveSeedBack(db, world, history.start);
    written = await runActions(db, history);
  } finally {
    setFixedTime(pinned ? end : undefined);
  }
  await writePoints(db, history, written.marketIds);
  const postCount = await writeTradePosts(db, history, env().gameSeed);
  // The NPCs' plain posts and replies of every minute, at the live plan's counts.
  const chatter = await writeChatter(db, generateChatter({ seed: env().gameSeed, history, ...(await loadChatterWorld(db)) }), written.marketIds);
  await settlePresent(db, history);
  // The storylines' past: every beat due by now (dated at its time), then the stories of resolved questions.
  await publishDueBeats(db, end);
  await publishResolved(db, end);
  const result: TBackfillResult = {
    skipped: false,
    ms: Math.round(performance.now() - started),
    cpuMs: Math.round((process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000),
    start: history.start.toISOString(),
    end: end.toISOString(),
    actions: written.counts,
    actionMs: written.ms,
    failed: written.failed,
    failures: written.failures,
    refusedBy: written.refusedBy,
    points: { perps: history.perpPoints.length, markets: history.marketPoints.length, navs: history.navPoints.length },
    events: history.events.length,
    posts: postCount,
    chatter,
  };
  await db
    .update(gameClock)
    .set({ tickCount: history.steps, lastRunAt: sql`now()`, lastTickMs: result.ms, lastSummary: result })
    .where(eq(gameClock.id, BACKFILL_CLOCK_ID));
  return result;
}
