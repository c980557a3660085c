/**
 * The per-minute game tick: the living world's heartbeat. One tick at a time (an in-process flag,
 * and on PostgreSQL an advisory lock held for the whole tick, so several instances never tick
 * together); a concurrent call answers `skipped`. A paused game answers `paused` and does nothing.
 *
 * As of game time (lib/game/README.md; README "Environment": under ALLOW_TEST_CLOCK=1 a tick may run as of a later
 * time; game time never moves backwards, also across restarts), in order:
 *   funding for every period due → news (world events, breaking news, biases) → prices (fair
 *   values, marks, liquidations, bias and news trades) → price points → NPC activity (posts, trades,
 *   perps) → pool managers trade, arbitrage brings every mark back within ARBITRAGE_BAND of its
 *   index, and each pool's NAV is recorded → alerts (price moves in held markets, liquidation
 *   warnings: lib/notifications/trading.ts; in the first game hour of a UTC day, yesterday's daily
 *   digests: lib/notifications/digest.ts) → questions (event questions an earlier tick's news
 *   fulfilled resolve YES, due ones from the world; top up to 10–20, each with its storyline) →
 *   storylines (due beats: posts, news, calls, shocks; resolved questions' stories published) → the self-dealing detector
 *   (hourly; files system reports, lib/admin/detector) → on-chain identities → standings (the
 *   leaderboard read model and reputation, for the accounts that changed) → leagues (the daily
 *   close, season ends, seating) → publish (prune the event log) → prune what is kept only for a
 *   while (idempotency keys, A2A tasks, unpaid payment requests) → API keys whose heartbeat stopped
 *   → temporary bans whose end came (lib/admin) → A2A pushes due.
 * Deterministic for a given GAME_SEED and game time: one rng seeded by both, forked per step.
 * Each step gets a time budget (ctx.deadline) and reports counts; the whole tick stays well
 * inside the scheduler's 60 s. `timings` is each step's milliseconds; the rows the steps read or
 * wrote are TTickCosts (game_clock.last_summary.costs, lastTickCosts()).
 */
import { deleteExpiredKeys } from '@/lib/idempotency/service';
import { deleteOldTasks } from '@/lib/a2a/retention';
import { deleteExpiredPaymentRequests } from '@/lib/payments/retention';
import { pruneVolumeHours } from '@/lib/markets/volume';
import { prunePerpVolumeHours } from '@/lib/perps/volume';
import { deleteExpiredSessions } from '@/lib/auth/sessions';
import { eq, sql } from 'drizzle-orm';
import { dbKind, getDb, rowsOf } from '@/db/client';
import { gameClock } from '@/db/schema';
import { advanceTo, now } from '@/lib/clock/clock';
import { env } from '@/lib/env';
import { recordMarketTickPoints } from '@/lib/markets/service/price-points';
import { payDueFunding } from '@/lib/perps/service/funding';
import { recordPerpTickPoints } from '@/lib/perps/service/marks';
import { pruneEventLog } from '@/lib/realtime';
import { runNpcActivity } from './npc';
import { createRng } from './rng';
import { runAlertsStep } from './steps/alerts';
import { runNewsStep } from './steps/news';
import { runPoolStep } from './steps/pools';
import { runPriceStep } from './steps/prices';
import { createQuestions, resolveDueQuestions } from './steps/questions';
import { runGroupStep } from './steps/groups';
import { runSelfDealingStep } from './steps/self-dealing';
import { publishDueBeats, publishResolved } from './storylines/service';
import { processPendingRegistrations } from '@/lib/identity/service/registration';
import { runLeagueStep } from '@/lib/leagues/service/seasons';
import { refreshAllStandings } from '@/lib/standings/refresh';
import { expirePredictionOrders } from '@/lib/markets/orders/close-orders';
import { sweepStoppedHeartbeats } from '@/lib/api-keys/service';
import { liftExpiredBans } from '@/lib/admin/service/ban-user';
import { writeDailyDigests } from '@/lib/notifications/digest';
import { deliverPendingPushes } from '@/lib/a2a/push/deliver';
import type { TTickContext } from './types';

export const CLOCK_ID = 'main';
/** The advisory lock key of the tick (any constant distinct from the migration lock's). */
const TICK_LOCK_KEY = 7412002;
/** The whole tick's budget: the scheduler allows 60 s; leave room for the answer. */
const TICK_BUDGET_MS = 40_000;
/** Each step's own budget (ms); a step past it stops early and the next tick continues. */
const STEP_BUDGET_MS = { news: 5_000, prices: 8_000, npc: 10_000, pools: 6_000, resolve: 8_000, create: 5_000, storylines: 3_000, groups: 3_000, selfDealing: 3_000, identity: 5_000, standings: 3_000, leagues: 5_000 } as const;

const RUNNING = Symbol.for('playmoney.gameTickRunning');
const LAST_COSTS = Symbol.for('playmoney.gameTickCosts');
type TGlobal = typeof globalThis & { [RUNNING]?: boolean; [LAST_COSTS]?: TTickCosts };

/**
 * The rows each step that once scanned every player or position read or wrote in a tick, so that
 * a reader sees the cost follow what changed (migration 0028): funding (tickers paid, entries
 * moved, notice candidates), alerts (positions whose trigger the move crossed), selfDealing (new
 * trades and what they touch, when it ran), standings (accounts refreshed), leagues (accounts
 * closed or seated). Kept with the tick's summary in game_clock.last_summary (`costs`) and by
 * lastTickCosts(), and in the tick's answer (`costs`).
 */
export type TTickCosts = { funding: number; alerts: number; selfDealing: number; standings: number; leagues: number };

/** The costs of the last tick this process ran (undefined before one). */
export function lastTickCosts(): TTickCosts | undefined {
  return (globalThis as TGlobal)[LAST_COSTS];
}

/**
 * Runs fn unless a tick is already running (then undefined). In-process: a flag on globalThis
 * (Next bundles routes separately). Across instances on PostgreSQL: pg_try_advisory_xact_lock in
 * a transaction that stays open for the tick (read-only, so it takes no transaction id and holds
 * back nothing); the steps run on other pool connections, so the pool needs at least two. PGlite
 * is one process per DATA_DIR (db/client.ts refuses a second), so the flag is the whole lock
 * there, and a transaction held open would block its single connection.
 */
const withTickLock = async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
  const g = globalThis as TGlobal;
  if (g[RUNNING]) return undefined;
  g[RUNNING] = true;
  try {
    const db = await getDb();
    // With a one-connection pool the lock's open transaction would starve the steps: the
    // in-process flag alone must do (one instance).
    if (dbKind() === 'pglite' || env().dbPoolMax < 2) return await fn();
    let out: T | undefined;
    await db.transaction(async (tx) => {
      // Keyed by the schema too: advisory locks are per database, and two worlds in two schemas of
      // one database (the integration files on one PostgreSQL) are not one world.
      const [r] = rowsOf<{ ok: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${TICK_LOCK_KEY}, hashtext(current_schema())) as ok`));
      if (r?.ok) out = await fn();
    });
    return out;
  } finally {
    g[RUNNING] = false;
  }
};

/** Restores game time persisted by earlier ticks, then moves it to `requested` when allowed. */
const targetGameTime = (saved: Date | undefined, requested?: string) => {
  const restored = saved ? advanceTo(saved) : now();
  return requested && env().allowTestClock ? advanceTo(new Date(requested)) : restored;
};

const MINUTE_MS = 60_000;
/**
 * Once per game minute, however many instances the scheduler (or their own timers) call: a tick
 * whose time falls in the minute of the last tick is skipped. The advisory lock only keeps ticks
 * from overlapping; this keeps a second instance from ticking again once the first has finished.
 */
export function alreadyTickedThisMinute(lastTickAt: Date | undefined, ticks: number, at: Date) {
  return !!lastTickAt && ticks > 0 && Math.floor(at.getTime() / MINUTE_MS) <= Math.floor(lastTickAt.getTime() / MINUTE_MS);
}

/** Persists game time (never backwards). */
const saveGameTime = async (at: Date) => {
  const db = await getDb();
  await db
    .insert(gameClock)
    .values({ id: CLOCK_ID, lastTickAt: at })
    .onConflictDoUpdate({ target: gameClock.id, set: { lastTickAt: sql`greatest(${gameClock.lastTickAt}, excluded.last_tick_at)` } });
  return at;
};

/** One price point per ticker and per active question, as of `at` (charts move even without trades), each by its product. */
const recordTickPricePoints = async (at: Date) => {
  const db = await getDb();
  const perps = await recordPerpTickPoints(db, at);
  const questions = await recordMarketTickPoints(db, at);
  return { perps, questions };
};

/** Keeps 24 h of the realtime event log (reconnecting clients replay from it). */
const EVENT_LOG_KEEP_MS = 86_400_000;

export async function readGameClock() {
  const db = await getDb();
  const [row] = await db.select().from(gameClock).where(eq(gameClock.id, CLOCK_ID));
  return row;
}

export type TTickResult = Awaited<ReturnType<typeof runSteps>> | { skipped: true } | { skipped: false; paused: true; gameTime: string };

const runSteps = async (requested: string | undefined) => {
  const started = performance.now();
  const tickDeadline = started + TICK_BUDGET_MS;
  const saved = await readGameClock();
  if (saved?.paused) return { skipped: false as const, paused: true as const, gameTime: saved.lastTickAt.toISOString() };

  const at = targetGameTime(saved?.lastTickAt, requested);
  if (alreadyTickedThisMinute(saved?.lastTickAt, saved?.tickCount ?? 0, at)) return { skipped: true as const };
  await saveGameTime(at);
  const minutes = saved?.lastTickAt && saved.tickCount > 0 ? Math.max(1, Math.floor((at.getTime() - saved.lastTickAt.getTime()) / MINUTE_MS)) : 1;
  const ctx: TTickContext = { at, rng: createRng(`${env().gameSeed}:${at.toISOString()}`), deadline: tickDeadline, newEvents: [], minutes };
  const budget = (ms: number) => {
    ctx.deadline = Math.min(tickDeadline, performance.now() + ms);
    return ctx;
  };
  const timings: Record<string, number> = {};
  const errors: Record<string, string> = {};
  /**
   * Runs a step, timing it. A failing step is logged and reported under `errors` with `fallback`
   * as its result, and the tick goes on: every step commits its own transactions, so a broken NPC
   * step must not stop questions from resolving (the world keeps living; the next tick retries).
   */
  const step = async <T>(name: string, fn: () => Promise<T>, fallback: T): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } catch (e) {
      console.error(`[game] tick step ${name} failed:`, e);
      errors[name] = e instanceof Error ? e.message : String(e);
      return fallback;
    } finally {
      timings[name] = Math.round(performance.now() - t0);
    }
  };

  const funding = await step('funding', () => payDueFunding(at), { periods: 0, tickers: 0, entriesMoved: 0, noticeCandidates: 0 });
  // GTD limit orders past their expiry are refunded (they never fill after it: the matcher skips them).
  const orders = await step('orders', () => expirePredictionOrders({ limit: 200 }), { expired: 0 });
  const news = await step('news', () => runNewsStep(budget(STEP_BUDGET_MS.news)), { events: 0, biases: 0 });
  const prices = await step('prices', () => runPriceStep(budget(STEP_BUDGET_MS.prices)), { organizations: 0, liquidations: 0, biasesExpired: 0, biasTrades: 0 });
  const pricePoints = await step('pricePoints', () => recordTickPricePoints(at), { perps: 0, questions: 0 });
  const npc = await step('npc', () => runNpcActivity(budget(STEP_BUDGET_MS.npc)), { posts: 0, replies: 0, likes: 0, shares: 0, trades: 0 });
  const poolStep = await step('pools', () => runPoolStep(budget(STEP_BUDGET_MS.pools)), { pools: 0, trades: 0, posts: 0, navPoints: 0 });
  const alerts = await step('alerts', () => runAlertsStep(ctx), { priceMoves: 0, liquidationWarnings: 0, warningsReset: 0, examined: 0 });
  // The daily digest of yesterday's digest-delivered notifications, in the first game hour of a UTC
  // day (each tick of that hour retries; a player gets one a day whatever runs twice).
  const digests = at.getUTCHours() === 0 ? await step('digests', async () => writeDailyDigests(await getDb(), at), 0) : 0;
  const resolutions = await step('resolve', () => resolveDueQuestions(budget(STEP_BUDGET_MS.resolve)), { due: 0, resolved: 0, yes: 0 });
  const questions = await step('create', () => createQuestions(budget(STEP_BUDGET_MS.create)), { active: 0, created: 0 });
  // The storylines' beats whose time came (posts, news, calls, shocks), then the stories of resolved questions.
  const storyStep = await step(
    'storylines',
    async () => {
      const db = await getDb();
      const beats = await publishDueBeats(db, at, { deadline: performance.now() + STEP_BUDGET_MS.storylines });
      const resolved = await publishResolved(db, at);
      return { beats: beats.beats, calls: beats.calls, published: resolved.published };
    },
    { beats: 0, calls: 0, published: 0 },
  );
  const groupStep = await step('groups', () => runGroupStep(budget(STEP_BUDGET_MS.groups)), { messages: 0, invites: 0 });
  const { cost: selfDealingCost = 0, ...selfDealing } = await step('selfDealing', () => runSelfDealingStep(budget(STEP_BUDGET_MS.selfDealing)), {
    ran: false,
    findings: 0,
    filed: 0,
    cost: 0,
  });
  const identity = await step(
    'identity',
    () => processPendingRegistrations({ deadline: performance.now() + STEP_BUDGET_MS.identity }),
    { pending: 0, completed: 0, failed: 0 },
  );
  const standingsStep = await step('standings', () => refreshAllStandings(performance.now() + STEP_BUDGET_MS.standings), { refreshed: 0, reputations: 0, pnl: 0 });
  const { cost: leaguesCost = 0, ...leagues } = await step('leagues', () => runLeagueStep(at), { snapshots: 0, seasonsClosed: 0, seated: 0, season: '', cost: 0 });
  // The log's created_at is the database's wall clock, not game time (a test clock may run days
  // ahead): prune by wall time, or a jump in game time would empty the replay log.
  const pruned = await step('prune', () => pruneEventLog(new Date(Date.now() - EVENT_LOG_KEEP_MS)), 0);
  // Stored answers of idempotent requests are replayed for 24 hours of wall time, then dropped.
  const idempotencyKeys = await step('idempotencyKeys', () => deleteExpiredKeys(new Date()), 0);
  // A2A tasks 24 hours after they were made, unpaid payment requests 24 hours after they expired:
  // both are stamped in game time, so measured from the tick's.
  const a2aTasks = await step('a2aTasks', () => deleteOldTasks(at), 0);
  const paymentRequests = await step('paymentRequests', () => deleteExpiredPaymentRequests(at), 0);
  // Questions' and tickers' hourly volume rows two days old (the 24 h volumes read the last 25 hours).
  const volumeHours = await step('volumeHours', async () => (await pruneVolumeHours(at)) + (await prunePerpVolumeHours(at)), 0);
  // Session rows past their token's expiry (wall time, as tokens expire) are no longer needed.
  await step('authSessions', () => deleteExpiredSessions(new Date()), 0);
  // API keys whose heartbeat stopped (game time past its deadline): the orders they placed are cancelled.
  const heartbeats = await step('heartbeats', () => sweepStoppedHeartbeats({ limit: 200 }), { keys: 0, orders: 0 });
  // Temporary bans whose end has come (game time) are lifted, each with its trail row and notice.
  const bansLifted = await step('bans', async () => liftExpiredBans(await getDb(), at), 0);
  // A2A push notifications due (new, or a retry whose backoff has passed) to agents' webhooks.
  const pushes = await step('pushes', () => deliverPendingPushes({ limit: 50 }), { delivered: 0, retried: 0, failed: 0 });

  const durationMs = Math.round(performance.now() - started);
  const summary = {
    skipped: false as const,
    paused: false as const,
    gameTime: at.toISOString(),
    durationMs,
    funding: { periods: funding.periods, tickers: funding.tickers, entriesMoved: funding.entriesMoved },
    liquidations: prices.liquidations,
    orders,
    heartbeats,
    pushes,
    bansLifted,
    digests,
    pricePoints,
    prices: { organizations: prices.organizations, biasTrades: prices.biasTrades, biasesExpired: prices.biasesExpired },
    events: { created: news.events, biases: news.biases, ids: ctx.newEvents.map((e) => e.id) },
    npc,
    pools: poolStep,
    questions: { resolved: resolutions.resolved, resolvedYes: resolutions.yes, created: questions.created, active: questions.active },
    storylines: storyStep,
    groups: groupStep,
    selfDealing,
    identity,
    standings: standingsStep,
    leagues,
    eventLogPruned: pruned,
    storagePruned: { idempotencyKeys, a2aTasks, paymentRequests, volumeHours },
    timings,
    ...(Object.keys(errors).length ? { errors } : {}),
  };
  const costs: TTickCosts = {
    funding: funding.tickers + funding.entriesMoved + (funding.noticeCandidates ?? 0),
    alerts: alerts.examined ?? 0,
    selfDealing: selfDealingCost,
    standings: standingsStep.refreshed + standingsStep.reputations + standingsStep.pnl,
    leagues: leaguesCost,
  };
  const db = await getDb();
  await db
    .update(gameClock)
    .set({ tickCount: sql`${gameClock.tickCount} + 1`, lastRunAt: new Date(), lastTickMs: durationMs, lastSummary: { ...summary, costs } })
    .where(eq(gameClock.id, CLOCK_ID));
  (globalThis as TGlobal)[LAST_COSTS] = costs;
  return { ...summary, costs };
};

/** One game tick (the scheduler's, the in-process timer's, or a test's with `now`). */
export async function runGameTick(opts: { now?: string }): Promise<TTickResult> {
  const result = await withTickLock(() => runSteps(opts.now));
  return result ?? { skipped: true };
}
