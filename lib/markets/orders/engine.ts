/**
 * The matching engine's writes (issue 32), inside the caller's transaction and under the market
 * row lock the caller took first. Every write of a prediction order (placement, fill, cancel,
 * expiry, resolution) holds its market's lock, so the book a statement reads under that lock is
 * the book: orders need no row locks of their own, and `markets.open_yes_orders` /
 * `open_no_orders` (kept here) always say whether a side has any.
 *
 * `settleMatch` writes what a match (match.ts) did to the pool and to the resting orders it
 * filled: the reserves, each order's fill, its owner's shares and trade, the counts, the events,
 * notices. The taker's own side (its ledger rows, position and trade) is its caller's, and every
 * balance change of the whole trade is applied at the end, in user id order (`applyChanges`), so
 * two trades never lock the same two users in opposite orders.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { rowsOf, unnestSql, type Tx } from '@/db/client';
import { marketPositions, markets, predictionOrders, trades, type TMarketRow, type TPredictionOrderRow } from '@/db/schema';
import { emitOrderBookChanged, emitOrderUpdates, type TOrderEvent } from '@/lib/events/order-updates';
import { applyBalanceChange, credit, type TBalanceChange, type TBalanceChangeResult } from '@/lib/ledger/ledger';
import type { TCaller } from '@/lib/auth/caller';
import { dec, toDecimalString, toNumber, type TDecimal } from '@/lib/money/decimal';
import { recordReferralFee } from '@/lib/referrals/fees';
import { referralEarner, referralShare } from '@/lib/referrals/share';
import { prices, toPool, type TOutcome, type TPool } from '../cpmm';
import { recordPricePoint } from '../service/price-points';
import { emitMarketUpdate, poolColumns } from '../service/shared';
import { canStillFill, type TMatch, type TOrderFill, type TRestingOrder } from './match';
import { notifyOrderFills } from './notices';

const OPEN = sql`('open', 'partially_filled')`;

/** Resting orders of one outcome that are open and unexpired at `at`, best first, up to `limit`. */
export async function loadBook(tx: Tx, o: { marketId: string; outcome: TOutcome; at: Date; minPrice?: TDecimal; limit: number }): Promise<TRestingOrder[]> {
  const min = o.minPrice ? sql` and limit_price >= ${toDecimalString(o.minPrice)}::numeric` : sql``;
  const rows = rowsOf<{ id: string; user_id: string; outcome: TOutcome; limit_price: string; remaining: string }>(
    await tx.execute(sql`
      select id, user_id, outcome, limit_price, amount - filled_amount as remaining
      from ${predictionOrders}
      where market_id = ${o.marketId} and outcome = ${o.outcome} and status in ${OPEN}
        and (expires_at is null or expires_at > ${o.at.toISOString()}::timestamptz)${min}
      order by limit_price desc, seq
      limit ${o.limit}`),
  );
  return rows.map((r) => ({ id: r.id, userId: r.user_id, outcome: r.outcome, limitPrice: dec(r.limit_price), remaining: dec(r.remaining) }));
}

/**
 * Runs `match` over the book, reading more of it while the match used everything it read (a book
 * page is 64 orders; a match that crosses more reads 256, then 1,024 …): the cost grows with the
 * fills, not with the book.
 */
export async function matchWithBook(
  tx: Tx,
  o: { marketId: string; outcome: TOutcome; at: Date; minPrice?: TDecimal },
  match: (book: TRestingOrder[]) => TMatch,
): Promise<{ match: TMatch; book: TRestingOrder[] }> {
  for (let limit = 64; ; limit *= 4) {
    const book = await loadBook(tx, { ...o, limit });
    const m = match(book);
    const exhausted = book.length === limit && book.every((b) => m.orderRemaining.has(b.id) && !canStillFill({ limitPrice: b.limitPrice, remaining: m.orderRemaining.get(b.id)! }));
    if (!exhausted) return { match: m, book };
  }
}

export type TSettled = {
  market: TMarketRow;
  /** The refunds of orders a fill left with less than a tick's worth (their owners' changes). */
  changes: TBalanceChange[];
  orderFills: TOrderFill[];
  makerFee: TDecimal;
};

/** The order as the API answers it (lib/contracts/orders.ts ZPredictionOrder). */
export function predictionOrderDto(r: TPredictionOrderRow) {
  return {
    id: r.id,
    kind: 'prediction' as const,
    marketId: r.marketId,
    outcome: r.outcome,
    limitPrice: toNumber(r.limitPrice),
    amount: toNumber(r.amount),
    filledAmount: toNumber(r.filledAmount),
    shares: toNumber(r.shares),
    status: r.status,
    timeInForce: r.timeInForce,
    expiresAt: r.expiresAt ? r.expiresAt.toISOString() : null,
    clientOrderId: r.clientOrderId,
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * Writes a match's effect on the market and on the resting orders it filled (not the taker's
 * side): the pool's reserves and volume, each filled order and its owner's position and trade,
 * the open counts, a price point and the events. `volume` is what the caller counts as traded.
 */
export async function settleMatch(
  tx: Tx,
  o: { market: TMarketRow; match: TMatch; volume: TDecimal; at: Date; text: string },
): Promise<TSettled> {
  const { market, match, at } = o;
  const orderFills = match.fills.filter((f): f is TOrderFill => f.counterparty === 'order');
  const makerFee = match.fills.reduce((s, f) => (f.counterparty === 'maker' ? s.plus(f.fee) : s), dec(0));
  const pool: TPool = match.pool;
  const yesAfter = prices(pool).yes.toDecimalPlaces(18).toFixed();
  const changes: TBalanceChange[] = [];

  // Each filled order: its row, its owner's shares and trade.
  const closedByOutcome = { YES: 0, NO: 0 };
  const updates: { userId: string; event: TOrderEvent; order: Record<string, unknown> }[] = [];
  const filledNotices: { userId: string; orderId: string; outcome: TOutcome; shares: TDecimal; spent: TDecimal; done: boolean }[] = [];
  const perOrder = new Map<string, { fill: TOrderFill; shares: TDecimal; spent: TDecimal }>();
  for (const f of orderFills) {
    const cur = perOrder.get(f.orderId);
    perOrder.set(f.orderId, { fill: f, shares: (cur?.shares ?? dec(0)).plus(f.shares), spent: (cur?.spent ?? dec(0)).plus(f.orderAmount) });
  }
  // The filled orders, their owners' positions and trades: three statements however many fills.
  const filled = [...perOrder].map(([orderId, { fill, shares, spent }]) => {
    const left = match.orderRemaining.get(orderId)!;
    // The order's limit is exactly what it paid a share (fills are at the resting order's price).
    const done = !canStillFill({ limitPrice: fill.orderAmount.div(fill.shares), remaining: left });
    return { orderId, ownerId: fill.ownerId, outcome: fill.orderOutcome, shares, spent, left, done };
  });
  let orderRows: TPredictionOrderRow[] = [];
  if (filled.length) {
    const ts = at.toISOString();
    orderRows = await tx
      .update(predictionOrders)
      .set({
        filledAmount: sql`${predictionOrders.filledAmount} + f.spent::numeric`,
        shares: sql`${predictionOrders.shares} + f.shares::numeric`,
        status: sql`case when f.done = 'true' then 'filled' else 'partially_filled' end`,
        closedAt: sql`case when f.done = 'true' then ${ts}::timestamptz end`,
        updatedAt: at,
      })
      .from(sql`${unnestSql('f', {
        id: filled.map((f) => f.orderId),
        spent: filled.map((f) => toDecimalString(f.spent)),
        shares: filled.map((f) => toDecimalString(f.shares)),
        done: filled.map((f) => String(f.done)),
      })}`)
      .where(sql`${predictionOrders.id} = f.id`)
      .returning();
    if (orderRows.length !== filled.length) throw new Error('orders: a resting order vanished under the market lock');
    // One position per owner and outcome (an owner may have several orders filled).
    const holdings = new Map<string, { userId: string; outcome: TOutcome; shares: TDecimal; cost: TDecimal }>();
    for (const f of filled) {
      const k = `${f.ownerId}|${f.outcome}`;
      const h = holdings.get(k) ?? { userId: f.ownerId, outcome: f.outcome, shares: dec(0), cost: dec(0) };
      holdings.set(k, { ...h, shares: h.shares.plus(f.shares), cost: h.cost.plus(f.spent) });
    }
    const list = [...holdings.values()];
    const positions = rowsOf<{ id: string; user_id: string; side: TOutcome }>(
      await tx.execute(sql`
        insert into ${marketPositions} (id, user_id, market_id, side, shares, cost_basis, created_at, updated_at)
        select gen_random_uuid()::text, h.user_id, ${market.id}, h.side, h.shares::numeric, h.cost::numeric, ${ts}::timestamptz, ${ts}::timestamptz
        from ${unnestSql('h', {
          user_id: list.map((h) => h.userId),
          side: list.map((h) => h.outcome),
          shares: list.map((h) => toDecimalString(h.shares)),
          cost: list.map((h) => toDecimalString(h.cost)),
        })}
        on conflict (user_id, market_id, side) do update set
          shares = ${marketPositions}.shares + excluded.shares,
          cost_basis = ${marketPositions}.cost_basis + excluded.cost_basis,
          updated_at = excluded.updated_at
        returning id, user_id, side`),
    );
    const positionOf = new Map(positions.map((p) => [`${p.user_id}|${p.side}`, p.id]));
    await tx.insert(trades).values(
      filled.map((f) => ({
        userId: f.ownerId,
        marketId: market.id,
        positionId: positionOf.get(`${f.ownerId}|${f.outcome}`)!,
        side: f.outcome,
        action: 'buy' as const,
        amount: toDecimalString(f.spent),
        shares: toDecimalString(f.shares),
        price: f.spent.div(f.shares).toDecimalPlaces(18).toFixed(),
        feeTotal: '0',
        feePlatform: '0',
        feeReferrer: '0',
        yesPriceAfter: yesAfter,
        orderId: f.orderId,
        createdAt: at,
      })),
    );
    for (const f of filled) {
      if (f.done) {
        closedByOutcome[f.outcome] += 1;
        if (f.left.gt(0)) {
          changes.push({
            userId: f.ownerId,
            amount: f.left,
            type: 'order_refund',
            description: `Refund of a filled limit order's rest in "${o.text}"`,
            reference: { type: 'prediction_order', id: f.orderId },
          });
        }
      }
      filledNotices.push({ userId: f.ownerId, orderId: f.orderId, outcome: f.outcome, shares: f.shares, spent: f.spent, done: f.done });
    }
  }

  const moved = match.fills.some((f) => f.counterparty === 'maker');
  const [updated] = await tx
    .update(markets)
    .set({
      ...(moved ? poolColumns(pool) : {}),
      volume: sql`${markets.volume} + ${toDecimalString(o.volume)}::numeric`,
      openYesOrders: sql`${markets.openYesOrders} - ${closedByOutcome.YES}`,
      openNoOrders: sql`${markets.openNoOrders} - ${closedByOutcome.NO}`,
    })
    .where(sql`${markets.id} = ${market.id}`)
    .returning();

  if (perOrder.size) {
    for (const r of orderRows) updates.push({ userId: r.userId, event: r.status === 'filled' ? 'filled' : 'partially_filled', order: predictionOrderDto(r) });
    await emitOrderUpdates(tx, updates);
    await notifyOrderFills(tx, { marketId: market.id, text: o.text, fills: filledNotices, at });
    await emitOrderBookChanged(tx, market.id);
  }
  if (moved || perOrder.size) {
    await recordPricePoint(tx, updated!, 'trade');
    await emitMarketUpdate(tx, updated!);
  }
  return { market: updated!, changes, orderFills, makerFee };
}

/**
 * The taker's side of a buy the engine matched (a limit order's immediate fills, a market buy
 * that met orders): its position and trade (when it bought anything), its `pred_buy` debit and any
 * `extra` change of its own (a limit order's reservation), the referrer's share of the maker's fee,
 * and the resting orders' refunds, all applied in user id order. Answers the position id (null
 * when nothing was bought), the fee split and the taker's balance after its last change.
 */
export async function settleTakerBuy(
  tx: Tx,
  o: {
    caller: TCaller;
    marketId: string;
    outcome: TOutcome;
    match: TMatch;
    settled: TSettled;
    at: Date;
    description: string;
    orderId?: string;
    extra?: TBalanceChange;
  },
) {
  const { caller, marketId, outcome, match, settled, at } = o;
  const parties = { payerId: caller.userId, referrerId: caller.referredById };
  const fee = referralShare(settled.makerFee, parties);
  const referrerId = referralEarner(parties);
  let positionId: string | null = null;
  if (match.used.gt(0)) {
    positionId = await upsertPosition(tx, { userId: caller.userId, marketId, outcome, shares: match.got, cost: match.used, at });
    await tx.insert(trades).values({
      userId: caller.userId,
      marketId,
      positionId,
      side: outcome,
      action: 'buy',
      amount: toDecimalString(match.used),
      shares: toDecimalString(match.got),
      price: match.used.div(match.got).toDecimalPlaces(18).toFixed(),
      feeTotal: toDecimalString(settled.makerFee),
      feePlatform: toDecimalString(fee.rest),
      feeReferrer: toDecimalString(fee.share),
      yesPriceAfter: prices(toPool(settled.market)).yes.toDecimalPlaces(18).toFixed(),
      orderId: o.orderId ?? null,
      apiKeyId: caller.apiKeyId ?? null,
      createdAt: at,
    });
  }
  const changes: TBalanceChange[] = [...settled.changes];
  const mine: number[] = [];
  if (match.used.gt(0)) {
    mine.push(changes.length);
    changes.push({ userId: caller.userId, amount: match.used.negated(), type: 'pred_buy', description: o.description, reference: { type: 'market', id: marketId } });
  }
  if (o.extra) {
    mine.push(changes.length);
    changes.push(o.extra);
  }
  const referralIdx = referrerId && fee.share.gt(0) ? changes.length : -1;
  if (referralIdx >= 0) changes.push({ userId: referrerId!, amount: fee.share, type: 'referral_fee', description: 'Referral share of a trading fee', reference: { type: 'market', id: marketId } });
  const results = await applyChanges(tx, changes);
  if (referralIdx >= 0) {
    await recordReferralFee(tx, { referrerId: referrerId!, referredUserId: caller.userId, source: 'predictions', amount: fee.share, transactionId: results[referralIdx]!.transactionId, at });
  }
  const last = mine.length ? results[mine[mine.length - 1]!]!.balanceAfter : null;
  return { positionId, fee, balanceAfter: last };
}

/** Adds shares (and what they cost) to a holder's position of one outcome; answers its id. */
export async function upsertPosition(tx: Tx, p: { userId: string; marketId: string; outcome: TOutcome; shares: TDecimal; cost: TDecimal; at: Date }) {
  const [row] = rowsOf<{ id: string }>(
    await tx.execute(sql`
      insert into ${marketPositions} (id, user_id, market_id, side, shares, cost_basis, created_at, updated_at)
      values (${crypto.randomUUID()}, ${p.userId}, ${p.marketId}, ${p.outcome}, ${toDecimalString(p.shares)}::numeric, ${toDecimalString(p.cost)}::numeric,
        ${p.at.toISOString()}::timestamptz, ${p.at.toISOString()}::timestamptz)
      on conflict (user_id, market_id, side) do update set
        shares = ${marketPositions}.shares + excluded.shares,
        cost_basis = ${marketPositions}.cost_basis + excluded.cost_basis,
        updated_at = excluded.updated_at
      returning id`),
  );
  return row!.id;
}

/** Credits only (refunds, proceeds, referral shares), in user id order: adding never overdraws. */
export async function creditAll(tx: Tx, changes: readonly TBalanceChange[]): Promise<TBalanceChangeResult[]> {
  const order = changes.map((c, i) => ({ c, i })).sort((a, b) => (a.c.userId < b.c.userId ? -1 : a.c.userId > b.c.userId ? 1 : a.i - b.i));
  const out: TBalanceChangeResult[] = new Array(changes.length);
  for (const { c, i } of order) out[i] = await credit(tx, c);
  return out;
}

/** Applies balance changes in user id order (then in the order given); answers each result by index. */
export async function applyChanges(tx: Tx, changes: readonly TBalanceChange[]): Promise<TBalanceChangeResult[]> {
  const order = changes.map((c, i) => ({ c, i })).sort((a, b) => (a.c.userId < b.c.userId ? -1 : a.c.userId > b.c.userId ? 1 : a.i - b.i));
  const out: TBalanceChangeResult[] = new Array(changes.length);
  for (const { c, i } of order) out[i] = await applyBalanceChange(tx, c);
  return out;
}
