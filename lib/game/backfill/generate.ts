/**
 * The world's past, generated (pure: no I/O, no clock, no Math.random). From the seeded world and
 * an rng seeded by GAME_SEED and a backfill label, walks game time from `end − days` to `end` in
 * coarse steps (an hour by default) with the world's own rules, and returns what happened:
 *
 *   news        planEventCount / planWorldEvent (world-rules.ts), their impact on fair value, and
 *               relatedQuestions: the bias an event puts on a question becomes an NPC buy of the
 *               favoured side (biasTradeAmount, as the tick's price step does);
 *   prices      stepFairValue / driftMark (prices.ts) with the per-minute volatility scaled to the
 *               step (σ·√minutes) and the news's impact, pulled toward the seeded price
 *               (REVERSION_PER_HOUR) so the walk lands on today's price at `end`: the past
 *               leads into the present;
 *   questions   kept at MIN_ACTIVE_QUESTIONS with questionsToCreate / planQuestion, each born with
 *               its odds and draw (planOutcome, outcomes.ts) as the tick's are; an event question
 *               drawn YES gets its fulfilling news at its drawn moment (planFulfillingEvent), no
 *               other news fulfils an open drawn question (planWorldEvent's reserved rules), and
 *               resolveOutcome settles each: a price rule from the walk's price, an event rule by
 *               its draw (YES as soon as its news happened);
 *   trades      NPC prediction buys toward what the world implies (a price question's chance from
 *               the walk, priceProbability; an event question's from its odds and how much of its
 *               window passed quietly, eventValueAfterQuiet; never its draw), sells of positions
 *               against it, NPC and pool perp opens and closes (a holding time or a stop-loss),
 *               every price and share count from the same pure CPMM and perps math the services run;
 *   points      a mark and index point per ticker and a price point per active market at every
 *               step, and each pool's NAV (cash + each perp's equity at the mark).
 *
 * Invariants (generate.test.ts, fast-check): the same input gives the same history; every time is
 * strictly inside (start, end) and each series strictly increases; prediction prices stay in (0, 1)
 * and perp prices above 0; a resolved question resolves at or before `end`.
 */
import { dec, toDecimalString, type TDecimal } from '@/lib/money/decimal';
import { buyAmountToPrice, createPool as newCpmmPool, createPoolAt, prices as cpmmPrices, quoteBuy, quoteSell, toPool, toPublic, type TOutcome, type TPool } from '@/lib/markets/cpmm';
import { DEFAULT_DEPTH, markToMarket, quoteClose, quoteOpen, type TPerpSide } from '@/lib/perps/math';
import { navOf } from '@/lib/pools/math';
import { GAME_QUESTION_LIQUIDITY } from '../depth';
import { eventValueAfterQuiet, eventWindow, normalCdf, planOutcome, priceProbability, type TQuestionOdds } from '../outcomes';
import { biasTradeAmount, driftMark, MARK_DRIFT, MAX_BIAS_TRADES, MIN_PRICE, NEWS_BIAS_HOURS, stepFairValue } from '../prices';
import { createRng } from '../rng';
import { NPC_MAX_PERPS, PERP_CLOSE_CHANCE, PERP_TRADES_PER_TICK, TRADES_PER_TICK, VALUE_EDGE, VIEW_SPREAD } from '../npc/plan';
import { personalView } from '../npc/value';
import { MAX_OPEN_PERPS, POOL_ACT_CHANCE } from '../pools/plan';
import {
  fulfils,
  MIN_ACTIVE_QUESTIONS,
  planEventCount,
  planFulfillingEvent,
  planQuestion,
  RECENT_QUESTION_DAYS,
  planWorldEvent,
  questionsToCreate,
  relatedQuestions,
  resolveOutcome,
  type TActorState,
  type TEventRule,
  type TOpenQuestion,
  type TQuestionRule,
} from '../world-rules';

// The normal distribution function lives with the odds it serves (outcomes.ts); kept here for callers.
export { normalCdf };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Liquidity of a question the backfill asks: the live world's (../depth.ts, 5,000 a side). Its
 * traders size each buy to the depth as the live NPCs do (toward their view, at most
 * MAX_PRICE_MOVE a trade), so a deep market still moves over its life.
 */
export const BACKFILL_QUESTION_LIQUIDITY = GAME_QUESTION_LIQUIDITY;
/**
 * How busy the past is: as busy as the live world, minute by minute. Each minute of the past draws
 * the live tick's own counts (lib/game/npc/plan.ts TRADES_PER_TICK and PERP_TRADES_PER_TICK, plus
 * MAX_BIAS_TRADES on questions with news in the last NEWS_BIAS_HOURS, lib/game/steps/prices.ts and
 * news.ts; each pool acts with lib/game/steps/pools.ts POOL_ACT_CHANCE), so a retuned live world
 * retunes its past. The writer replays them set-based (lib/markets/history.ts, lib/perps/history.ts):
 * the services' one-trade-at-a-time cost is what made the past sparse before.
 * EARLY_DENSITY scales the draws of days older than FULL_DENSITY_DAYS (1: the same density throughout).
 */
export const FULL_DENSITY_DAYS = 7;
export const EARLY_DENSITY = 1;
/** A pool's manager closes one of its perps rather than opening another with this chance (and always at POOL_MAX_PERPS). */
const POOL_CLOSE_CHANCE = 0.4;
const POOL_MAX_PERPS = MAX_OPEN_PERPS;
/** Trades a manager makes when it looks at its book (measured live: about two and a half). */
export const POOL_TRADES_PER_LOOK = { min: 1, max: 3 } as const;
/** At most this far a trader's buy moves a market (lib/game/npc/plan.ts MAX_PRICE_MOVE, as live). */
const MAX_PRICE_MOVE = 0.03;
/**
 * Share of the gap (in log price) between a fair value and today's price closed per hour. Minute by
 * minute the tick's walk wanders far in 30 days (σ·√43,200 ≈ 1 in log price); the backfill keeps
 * the past around the present (a mean-reverting walk, half-life about 17 hours) and lands
 * on it at `end` (the pull grows to the whole gap over the last steps).
 */
export const REVERSION_PER_HOUR = 0.04;
/** An NPC keeps this much cash: a trade that would go below is not made. */
const CASH_BUFFER = 1000;
/** A perp is closed early when its equity falls to this share of its margin (a stop-loss). */
const STOP_LOSS_EQUITY = 0.5;

export type TBackfillWorld = {
  orgs: readonly { id: string; name: string; ticker: string; price: number; volatility: number }[];
  /** NPC actors who trade (their cash: the balance the seed gave them). */
  actors: readonly (TActorState & { cash: number })[];
  /** Open questions already in the world (the seed's: most without a rule, SOLR's a price rule). */
  markets: readonly { id: string; yesShares: string; noShares: string; resolutionDate: Date; rule?: TQuestionRule | null }[];
  /** Pools: their account (who trades) and its cash. */
  pools: readonly { id: string; accountUserId: string; cash: number }[];
};

export type TBackfillInput = { seed: string; end: Date; days: number; stepMinutes: number; world: TBackfillWorld };

/** A market: a seeded market's id, or the key (`bf-q-<n>`) of a question the backfill created. */
export type TMarketRef = string;

export type TBackfillAction =
  | { kind: 'create'; at: Date; key: string; text: string; resolutionDate: Date; rule: TQuestionRule; odds: TQuestionOdds }
  | { kind: 'resolve'; at: Date; market: TMarketRef; outcome: TOutcome }
  | { kind: 'buy'; at: Date; userId: string; market: TMarketRef; outcome: TOutcome; amount: string }
  | { kind: 'sell'; at: Date; userId: string; market: TMarketRef; outcome: TOutcome; shares: string }
  | { kind: 'open'; at: Date; key: string; trader: TTrader; ticker: string; side: TPerpSide; size: string; leverage: string; mark: string }
  | { kind: 'close'; at: Date; key: string; trader: TTrader; ticker: string; mark: string };

/** Who trades a perp: an NPC with their own balance, or a pool's manager with the pool's account. */
export type TTrader = { userId: string; poolId: string | null };

export type TBackfillEvent = {
  id: string;
  at: Date;
  kind: string;
  title: string;
  content: string;
  organizationId: string;
  actorId: string | null;
  impact: number;
  related: TMarketRef[];
};

export type THistory = {
  start: Date;
  end: Date;
  steps: number;
  actions: TBackfillAction[];
  events: TBackfillEvent[];
  perpPoints: { ticker: string; at: Date; mark: number; index: number }[];
  marketPoints: { market: TMarketRef; at: Date; yesPrice: string; yesShares: string; noShares: string }[];
  navPoints: { poolId: string; at: Date; nav: string }[];
  /** Every question the backfill asked: when, its odds and draw, and how and when it resolved (null: still open at `end`). */
  questions: { key: string; createdAt: Date; resolutionDate: Date; rule: TQuestionRule; odds: TQuestionOdds; outcome: TOutcome | null; resolvedAt: Date | null }[];
  /** Fair value and mark of each organization at `end` (the fair value is the seeded price). */
  final: { id: string; ticker: string; fair: number; mark: number }[];
};

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const money = (x: number) => (Math.floor(x * 100) / 100).toFixed(2);

type TMarketSim = {
  ref: TMarketRef;
  pool: TPool;
  resolutionDate: Date;
  createdAt: Date;
  rule: TQuestionRule | null;
  /** The odds and draw it was born with (null: a seeded question). */
  odds: TQuestionOdds | null;
  /** Where an unruled (seeded) question's traders think it stands: a slow random walk. */
  drift: number;
  /** A fulfilling event has happened (event rules). */
  fulfilled: boolean;
  /** NPC buys waiting from this step's news (bias trades). */
  biasBuys: { outcome: TOutcome; amount: number }[];
  /** Until when its news draws extra traders (NEWS_BIAS_HOURS after the last news on it). */
  newsUntil: number;
  createdThisStep: boolean;
};

type TPerpSim = {
  key: string;
  trader: TTrader;
  ticker: string;
  side: TPerpSide;
  units: TDecimal;
  entryPrice: TDecimal;
  margin: TDecimal;
  openFee: TDecimal;
  liquidationPrice: TDecimal;
  /** The same as numbers, for the stop-loss and liquidation checks (decisions, not money). */
  n: { units: number; entry: number; margin: number; liquidation: number };
};

export function generateHistory(input: TBackfillInput): THistory {
  const { world, stepMinutes } = input;
  const stepMs = stepMinutes * 60_000;
  const end = input.end;
  const start = new Date(end.getTime() - input.days * DAY);
  const steps = Math.floor((end.getTime() - start.getTime()) / stepMs);
  const root = createRng(`${input.seed}:backfill`);
  const orgs = [...world.orgs].sort((a, b) => a.ticker.localeCompare(b.ticker));
  const actors = [...world.actors].sort((a, b) => a.id.localeCompare(b.id));
  const actorStates: TActorState[] = actors.map(({ id, name, organizationId }) => ({ id, name, organizationId }));
  const cash = new Map<string, TDecimal>([...actors.map((a) => [a.id, dec(a.cash)] as const), ...world.pools.map((p) => [p.accountUserId, dec(p.cash)] as const)]);
  const cashOf = (userId: string) => cash.get(userId) ?? dec(0);
  const addCash = (userId: string, d: TDecimal) => cash.set(userId, cashOf(userId).plus(d));
  /** Shares each NPC holds, by market and side. */
  const holdings = new Map<string, TDecimal>();
  const holdKey = (userId: string, ref: TMarketRef, side: TOutcome) => `${userId}|${ref}|${side}`;

  // Prices: σ per minute scaled to the step; the walk starts away from today's price and is
  // pulled onto it by `end`.
  const scale = Math.sqrt(stepMinutes);
  const initRng = root.fork('start');
  const fair = new Map<string, number>();
  const mark = new Map<string, number>();
  const trend = new Map<string, number[]>();
  for (const o of orgs) {
    const spread = o.volatility * scale * Math.sqrt(steps) * 0.5;
    const p0 = Math.max(MIN_PRICE, Math.round(o.price * Math.exp(clamp(spread * initRng.fork(o.ticker).normal(), -0.3, 0.3)) * 10_000) / 10_000);
    fair.set(o.id, p0);
    mark.set(o.ticker, p0);
    trend.set(o.id, [p0]);
  }
  const markRate = 1 - (1 - MARK_DRIFT) ** stepMinutes;

  const markets: TMarketSim[] = world.markets
    .filter((m) => m.resolutionDate.getTime() > end.getTime())
    .map((m) => ({
      ref: m.id,
      pool: toPool({ yesShares: m.yesShares, noShares: m.noShares }),
      resolutionDate: m.resolutionDate,
      createdAt: start,
      rule: m.rule ?? null,
      odds: null,
      drift: cpmmPrices(toPool({ yesShares: m.yesShares, noShares: m.noShares })).yes.toNumber(),
      fulfilled: false,
      biasBuys: [],
      newsUntil: 0,
      createdThisStep: false,
    }));
  let questionCount = 0;
  /** Questions this past asked, oldest first (kept while open or within RECENT_QUESTION_DAYS). */
  const asked: { ref: TMarketRef; at: number; rule: TQuestionRule; text: string }[] = [];
  const questionNumbers = new Map<TMarketRef, number>();
  // Open perps, by trader (an NPC, or a pool's account).
  /** A market's YES price as a number (trade decisions), kept with its pool. */
  const yesPrices = new WeakMap<TMarketSim, number>();
  const yesOf = (m: TMarketSim) => {
    let y = yesPrices.get(m);
    if (y === undefined) yesPrices.set(m, (y = cpmmPrices(m.pool).yes.toNumber()));
    return y;
  };
  const setPool = (m: TMarketSim, pool: TPool) => {
    m.pool = pool;
    yesPrices.delete(m);
  };
  const perps = new Set<TPerpSim>();
  const perpsByTrader = new Map<string, TPerpSim[]>();
  const perpsOf = (userId: string) => perpsByTrader.get(userId) ?? [];
  const dropPerp = (p: TPerpSim) => {
    perps.delete(p);
    perpsByTrader.set(
      p.trader.userId,
      perpsOf(p.trader.userId).filter((x) => x !== p),
    );
  };
  let perpCount = 0;

  const out: THistory = { start, end, steps, actions: [], events: [], perpPoints: [], marketPoints: [], navPoints: [], questions: [], final: [] };
  let lastEventAt = start.getTime() - HOUR;

  for (let k = 1; k <= steps; k++) {
    const t = new Date(start.getTime() + k * stepMs);
    const last = k === steps;
    const rng = root.fork(`step-${k}`);
    // Full density over the last FULL_DENSITY_DAYS, EARLY_DENSITY of it before.
    const density = end.getTime() - t.getTime() <= FULL_DENSITY_DAYS * DAY ? 1 : EARLY_DENSITY;
    // 1. News, a second before the step (so a question asked at `t` cannot count it).
    const newsAt = new Date(t.getTime() - 1000);
    const open = markets.filter((m) => m.resolutionDate.getTime() >= newsAt.getTime());
    for (const m of markets) m.createdThisStep = false;

    const push = new Map<string, number>();
    const newsRng = rng.fork('news');
    const quiet = newsAt.getTime() - lastEventAt >= HOUR;
    const count = last ? 0 : planEventCount(newsRng, quiet, stepMinutes);
    const ruled: (TOpenQuestion & { sim: TMarketSim })[] = open
      .filter((m) => m.rule)
      .map((m) => ({ marketId: m.ref, questionNumber: questionNumbers.get(m.ref) ?? 0, rule: m.rule, sim: m }));
    const newsOrgs = orgs.map((o) => ({ id: o.id, name: o.name, ticker: o.ticker, price: fair.get(o.id)! }));
    // The news the world drew: an event question drawn YES whose moment has come (or whose last
    // step before its date this is) gets its event now, before any random news.
    const drawn = last
      ? []
      : open.filter(
          (m) =>
            m.rule?.kind === 'event' &&
            m.odds?.outcome === 'YES' &&
            !m.fulfilled &&
            m.createdAt.getTime() < newsAt.getTime() &&
            m.resolutionDate.getTime() > newsAt.getTime() &&
            (m.odds.eventAt!.getTime() <= newsAt.getTime() || newsAt.getTime() + stepMs >= m.resolutionDate.getTime()),
        );
    // Random news never fulfils an open question the world drew (a NO never happens, a YES only as drawn).
    const reserved = open.filter((m) => m.rule?.kind === 'event' && m.odds?.outcome).map((m) => m.rule as TEventRule);
    const planned = [
      ...drawn.map((m) => planFulfillingEvent(newsRng.fork(`question-${m.ref}`), m.rule as TEventRule, { orgs: newsOrgs, actors: actorStates })),
      ...Array.from({ length: count }, (_, i) => planWorldEvent(newsRng.fork(`event-${i}`), { orgs: newsOrgs, actors: actorStates, reserved })),
    ];
    for (const [i, e] of planned.entries()) {
      if (!e) continue;
      const rel = relatedQuestions(e, ruled);
      for (const b of rel.biases) {
        const sim = markets.find((m) => m.ref === b.marketId)!;
        if (sim.rule?.kind === 'event' && fulfils(sim.rule, { kind: e.kind, organizationId: e.organizationId, actorId: e.actorId })) sim.fulfilled = true;
        sim.biasBuys.push({ outcome: b.direction, amount: biasTradeAmount(b.adjustment) });
      }
      push.set(e.organizationId, (push.get(e.organizationId) ?? 0) + e.impact);
      out.events.push({
        id: `backfill-${newsAt.toISOString()}-${i}`,
        at: newsAt,
        kind: e.kind,
        title: e.title,
        content: e.content,
        organizationId: e.organizationId,
        actorId: e.actorId,
        impact: e.impact,
        related: rel.biases.map((b) => b.marketId),
      });
      lastEventAt = newsAt.getTime();
    }

    // 2. Prices: one walk step per organization (its own fork), pulled toward today's price.
    const priceRng = rng.fork('prices');
    for (const o of orgs) {
      const x = fair.get(o.id)!;
      let next: number;
      if (last) next = o.price;
      else {
        const pull = Math.exp(Math.log(o.price / x) * Math.max(REVERSION_PER_HOUR * (stepMinutes / 60), 1 / (steps - k + 1)));
        const p = (1 + (push.get(o.id) ?? 0)) * pull - 1;
        next = stepFairValue({ fairValue: x, volatility: o.volatility * scale, push: p }, priceRng.fork(o.ticker));
      }
      fair.set(o.id, next);
      mark.set(o.ticker, last ? next : driftMark(mark.get(o.ticker)!, next, markRate));
      const tr = trend.get(o.id)!;
      tr.push(next);
      if (tr.length > 7) tr.shift();
      if (!last) out.perpPoints.push({ ticker: o.ticker, at: t, mark: mark.get(o.ticker)!, index: next });
    }
    if (last) break;
    const orgOf = (id: string) => orgs.find((o) => o.id === id)!;

    // 3. Questions resolve from what happened: an event question as soon as news fulfils it (the
    // tick resolves those at its next run), the others when due.
    for (const m of markets.filter((q) => q.rule && (q.resolutionDate.getTime() <= t.getTime() || (q.rule.kind === 'event' && q.fulfilled)))) {
      const outcome = resolveOutcome(m.rule, {
        price: m.rule!.kind === 'price' ? fair.get(m.rule!.organizationId)! : null,
        eventHappened: m.fulfilled,
        yesPrice: cpmmPrices(m.pool).yes.toNumber(),
        drawn: m.odds?.outcome ?? null,
      });
      if (outcome === null) continue;
      out.actions.push({ kind: 'resolve', at: t, market: m.ref, outcome });
      const q = out.questions.find((x) => x.key === m.ref);
      if (q) {
        q.outcome = outcome;
        q.resolvedAt = t;
      }
      for (const a of actors) {
        const won = holdings.get(holdKey(a.id, m.ref, outcome));
        if (won) addCash(a.id, won.toDecimalPlaces(8, 1));
      }
      markets.splice(markets.indexOf(m), 1);
    }

    // 4. Questions: kept at the minimum, each asked from the world as it is now.
    const qRng = rng.fork('questions');
    const active = markets.length;
    const toCreate = active < MIN_ACTIVE_QUESTIONS ? questionsToCreate(qRng, active) : 0;
    // Open and recent (RECENT_QUESTION_DAYS) questions: a new one never repeats them.
    const since = t.getTime() - RECENT_QUESTION_DAYS * 86_400_000;
    while (asked.length && asked[0]!.at < since && !markets.some((m) => m.ref === asked[0]!.ref)) asked.shift();
    for (let i = 0; i < toCreate; i++) {
      const one = qRng.fork(`question-${i}`);
      const q = planQuestion(one, {
        orgs: orgs.map((o) => ({ id: o.id, name: o.name, ticker: o.ticker, price: fair.get(o.id)! })),
        actors: actorStates,
        at: t,
        open: markets.map((m) => m.rule),
        recent: [
          ...markets.map((m) => ({ rule: m.rule, text: asked.find((a) => a.ref === m.ref)?.text ?? '', open: true })),
          ...asked.filter((a) => !markets.some((m) => m.ref === a.ref)).map((a) => ({ rule: a.rule, text: a.text, open: false, createdAt: new Date(a.at) })),
        ],
      });
      if (!q) break;
      const org = orgOf(q.rule.organizationId);
      const odds = planOutcome(one.fork('outcome'), { rule: q.rule, org: { price: fair.get(org.id)!, volatility: org.volatility }, createdAt: t, resolutionDate: q.resolutionDate });
      const key = `bf-q-${++questionCount}`;
      questionNumbers.set(key, questionCount);
      asked.push({ ref: key, at: t.getTime(), rule: q.rule, text: q.text });
      out.actions.push({ kind: 'create', at: t, key, text: q.text, resolutionDate: q.resolutionDate, rule: q.rule, odds });
      out.questions.push({ key, createdAt: t, resolutionDate: q.resolutionDate, rule: q.rule, odds, outcome: null, resolvedAt: null });
      markets.push({
        ref: key,
        pool: odds ? createPoolAt(BACKFILL_QUESTION_LIQUIDITY, odds.probability) : newCpmmPool(BACKFILL_QUESTION_LIQUIDITY),
        resolutionDate: q.resolutionDate,
        createdAt: t,
        rule: q.rule,
        odds,
        drift: 0.5,
        fulfilled: false,
        biasBuys: [],
        newsUntil: 0,
        createdThisStep: true,
      });
    }

    // 5. A price point per active market (one just asked has its creation point).
    for (const m of markets) {
      if (m.createdThisStep) continue;
      const pub = toPublic(m.pool);
      out.marketPoints.push({ market: m.ref, at: t, yesPrice: toDecimalString(cpmmPrices(m.pool).yes.toDecimalPlaces(18, 1)), yesShares: toDecimalString(pub.yesShares), noShares: toDecimalString(pub.noShares) });
    }

    // 6. Trades, at minutes into the step (each trade a later minute or millisecond).
    const trades: { at: Date; act: () => TBackfillAction | null }[] = [];
    const tradeRng = rng.fork('trades');
    const minuteIn = () => new Date(t.getTime() + tradeRng.int(1, Math.max(1, stepMinutes - 1)) * 60_000);
    const richActors = (min: number) => actors.filter((a) => cashOf(a.id).minus(min).gte(CASH_BUFFER));

    const buy = (m: TMarketSim, userId: string, outcome: TOutcome, amount: number, at: Date): TBackfillAction | null => {
      const amt = dec(money(amount));
      if (amt.lt(1) || at.getTime() >= m.resolutionDate.getTime() || cashOf(userId).minus(amt).lt(CASH_BUFFER)) return null;
      const quote = quoteBuy(m.pool, outcome, amt);
      setPool(m, quote.pool);
      const hk = holdKey(userId, m.ref, outcome);
      holdings.set(hk, (holdings.get(hk) ?? dec(0)).plus(quote.shares));
      addCash(userId, amt.neg());
      return { kind: 'buy', at, userId, market: m.ref, outcome, amount: toDecimalString(amt) };
    };

    // What each open market is worth this step, as the world implies it (never an event's draw).
    const beliefOf = new Map<TMarketSim, number>();
    const newsMarkets: TMarketSim[] = [];
    for (const m of [...markets].sort((a, b) => a.ref.localeCompare(b.ref))) {
      const mRng = tradeRng.fork(m.ref);
      // The news's trade first, as the tick's price step makes: one NPC buys the side the step's
      // news favours on balance.
      const net = m.biasBuys.reduce((s, b) => s + (b.outcome === 'YES' ? b.amount : -b.amount), 0);
      if (net !== 0) {
        const buyer = richActors(Math.abs(net));
        if (buyer.length) {
          const who = mRng.pick(buyer).id;
          const at = minuteIn();
          trades.push({ at, act: () => buy(m, who, net > 0 ? 'YES' : 'NO', Math.max(1, Math.abs(net)), at) });
        }
        m.newsUntil = t.getTime() + NEWS_BIAS_HOURS * HOUR;
      }
      m.biasBuys = [];
      if (m.newsUntil > t.getTime()) newsMarkets.push(m);
      if (m.rule === null) m.drift = clamp(m.drift + mRng.normal() * 0.02, 0.05, 0.95);
      const msLeft = Math.max(HOUR / 2, m.resolutionDate.getTime() - t.getTime());
      let belief: number;
      if (m.rule?.kind === 'price') {
        const o = orgOf(m.rule.organizationId);
        belief = priceProbability({ price: fair.get(o.id)!, threshold: m.rule.threshold, comparison: m.rule.comparison, volatility: o.volatility, ms: msLeft });
      } else if (m.rule?.kind === 'event') {
        // What the rules say (never the draw): its odds, less as its window passes without the news.
        const w = eventWindow(m.createdAt, m.resolutionDate);
        const quiet = (t.getTime() - w.start.getTime()) / Math.max(1, w.end.getTime() - w.start.getTime());
        belief = m.fulfilled ? 0.97 : eventValueAfterQuiet(m.odds?.probability ?? 0.5, quiet);
      } else belief = m.drift;
      beliefOf.set(m, clamp(belief, 0.03, 0.97));
    }

    /** One NPC trade on `m` toward its own view of the market's worth (the live plan's rule). */
    const valueTrade = (m: TMarketSim, who: string, at: Date) => {
      const view = clamp(personalView(beliefOf.get(m)!, `${who}:${m.ref}`, VIEW_SPREAD.B), 0.03, 0.97);
      const favoured: TOutcome = view > yesOf(m) ? 'YES' : 'NO';
      const against: TOutcome = favoured === 'YES' ? 'NO' : 'YES';
      trades.push({
        at,
        act: () => {
          if (at.getTime() >= m.resolutionDate.getTime() || !markets.includes(m)) return null;
          // One side per market: an NPC holding the other side sells it before buying this one.
          const held = holdings.get(holdKey(who, m.ref, against));
          if (held && held.gt(1)) {
            const shares = (held.lt(4) ? held : held.div(2)).toDecimalPlaces(6, 1);
            const quote = quoteSell(m.pool, against, shares);
            setPool(m, quote.pool);
            holdings.set(holdKey(who, m.ref, against), held.minus(shares));
            addCash(who, quote.proceeds);
            return { kind: 'sell', at, userId: who, market: m.ref, outcome: against, shares: toDecimalString(shares) };
          }
          const price = favoured === 'YES' ? yesOf(m) : 1 - yesOf(m);
          const side = favoured === 'YES' ? view : 1 - view;
          if (side - price < VALUE_EDGE) return null;
          // Sized to the depth as the live NPCs are: toward the view, MAX_PRICE_MOVE at most, within a budget.
          const budget = clamp((side - price) * 2000, 10, 500) * tradeRng.float(0.6, 1.4);
          const target = Math.min(side, price + MAX_PRICE_MOVE, 0.97);
          const amount = Math.min(budget, target > price ? buyAmountToPrice(m.pool, favoured, target.toFixed(6)).toNumber() : 0);
          return amount >= 1 ? buy(m, who, favoured, amount, at) : null;
        },
      });
    };

    // Minute by minute, as many trades as the live tick makes (lib/game/npc/plan.ts
    // TRADES_PER_TICK, PERP_TRADES_PER_TICK; lib/game/steps/prices.ts MAX_BIAS_TRADES on the
    // questions with recent news; lib/game/steps/pools.ts POOL_ACT_CHANCE).
    const perpRng = tradeRng.fork('perps');
    const closePerp = (p: TPerpSim, at: Date) =>
      trades.push({
        at,
        act: () => {
          if (!perps.has(p)) return null;
          const m = dec(mark.get(p.ticker)!);
          const q = quoteClose({ ...p, collateral: p.margin }, m, DEFAULT_DEPTH);
          addCash(p.trader.userId, q.total);
          dropPerp(p);
          return { kind: 'close', at, key: p.key, trader: p.trader, ticker: p.ticker, mark: toDecimalString(m) };
        },
      });
    const openPerp = (trader: TTrader, size: number, leverage: number, at: Date) => {
      const o = perpRng.pick(orgs);
      const tr = trend.get(o.id)!;
      const up = tr[tr.length - 1]! >= tr[0]!;
      const side: TPerpSide = perpRng.chance(0.6) === up ? 'long' : 'short';
      trades.push({
        at,
        act: () => {
          // One side per ticker, as live.
          if (perpsOf(trader.userId).some((p) => p.ticker === o.ticker && p.side !== side)) return null;
          const m = mark.get(o.ticker)!;
          const q = quoteOpen({ side, size: money(size), leverage, markPrice: m, depth: DEFAULT_DEPTH });
          if (cashOf(trader.userId).minus(q.cost).lt(CASH_BUFFER)) return null;
          addCash(trader.userId, q.cost.neg());
          const key = `bf-p-${++perpCount}`;
          const sim: TPerpSim = {
            key,
            trader,
            ticker: o.ticker,
            side,
            units: q.units,
            entryPrice: q.entryPrice,
            margin: q.margin,
            openFee: q.fee,
            liquidationPrice: q.liquidationPrice,
            n: { units: q.units.toNumber(), entry: q.entryPrice.toNumber(), margin: q.margin.toNumber(), liquidation: q.liquidationPrice.toNumber() },
          };
          perps.add(sim);
          perpsByTrader.set(trader.userId, [...perpsOf(trader.userId), sim]);
          return { kind: 'open', at, key, trader, ticker: o.ticker, side, size: money(size), leverage: String(leverage), mark: String(m) };
        },
      });
    };
    const tradable = [...markets].sort((a, b) => a.ref.localeCompare(b.ref));
    for (let minute = 0; minute < stepMinutes; minute++) {
      const at = new Date(t.getTime() + minute * 60_000 + 1);
      const draws = tradeRng.int(TRADES_PER_TICK.min, TRADES_PER_TICK.max);
      for (let i = 0; i < draws && tradable.length; i++) if (tradeRng.chance(density)) valueTrade(tradeRng.pick(tradable), tradeRng.pick(actors).id, at);
      for (let i = 0; i < Math.min(MAX_BIAS_TRADES, newsMarkets.length); i++) if (tradeRng.chance(density)) valueTrade(tradeRng.pick(newsMarkets), tradeRng.pick(actors).id, at);
      const perpDraws = perpRng.int(PERP_TRADES_PER_TICK.min, PERP_TRADES_PER_TICK.max);
      for (let i = 0; i < perpDraws; i++) {
        if (!perpRng.chance(density)) continue;
        const a = perpRng.pick(actors);
        const own = perpsOf(a.id);
        if (own.length && (own.length >= NPC_MAX_PERPS || perpRng.chance(PERP_CLOSE_CHANCE))) closePerp(perpRng.pick(own), at);
        else openPerp({ userId: a.id, poolId: null }, perpRng.float(200, 1500), perpRng.int(2, 4), at);
      }
      // News reaches the managers in the step's first minute (the news is a second before it).
      const poolChance = minute === 0 && planned.length ? POOL_ACT_CHANCE.news : POOL_ACT_CHANCE.quiet;
      for (const pool of world.pools) {
        if (!perpRng.chance(poolChance * density)) continue;
        // A manager who looks trades a few times (the live plan's trims, closes and opens: POOL_TRADES_PER_LOOK).
        const n = perpRng.int(POOL_TRADES_PER_LOOK.min, POOL_TRADES_PER_LOOK.max);
        for (let i = 0; i < n; i++) {
          const own = perpsOf(pool.accountUserId);
          if (own.length && (own.length >= POOL_MAX_PERPS || perpRng.chance(POOL_CLOSE_CHANCE))) closePerp(perpRng.pick(own), at);
          else openPerp({ userId: pool.accountUserId, poolId: pool.id }, cashOf(pool.accountUserId).toNumber() * perpRng.float(0.05, 0.15), perpRng.int(1, 3), at);
        }
      }
    }
    // A perp whose equity fell to its stop-loss closes; one whose mark reached its liquidation
    // price is taken by the sweep after the next fill on the ticker (or the one at the end).
    for (const p of [...perps]) {
      const m = mark.get(p.ticker)!;
      const long = p.side === 'long';
      if (long ? m <= p.n.liquidation : m >= p.n.liquidation) {
        dropPerp(p);
        continue;
      }
      const equity = p.n.margin + p.n.units * (m - p.n.entry) * (long ? 1 : -1);
      if (equity <= p.n.margin * STOP_LOSS_EQUITY) closePerp(p, minuteIn());
    }

    // In time order, each later than the one before; a trade is simulated when it happens.
    trades.sort((a, b) => a.at.getTime() - b.at.getTime());
    let prev = t.getTime();
    for (const tr of trades) {
      const at = Math.max(tr.at.getTime(), prev + 1);
      tr.at.setTime(at);
      const action = tr.act();
      if (action) {
        action.at = new Date(at);
        out.actions.push(action);
        prev = at;
      }
    }

    // 7. Each pool's NAV after the step's trades: cash + each perp's equity at the mark.
    for (const pool of world.pools) {
      const own = perpsOf(pool.accountUserId);
      const nav = navOf({
        cash: cashOf(pool.accountUserId),
        perps: own.map((p) => ({ collateral: p.margin, pricePnL: markToMarket({ ...p, collateral: p.margin }, mark.get(p.ticker)!).unrealizedPnL })),
        predictions: [],
      });
      out.navPoints.push({ poolId: pool.id, at: new Date(t.getTime() + stepMs - 1), nav: toDecimalString(nav) });
    }
  }
  out.navPoints = out.navPoints.filter((p) => p.at.getTime() < end.getTime());
  out.final = orgs.map((o) => ({ id: o.id, ticker: o.ticker, fair: fair.get(o.id)!, mark: mark.get(o.ticker)! }));
  return out;
}
