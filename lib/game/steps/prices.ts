/**
 * Tick step: prices. Every organization's fair value is pulled toward its fundamental (more the
 * longer the tick; value-moving news moves the fundamental too, written back) and takes one
 * random-walk step with its own volatility, pushed by this tick's news and by active biases on
 * price questions about it; its
 * current (index) price follows, and its perp mark drifts toward it. Those writes are two
 * set-based updates in one transaction (the marks with their `perp_update` announcements through
 * lib/perps `setMarks`); the liquidation sweep then closes what the new marks reached. Biases
 * decay with time and are removed when spent; the strongest few move their question's price
 * through an NPC's buy (a real trade through the ledger, so prediction prices move without
 * anyone's balance changing outside it).
 */
import { sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { actors, marketBiases, marketPositions, markets, organizations, pools, questionRules, users } from '@/db/schema';
import { npcCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { buyAmountToPrice, toPool } from '@/lib/markets/cpmm';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { dec } from '@/lib/money/decimal';
import { liquidateTicker } from '@/lib/perps/service/liquidate';
import { setMarks } from '@/lib/perps/service/marks';
import { BIAS_PRICE_WEIGHT, biasPush, biasStrength, biasTradeAmount, driftMark, MAX_BIAS_TRADES, NEWS_PRICE_WEIGHT, stepTicker, VALUE_NEWS_KINDS } from '../prices';
import { loadOrganizations } from '../state';
import type { TTickContext } from '../types';
import { newsDirections } from '../world-rules';

/**
 * Where the news trade takes an event question its news just fulfilled (it resolves YES at the
 * next tick): within a couple of points of certain, so nobody buys a settled question cheap.
 */
export const FULFILLED_PRICE = 0.98;

/**
 * The news trade's amount: for an event question the news fulfils (an event rule pushed YES), what
 * takes YES to FULFILLED_PRICE (cpmm.buyAmountToPrice; 0 when it is already there); otherwise the
 * bias's usual amount. Pure.
 */
export function newsTradeAmount(b: { kind: string | null; direction: 'YES' | 'NO'; strength: number; yesShares: string; noShares: string }, fulfilled: boolean): string {
  if (fulfilled && b.kind === 'event' && b.direction === 'YES') return buyAmountToPrice(toPool({ yesShares: b.yesShares, noShares: b.noShares }), 'YES', FULFILLED_PRICE).toFixed(2);
  return String(biasTradeAmount(b.strength));
}

type TBiasRow = {
  id: string;
  market_id: string;
  direction: 'YES' | 'NO';
  adjustment: string;
  price_impact: string;
  decay_rate: string;
  created_at: string | Date;
  expires_at: string | Date;
  status: string;
  question_number: number | null;
  resolution_date: string | Date;
  kind: string | null;
  organization_id: string | null;
  comparison: 'above' | 'below' | null;
  yes_shares: string;
  no_shares: string;
};

export async function runPriceStep(ctx: TTickContext) {
  const db = await getDb();
  const at = ctx.at;
  const rng = ctx.rng.fork('prices');
  const orgs = await loadOrganizations(db);
  const biasRows = rowsOf<TBiasRow>(
    await db.execute(sql`
      select b.id, b.market_id, b.direction, b.adjustment, b.price_impact, b.decay_rate, b.created_at, b.expires_at,
        m.status, m.question_number, m.resolution_date, m.yes_shares, m.no_shares, r.kind, r.organization_id, r.comparison
      from ${marketBiases} b join ${markets} m on m.id = b.market_id left join ${questionRules} r on r.market_id = b.market_id
      order by b.created_at, b.id`),
  );
  const biases = biasRows.map((b) => {
    const live = b.status === 'active' && new Date(b.resolution_date).getTime() > at.getTime();
    const strength = live
      ? biasStrength(
          { direction: b.direction, adjustment: Number(b.adjustment), decayRate: Number(b.decay_rate), createdAt: new Date(b.created_at), expiresAt: new Date(b.expires_at) },
          at,
        )
      : 0;
    return { ...b, strength };
  });

  const push = new Map<string, number>();
  const add = (orgId: string | null, p: number) => orgId && push.set(orgId, (push.get(orgId) ?? 0) + p);
  // Value-moving news also moves the fundamental for good (the fair value is pulled toward it).
  const valuePush = new Map<string, number>();
  for (const e of ctx.newEvents) {
    const impact = e.impact * NEWS_PRICE_WEIGHT;
    add(e.organizationId, impact);
    if (e.organizationId && VALUE_NEWS_KINDS.has(e.kind)) valuePush.set(e.organizationId, (valuePush.get(e.organizationId) ?? 0) + impact);
  }
  for (const b of biases) {
    if (b.strength > 0 && b.kind === 'price' && b.comparison) add(b.organization_id, BIAS_PRICE_WEIGHT * biasPush(b.strength, b.direction, b.comparison, Number(b.price_impact)));
  }

  // Each ticker draws from its own fork: adding an organization never changes another's walk.
  const minutes = Math.max(1, ctx.minutes ?? 1);
  const moves = orgs.map((o) => {
    const { fair, fundamental } = stepTicker(
      { fairValue: o.fairValue, fundamental: o.fundamental, volatility: o.volatility, push: push.get(o.id) ?? 0, valuePush: valuePush.get(o.id) ?? 0, minutes },
      rng.fork(o.ticker),
    );
    return { id: o.id, ticker: o.ticker, fair, fundamental, mark: o.markPrice === null ? null : driftMark(o.markPrice, fair) };
  });
  const spent = biases.filter((b) => b.strength === 0).map((b) => b.id);

  if (moves.length || spent.length) {
    await withTransaction(async (tx) => {
      if (moves.length) {
        const values = sql.join(moves.map((m) => sql`(${m.id}, ${m.fair.toFixed(4)}::numeric, ${m.fundamental.toFixed(4)}::numeric)`), sql`, `);
        await tx.execute(sql`
          update ${organizations} o set fair_value = v.fair, current_price = v.fair, fundamental_value = v.fundamental
          from (values ${values}) as v(id, fair, fundamental) where o.id = v.id`);
      }
      // The marks and their perp_update (with the new index) in one call; the tick records the
      // price points after this step.
      await setMarks(
        tx,
        moves.filter((m) => m.mark !== null).map((m) => ({ ticker: m.ticker, markPrice: m.mark!.toFixed(4), indexPrice: m.fair })),
        at,
      );
      if (spent.length) await tx.execute(sql`delete from ${marketBiases} where id in (${sql.join(spent.map((id) => sql`${id}`), sql`, `)})`);
    });
  }
  const liquidated = await liquidateTicker();

  // Biases move prediction prices: an NPC with cash buys the favoured side. Each question this
  // tick's news concerns gets one trade the way the news implies (its strongest bias that way),
  // whatever the cap; then the strongest other biases, up to MAX_BIAS_TRADES, never against the
  // direction of this tick's news on their question.
  let biasTrades = 0;
  const directions = newsDirections(ctx.newEvents);
  const live = biases.filter((b) => b.strength > 0).sort((a, b) => b.strength - a.strength || a.id.localeCompare(b.id));
  const newsOf = (b: (typeof live)[number]) => (b.question_number === null ? undefined : directions.get(Number(b.question_number)));
  const newsTrades: typeof live = [];
  for (const b of live) if (newsOf(b) === b.direction && !newsTrades.some((x) => x.market_id === b.market_id)) newsTrades.push(b);
  const others = live.filter((b) => newsOf(b) === undefined).slice(0, MAX_BIAS_TRADES);
  const planned = [...newsTrades, ...others];
  if (planned.length) {
    const buyers = rowsOf<{ id: string; username: string; balance: string }>(
      await db.execute(sql`
        select u.id, u.username, u.virtual_balance as balance from ${users} u join ${actors} a on a.user_id = u.id
        where u.virtual_balance >= 100 order by u.id`),
    );
    // One side per market per NPC: a buyer never holds the side it does not buy, nor does its fund
    // (a manager never trades against it).
    const ids = [...new Set(planned.map((b) => b.market_id))];
    const held = new Set(
      rowsOf<{ user_id: string; market_id: string; side: string }>(
        await db.execute(sql`
          select user_id, market_id, side from ${marketPositions}
          where market_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) and shares > 0 and settled_at is null
          union
          select pl.npc_actor_id as user_id, mp.market_id, mp.side from ${marketPositions} mp join ${pools} pl on pl.account_user_id = mp.user_id
          where mp.market_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) and mp.shares > 0 and mp.settled_at is null
          order by 1, 2, 3`),
      ).map((h) => `${h.user_id}:${h.market_id}:${h.side}`),
    );
    const tradeRng = rng.fork('bias-trades');
    for (const b of planned) {
      if (!buyers.length || performance.now() > ctx.deadline) break;
      const other = b.direction === 'YES' ? 'NO' : 'YES';
      const able = buyers.filter((u) => !held.has(`${u.id}:${b.market_id}:${other}`));
      if (!able.length) continue;
      // The news of a fulfilled event question takes it to FULFILLED_PRICE at once, bought by an
      // NPC that can pay for it (the richest, when none can pay it all), not one tick later.
      const fulfilled = newsTrades.includes(b) && b.kind === 'event' && b.direction === 'YES';
      let amount = dec(newsTradeAmount({ kind: b.kind, direction: b.direction, strength: b.strength, yesShares: String(b.yes_shares), noShares: String(b.no_shares) }, fulfilled));
      if (amount.lte(0)) continue;
      let buyer: (typeof buyers)[number];
      if (fulfilled) {
        const rich = able.filter((u) => dec(u.balance).gte(amount));
        buyer = rich.length ? tradeRng.pick(rich) : able.reduce((x, y) => (dec(y.balance).gt(dec(x.balance)) ? y : x));
        if (dec(buyer.balance).lt(amount)) amount = dec(buyer.balance).times('0.99').toDecimalPlaces(2, 1);
      } else buyer = tradeRng.pick(able);
      try {
        await buyShares({ caller: npcCaller({ userId: buyer.id, username: buyer.username }), marketId: b.market_id, outcome: b.direction, amount: amount.toFixed(2) });
        buyer.balance = dec(buyer.balance).minus(amount).toFixed(2);
        held.add(`${buyer.id}:${b.market_id}:${b.direction}`);
        biasTrades++;
      } catch (e) {
        // A closed market or a spent NPC skips this bias this tick; anything else is a bug.
        if (!(e instanceof AppError)) throw e;
      }
    }
  }
  return { organizations: moves.length, liquidations: liquidated.length, biasesExpired: spent.length, biasTrades };
}
