/**
 * Random sequences of orders, market buys and sells, cancels, expiries and a resolution on one
 * question, through the services the routes call (issue 32, deliverable 7), on PGlite and
 * PostgreSQL. After every step:
 *   - every order's money is accounted for: filled + refunded + still reserved = its amount;
 *   - no fill is worse than its order's limit (each owner's trade with an order id), and no order
 *     spent more than its amount;
 *   - the market's open-order counts equal its open orders;
 *   - the maker's product never falls;
 *   - the YES and NO shares outstanding (pool and holders) are equal, and the players' cash +
 *     reserves + that collateral + the fees paid is a constant: money only moves (a refused step
 *     changes nothing);
 *   - the ledger chains exactly.
 * After the resolution no order is open and every reserve has come back.
 */
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getDb, rowsOf } from '@/db/client';
import { markets, predictionOrders } from '@/db/schema';
import { callerOfUser } from '@/lib/auth/caller';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { isAppError } from '@/lib/errors/app-error';
import { expirePredictionOrders, cancelPredictionOrder } from '@/lib/markets/orders/close-orders';
import { placePredictionOrder } from '@/lib/markets/orders/place-order';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { createMarket } from '@/lib/markets/service/create-market';
import { resolveMarket } from '@/lib/markets/service/resolve-market';
import { sellShares } from '@/lib/markets/service/sell-shares';
import { withTransaction } from '@/db/client';
import { dec } from '@/lib/money/decimal';
import { seedUser } from '@/test/factories';
import { expectLedgerChain } from '@/test/invariants';

type TStep =
  | { kind: 'limit'; who: number; outcome: 'YES' | 'NO'; amount: number; price: number; tif: 'GTC' | 'GTD' | 'IOC' }
  | { kind: 'buy'; who: number; outcome: 'YES' | 'NO'; amount: number }
  | { kind: 'sell'; who: number; outcome: 'YES' | 'NO'; fraction: number }
  | { kind: 'cancel'; who: number; pick: number }
  | { kind: 'time'; minutes: number };

const arbStep: fc.Arbitrary<TStep> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('limit' as const), who: fc.nat(3), outcome: fc.constantFrom('YES' as const, 'NO' as const), amount: fc.integer({ min: 1, max: 60 }), price: fc.integer({ min: 5, max: 95 }), tif: fc.constantFrom('GTC' as const, 'GTD' as const, 'IOC' as const) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('buy' as const), who: fc.nat(3), outcome: fc.constantFrom('YES' as const, 'NO' as const), amount: fc.integer({ min: 1, max: 80 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('sell' as const), who: fc.nat(3), outcome: fc.constantFrom('YES' as const, 'NO' as const), fraction: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), who: fc.nat(3), pick: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('time' as const), minutes: fc.integer({ min: 1, max: 90 }) }) },
);

/**
 * The question's books: every complete set is backed by 1 (the YES shares in the pool and held
 * equal the NO shares, and that count is the collateral), and the players' cash + their open
 * reserves + the collateral + the fees the question's trades paid is a constant: money only moves.
 */
const books = async (userIds: string[], marketId: string) => {
  const db = await getDb();
  const [r] = rowsOf<{ cash: string; reserves: string; yes: string; no: string; fees: string }>(
    await db.execute(sql`
      select
        (select coalesce(sum(virtual_balance), 0) from users where id = any(${`{${userIds.join(',')}}`}::text[])) as cash,
        (select coalesce(sum(amount - filled_amount), 0) from prediction_orders where market_id = ${marketId} and status in ('open', 'partially_filled')) as reserves,
        (select no_shares from markets where id = ${marketId}) + (select coalesce(sum(shares), 0) from market_positions where market_id = ${marketId} and side = 'YES') as yes,
        (select yes_shares from markets where id = ${marketId}) + (select coalesce(sum(shares), 0) from market_positions where market_id = ${marketId} and side = 'NO') as no,
        (select coalesce(sum(fee_total), 0) from trades where market_id = ${marketId}) as fees`),
  );
  expect(dec(r!.yes).toFixed(), 'YES and NO shares outstanding').toBe(dec(r!.no).toFixed());
  return dec(r!.cash).plus(r!.reserves).plus(r!.yes).plus(r!.fees);
};

const checkOrders = async (marketId: string) => {
  const db = await getDb();
  // Each order: filled + refunded + reserved (if open) = amount; never over its amount.
  const rows = rowsOf<{ id: string; amount: string; filled: string; open: boolean; refunded: string; reserved: string; limit_price: string; worst: string | null }>(
    await db.execute(sql`
      select o.id, o.amount, o.filled_amount as filled, o.status in ('open', 'partially_filled') as open, o.limit_price,
        coalesce((select sum(bt.amount) from balance_transactions bt where bt.reference_type = 'prediction_order' and bt.reference_id = o.id and bt.type = 'order_refund'), 0) as refunded,
        coalesce((select -sum(bt.amount) from balance_transactions bt where bt.reference_type = 'prediction_order' and bt.reference_id = o.id and bt.type = 'order_reserve'), 0) as reserved,
        (select max(t.price) from trades t where t.order_id = o.id and t.user_id = o.user_id and t.action = 'buy' and t.fee_total = 0) as worst
      from prediction_orders o where o.market_id = ${marketId}`),
  );
  for (const o of rows) {
    // An order that rested reserved what it did not fill at once: its fills, refunds and what it
    // still holds add up to its amount. One that never rested (IOC, or filled at once) took only
    // what it filled and got nothing back.
    const holding = o.open ? dec(o.amount).minus(o.filled) : dec(0);
    if (dec(o.reserved).gt(0)) expect(dec(o.filled).plus(o.refunded).plus(holding).toFixed(), `order ${o.id}`).toBe(dec(o.amount).toFixed());
    else expect([o.open, dec(o.refunded).toFixed()], `order ${o.id} never rested`).toEqual([false, '0']);
    expect(dec(o.filled).lte(o.amount), `order ${o.id} overfilled`).toBe(true);
    if (o.worst !== null) expect(dec(o.worst).lte(o.limit_price), `order ${o.id} filled at ${o.worst} over ${o.limit_price}`).toBe(true);
  }
  const [m] = await db.select().from(markets).where(eq(markets.id, marketId));
  const [c] = rowsOf<{ yes: number; no: number }>(
    await db.execute(sql`select count(*) filter (where outcome = 'YES')::int as yes, count(*) filter (where outcome = 'NO')::int as no
      from prediction_orders where market_id = ${marketId} and status in ('open', 'partially_filled')`),
  );
  expect({ yes: m!.openYesOrders, no: m!.openNoOrders }).toEqual({ yes: c!.yes, no: c!.no });
  return dec(m!.yesShares).times(m!.noShares);
};

describe('random sequences of orders, trades, cancels, expiries and a resolution', () => {
  it('conserve money and shares, never fill past a limit, and keep the maker and the counts', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(arbStep, { minLength: 6, maxLength: 18 }), fc.constantFrom('YES' as const, 'NO' as const), async (steps, winner) => {
        run++;
        let clock = Date.UTC(2026, 5, 1, 12, 0, 0) + run * 86_400_000;
        setFixedTime(new Date(clock));
        const players = await Promise.all([0, 1, 2, 3].map(() => seedUser({ balance: '300' })));
        const ids = players.map((p) => p.id);
        const market = await createMarket({ caller: null, text: `Sequence ${run}?`, resolutionDate: new Date(clock + 30 * 86_400_000), liquidity: 200 });
        let product = await checkOrders(market.id);
        const total = await books(ids, market.id);
        for (const step of steps) {
          const caller = step.kind === 'time' ? null : callerOfUser(players[step.who]!);
          try {
            if (step.kind === 'limit') {
              await placePredictionOrder({
                caller: caller!,
                marketId: market.id,
                outcome: step.outcome,
                amount: step.amount,
                limitPrice: (step.price / 100).toFixed(2),
                timeInForce: step.tif,
                expiresAt: step.tif === 'GTD' ? new Date(clock + 60 * 60_000).toISOString() : undefined,
              });
            } else if (step.kind === 'buy') {
              await buyShares({ caller: caller!, marketId: market.id, outcome: step.outcome, amount: step.amount });
            } else if (step.kind === 'sell') {
              const [p] = rowsOf<{ shares: string }>(
                await (await getDb()).execute(sql`select shares from market_positions where user_id = ${caller!.userId} and market_id = ${market.id} and side = ${step.outcome}`),
              );
              if (p && dec(p.shares).gt('0.01')) await sellShares({ caller: caller!, marketId: market.id, outcome: step.outcome, shares: dec(p.shares).div(step.fraction).toDecimalPlaces(6, 1).toFixed() });
            } else if (step.kind === 'cancel') {
              const open = await (await getDb())
                .select({ id: predictionOrders.id })
                .from(predictionOrders)
                .where(and(eq(predictionOrders.userId, caller!.userId), sql`status in ('open', 'partially_filled')`));
              const pick = open[step.pick % Math.max(1, open.length)];
              if (pick) await withTransaction((tx) => cancelPredictionOrder(tx, { userId: caller!.userId, orderId: pick.id }));
            } else {
              clock += step.minutes * 60_000;
              setFixedTime(new Date(clock));
              await expirePredictionOrders();
            }
          } catch (e) {
            // A refusal (not enough money or shares, a trade too small) is an answer, not a failure.
            if (!isAppError(e)) throw e;
          }
          const p = await checkOrders(market.id);
          expect(p.gte(product), `the maker's product fell after ${JSON.stringify(step)}`).toBe(true);
          product = p;
          expect((await books(ids, market.id)).toFixed(), `money moved in or out after ${JSON.stringify(step)}`).toBe(total.toFixed());
        }
        await resolveMarket({ marketId: market.id, outcome: winner });
        await checkOrders(market.id);
        const open = await (await getDb()).select().from(predictionOrders).where(and(eq(predictionOrders.marketId, market.id), sql`status in ('open', 'partially_filled')`));
        expect(open).toEqual([]);
        await expectLedgerChain(ids);
      }),
      { numRuns: 40, seed: 32, endOnFailure: true },
    );
    resetClock();
  }, 240_000);
});
