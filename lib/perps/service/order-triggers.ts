/**
 * The trigger pass: the perp orders the marks have reached fire, each in ONE SQL statement, before
 * the liquidation sweep (liquidate.ts `liquidateTicker` runs this first), so a crossed stop-loss
 * closes its position before the sweep can liquidate it at the same mark. The sweep runs after
 * every mark change (each trade's fill, the admin price, the tick's price step, arbitrage and pool
 * trades) and on every tick, so this pass does too.
 *
 * Finding them: one range of the partial index perp_orders_trigger_idx (ticker, fires_when,
 * trigger_price) where status = 'open' per ticker and direction: `below` orders with
 * trigger_price ≥ mark, `above` ones with trigger_price ≤ mark. The cost grows with what fires,
 * not with what rests. They fire stops and take-profits first, then limit orders, oldest first
 * (lib/perps/orders.ts ordersToFire).
 *
 * Firing one, in one statement that re-checks everything under its locks (lock order as the
 * close's: position, ticker, orders, users):
 * - a stop-loss or take-profit locks its position while open, then the ticker, claims the order
 *   while it is open and the locked mark still crosses it, and closes all of the position, or
 *   `size` of it, at that mark without impact (lib/perps/orders.ts quoteTriggerClose): the
 *   position's final or reduced state, the settlement (perp_close and the funding settlement, as
 *   a close pays), the trade, the referrer's share of the fee, a notification; when it closed all
 *   of the position, the position's other open orders are cancelled. If the position was closed
 *   or liquidated meanwhile, the order is `cancelled` with a note and nothing else happens.
 * - a limit order locks the ticker, claims the order, and opens its position at the mark without
 *   impact with the reserved money: the reserve is released (perp_order_refund) and the open
 *   charged (perp_open), two ledger rows of one balance update that sum to zero.
 * Each writes `order_update` to its owner's channel. A manual close racing a stop closes the
 * position once: both lock the position and require status = 'open'.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { executePrepared, rowsOf, type DbOrTx } from '@/db/client';
import { notifications, perpMarkets, perpOrders, perpPositions, perpTrades, users } from '@/db/schema';
import { deliveryFor, wantsNotice } from '@/db/notification-delivery';
import { outboxCtes, outboxNotified } from '@/lib/events/outbox';
import { settlementCtes } from '@/lib/ledger/ledger';
import { dec } from '@/lib/money/decimal';
import { referralFeeCtes, referralFeeSqlCtes } from '@/lib/referrals/fees';
import { referralEarner, referralShare } from '@/lib/referrals/share';
import { referralShareSql } from '@/lib/referrals/sql';
import type { TPerpSide } from '../math';
import { ordersToFire, type TFiresWhen, type TPerpOrderType } from '../orders';
import { cancelPositionOrdersCte, crossedSql, orderUpdateRowsSql } from './order-sql';
import { accruedFundingSql, closeFeeSql, div, liquidationPriceSql, pricePnLSql } from './sql';

/** At most this many orders fire in one pass; the rest fire on the next (the tick's at the latest). */
const MAX_FIRES_PER_PASS = 500;

type TCandidate = {
  id: string;
  seq: number;
  userId: string;
  ticker: string;
  type: TPerpOrderType;
  side: TPerpSide;
  size: string | null;
  leverage: string | null;
  margin: string | null;
  reserved: string;
  triggerPrice: string;
  firesWhen: TFiresWhen;
  positionId: string | null;
  markPrice: string;
  referrerId: string | null;
};

/** The open orders each ticker's mark fires (of `ticker`, or of all), two index ranges per ticker. */
function candidatesStatement(ticker?: string) {
  const tickerFilter = ticker ? sql`m.ticker = ${ticker}` : sql`true`;
  return sql`
    select o.id, o.seq, o.user_id, o.ticker, o.type, o.side, o.size, o.leverage, o.margin, o.reserved, o.trigger_price,
      o.fires_when, o.position_id, m.mark_price, u.referred_by_id
    from ${perpMarkets} m cross join lateral (
      select po.* from ${perpOrders} po
      where po.ticker = m.ticker and po.status = 'open' and po.fires_when = 'below' and po.trigger_price >= m.mark_price
      union all
      select po.* from ${perpOrders} po
      where po.ticker = m.ticker and po.status = 'open' and po.fires_when = 'above' and po.trigger_price <= m.mark_price
    ) o
    join ${users} u on u.id = o.user_id
    where ${tickerFilter}
    limit ${MAX_FIRES_PER_PASS}`;
}

type TRawCandidate = {
  id: string;
  seq: string | number;
  user_id: string;
  ticker: string;
  type: TPerpOrderType;
  side: TPerpSide;
  size: string | null;
  leverage: string | null;
  margin: string | null;
  reserved: string;
  trigger_price: string;
  fires_when: TFiresWhen;
  position_id: string | null;
  mark_price: string;
  referred_by_id: string | null;
};

const candidateOf = (r: TRawCandidate): TCandidate => ({
  id: r.id,
  seq: Number(r.seq),
  userId: r.user_id,
  ticker: r.ticker,
  type: r.type,
  side: r.side,
  size: r.size === null ? null : String(r.size),
  leverage: r.leverage === null ? null : String(r.leverage),
  margin: r.margin === null ? null : String(r.margin),
  reserved: String(r.reserved),
  triggerPrice: String(r.trigger_price),
  firesWhen: r.fires_when,
  positionId: r.position_id,
  markPrice: String(r.mark_price),
  referrerId: r.referred_by_id,
});

/** Money for a notice: 1,234.56 (absolute value). */
const moneyText = (x: string) => sql.raw(`trim(to_char(round(abs(${x}), 2), 'FM999,999,999,990.00'))`);
/** A price for a notice: up to 8 places, no trailing zeros (FM drops them, then the bare point). */
const priceText = (x: string) => sql.raw(`rtrim(to_char(${x}, 'FM999999999990.99999999'), '.')`);
const leverageText = (x: string) => sql.raw(`rtrim(to_char(${x}, 'FM999990.9999'), '.')`);

/** A stop-loss or take-profit, fired: see the header. Exported for the tests' concurrency cases. */
export function buildStopFireStatement(c: TCandidate, at: Date) {
  if (!c.positionId) throw new Error(`perp order ${c.id}: a ${c.type} without a position`);
  const ts = sql`${at.toISOString()}::timestamptz`;
  const label = c.type === 'stop_loss' ? 'Stop-loss' : 'Take-profit';
  const settlement = settlementCtes({
    name: 'paid',
    userId: c.userId,
    legs: [
      { transactionId: crypto.randomUUID(), type: 'perp_close', amount: sql`(select close_credit from calc)`, description: `${label} closed a perpetual position` },
      { transactionId: crypto.randomUUID(), type: 'funding_paid', amount: sql`(select funding_credit from calc)`, description: 'Funding settled on close' },
    ],
    realizedPnL: sql`(select net from calc)`,
    reference: { type: 'perp_position', id: c.positionId },
    at,
    guard: sql`exists (select 1 from closed)`,
  });
  const referrerId = referralEarner({ payerId: c.userId, referrerId: c.referrerId });
  const referral = referrerId
    ? sql`, ${referralFeeSqlCtes({
        name: 'referral',
        referrerId,
        referredUserId: c.userId,
        source: 'perps',
        amount: sql`coalesce((select ${referralShareSql(sql`least(calc.fee, greatest(0, calc.c_collateral + calc.pnl))`)} from calc), 0)`,
        description: 'Referral share of a perpetual trading fee',
        reference: { type: 'perp_position', id: c.positionId },
        at,
        guard: sql`exists (select 1 from closed)`,
      })}`
    : sql``;
  // The closed part of a column: all of it, or its share order_size / size (truncated to `scale`).
  const part = (col: string, scale: number) =>
    sql`case when f.whole then f.${sql.raw(col)} else trunc(${div(sql`f.${sql.raw(col)} * f.order_size`, sql`f.size`)}, ${sql.raw(String(scale))}) end`;
  const statement = sql`
    with pos as (
      select * from ${perpPositions} where id = ${c.positionId} and user_id = ${c.userId} and status = 'open' for update
    ),
    -- The ticker after the position (the close's lock order): its key waits for pos.
    mkt as (
      select m.ticker, m.mark_price, m.funding_index from ${perpMarkets} m
      where m.ticker = coalesce((select ticker from pos), ${c.ticker}) for update
    ),
    ord as (
      update ${perpOrders} o set
        status = case when exists (select 1 from pos) then 'triggered' else 'cancelled' end,
        note = case when exists (select 1 from pos) then null else 'its position was already closed' end,
        triggered_at = ${ts}, updated_at = ${ts}
      from mkt
      where o.id = ${c.id} and o.status = 'open' and ${crossedSql('o', sql`mkt.mark_price`)}
      returning o.*
    ),
    funded as (
      select pos.id, pos.user_id, pos.ticker, pos.side, pos.size, pos.units, pos.entry_price, pos.margin, pos.open_fee, pos.leverage,
        pos.collateral - a.accrued as collateral, pos.funding_paid + a.accrued as funding_paid,
        mkt.funding_index, mkt.mark_price as exit, ord.size as order_size, ord.trigger_price,
        (ord.size is null or ord.size >= pos.size) as whole
      from pos, mkt, ord,
        lateral (select ${accruedFundingSql(sql`pos.side`, sql`pos.units`, sql`mkt.funding_index`, sql`pos.funding_index_entry`)} as accrued) a
      where ord.status = 'triggered'
    ),
    c1 as (
      select f.*,
        case when f.whole then f.size else f.order_size end as c_size,
        ${part('units', 18)} as c_units,
        ${part('margin', 8)} as c_margin,
        ${part('collateral', 8)} as c_collateral,
        ${part('open_fee', 8)} as c_open_fee,
        ${part('funding_paid', 8)} as c_funding_paid
      from funded f
    ),
    c2 as (
      select c1.*, ${pricePnLSql(sql`c1.side`, sql`c1.c_units`, sql`c1.entry_price`, sql`c1.exit`)} as pnl,
        ${closeFeeSql(sql`c1.c_units`, sql`c1.exit`)} as fee, trunc(c1.c_units * c1.exit, 8) as notional,
        c1.units - c1.c_units as n_units, c1.collateral - case when c1.whole then 0 else c1.c_collateral end as n_collateral
      from c1
    ),
    calc as (
      select c2.*, greatest(0, c2.c_margin + c2.pnl - c2.fee) as close_credit,
        greatest(0, c2.c_collateral + c2.pnl - c2.fee) - greatest(0, c2.c_margin + c2.pnl - c2.fee) as funding_credit,
        greatest(0, c2.c_collateral + c2.pnl - c2.fee) - c2.c_margin - c2.c_open_fee as net
      from c2
    ),
    closed as (
      update ${perpPositions} p set
        status = case when calc.whole then 'closed' else 'open' end,
        size = case when calc.whole then p.size else p.size - calc.c_size end,
        units = case when calc.whole then p.units else calc.n_units end,
        margin = case when calc.whole then p.margin else p.margin - calc.c_margin end,
        open_fee = case when calc.whole then p.open_fee else p.open_fee - calc.c_open_fee end,
        collateral = calc.n_collateral,
        funding_paid = calc.funding_paid - case when calc.whole then 0 else calc.c_funding_paid end,
        funding_index_entry = calc.funding_index,
        liquidation_price = ${liquidationPriceSql(sql`calc.side`, sql`calc.entry_price`, sql`case when calc.whole then calc.units else calc.n_units end`, sql`calc.n_collateral`)},
        exit_price = case when calc.whole then calc.exit end,
        realized_pnl = case when calc.whole then calc.pnl end,
        close_fee = case when calc.whole then calc.fee end,
        net_pnl = case when calc.whole then calc.net end,
        closed_at = case when calc.whole then ${ts} end,
        updated_at = ${ts}
      from calc where p.id = calc.id
      returning p.*
    ),
    gone as (select id from closed where status = 'closed'),
    ${cancelPositionOrdersCte({ name: 'orders_off', closedPositions: 'gone', note: `its position was closed by ${label.toLowerCase()} ${c.id}`, at, exceptOrderId: c.id })},
    ${settlement},
    trade as (
      insert into ${perpTrades} (id, user_id, position_id, ticker, side, action, size, price, fee, realized_pnl, created_at)
      select ${crypto.randomUUID()}, calc.user_id, calc.id, calc.ticker, calc.side, 'close', calc.notional, calc.exit, calc.fee, calc.net, ${ts}
      from calc where exists (select 1 from closed)
    ),
    vol as (
      update ${perpMarkets} m set volume = m.volume + calc.notional from calc, closed where m.ticker = calc.ticker
    ),
    note as (
      insert into ${notifications} (id, user_id, type, kind, link, title, message, read, delivery, created_at)
      select gen_random_uuid()::text, calc.user_id, 'system', 'order_triggered', '/perps/' || calc.ticker, ${`${label} triggered`},
        'Your ' || ${label.toLowerCase()} || ' at ' || ${priceText('calc.trigger_price')} || ' closed '
          || case when calc.whole then 'your ' else 'part of your ' end
          || ${leverageText('calc.leverage')} || 'x ' || calc.side || ' on ' || calc.ticker || ' at ' || ${priceText('calc.exit')}
          || case when calc.net < 0 then ', a loss of ' else ', a profit of ' end || ${moneyText('calc.net')} || ' after fees.',
        false, ${deliveryFor(sql`calc.user_id`, sql`'order_triggered'`)}, ${ts}
      from calc, closed
      where ${wantsNotice(sql`calc.user_id`, sql`'order_triggered'`)}
    ),
    ${outboxCtes(
      'order_event',
      `user:${c.userId}`,
      'order_update',
      sql`${orderUpdateRowsSql('ord', sql`s.status`, at)} union all ${orderUpdateRowsSql('orders_off', sql`'cancelled'`, at)}`,
    )}${referral}
    select (select status from ord) as order_status, (select status from closed) as position_status,
      (select net from calc) as net, ${outboxNotified('order_event')} as notified`;
  return statement;
}

/** A limit order, filled: see the header. */
export function buildLimitFillStatement(c: TCandidate, at: Date) {
  if (c.size === null || c.leverage === null || c.margin === null) throw new Error(`perp order ${c.id}: a limit order without size, leverage or margin`);
  const ts = sql`${at.toISOString()}::timestamptz`;
  const positionId = crypto.randomUUID();
  const settlement = settlementCtes({
    name: 'paid',
    userId: c.userId,
    legs: [
      { transactionId: crypto.randomUUID(), type: 'perp_order_refund', amount: sql`(select reserved from ord)`, description: 'Limit order filled: its reserve released' },
      {
        transactionId: crypto.randomUUID(),
        type: 'perp_open',
        amount: sql`-(select reserved from ord)`,
        description: `Opened a ${dec(c.leverage).toFixed()}x ${c.side} on ${c.ticker} (limit order)`,
      },
    ],
    reference: { type: 'perp_position', id: positionId },
    at,
    guard: sql`exists (select 1 from ord)`,
  });
  const parties = { payerId: c.userId, referrerId: c.referrerId };
  const referrerId = referralEarner(parties);
  const { share } = referralShare(dec(c.reserved).minus(c.margin), parties);
  const referral =
    referrerId && share.gt(0)
      ? sql`, ${referralFeeCtes({
          name: 'referral',
          referrerId,
          referredUserId: c.userId,
          source: 'perps',
          amount: share,
          description: `Referral share of a perpetual trading fee on ${c.ticker}`,
          reference: { type: 'perp_position', id: positionId },
          at,
          guard: sql`exists (select 1 from pos)`,
        })}`
      : sql``;
  const statement = sql`
    with mkt as (
      select ticker, mark_price, funding_index from ${perpMarkets} where ticker = ${c.ticker} for update
    ),
    ord as (
      update ${perpOrders} o set status = 'filled', result_position_id = ${positionId}, triggered_at = ${ts}, updated_at = ${ts}
      from mkt
      where o.id = ${c.id} and o.status = 'open' and o.type = 'limit' and ${crossedSql('o', sql`mkt.mark_price`)}
      returning o.*
    ),
    ${settlement},
    calc as (
      select mkt.mark_price as entry, trunc(${div(sql`ord.size`, sql`mkt.mark_price`)}, 18) as units
      from mkt, ord where exists (select 1 from paid)
    ),
    pos as (
      insert into ${perpPositions} (id, user_id, ticker, side, size, units, entry_price, leverage, margin, collateral,
        funding_paid, liquidation_price, funding_index_entry, open_fee, status, api_key_id, opened_at, updated_at)
      select ${positionId}, ord.user_id, ord.ticker, ord.side, ord.size, calc.units, calc.entry, ord.leverage, ord.margin, ord.margin, 0,
        ${liquidationPriceSql(sql`ord.side`, sql`calc.entry`, sql`calc.units`, sql`ord.margin`)},
        mkt.funding_index, ord.reserved - ord.margin, 'open', ord.api_key_id, ${ts}, ${ts}
      from calc, mkt, ord
      returning *
    ),
    trade as (
      insert into ${perpTrades} (id, user_id, position_id, ticker, side, action, size, price, fee, created_at)
      select ${crypto.randomUUID()}, pos.user_id, pos.id, pos.ticker, pos.side, 'open', pos.size, pos.entry_price, pos.open_fee, ${ts}
      from pos
    ),
    vol as (
      update ${perpMarkets} m set volume = m.volume + pos.size from pos where m.ticker = pos.ticker
    ),
    note as (
      insert into ${notifications} (id, user_id, type, kind, link, title, message, read, delivery, created_at)
      select gen_random_uuid()::text, pos.user_id, 'system', 'order_filled', '/perps/' || pos.ticker, 'Limit order filled',
        'Your limit order at ' || ${priceText('ord.trigger_price')} || ' opened a ' || ${leverageText('pos.leverage')} || 'x ' || pos.side
          || ' of ' || ${moneyText('pos.size')} || ' on ' || pos.ticker || ' at ' || ${priceText('pos.entry_price')} || '.',
        false, ${deliveryFor(sql`pos.user_id`, sql`'order_filled'`)}, ${ts}
      from pos, ord
      where ${wantsNotice(sql`pos.user_id`, sql`'order_filled'`)}
    ),
    ${outboxCtes('order_event', `user:${c.userId}`, 'order_update', orderUpdateRowsSql('ord', sql`'filled'`, at))}${referral}
    select (select status from ord) as order_status, (select id from pos) as position_id, ${outboxNotified('order_event')} as notified`;
  return { statement, positionId };
}

export type TFiredOrder = { orderId: string; userId: string; ticker: string; type: TPerpOrderType; status: string; positionId: string | null };

/**
 * Fires what the current marks of `ticker` (or of every ticker) have reached, one statement per
 * order (each re-checks the mark under its locks, so a pass racing another fires each order once).
 * An order that fails to fire is logged and left open: the next pass retries it. Returns the
 * orders it fired or cancelled.
 */
export async function firePerpOrders(opts: { ticker?: string; at: Date; db?: DbOrTx }): Promise<TFiredOrder[]> {
  const run = (statement: ReturnType<typeof sql>) => (opts.db ? opts.db.execute(statement) : executePrepared(statement));
  const candidates = ordersToFire(rowsOf<TRawCandidate>(await run(candidatesStatement(opts.ticker))).map(candidateOf));
  const fired: TFiredOrder[] = [];
  for (const c of candidates) {
    try {
      if (c.type === 'limit') {
        const { statement, positionId } = buildLimitFillStatement(c, opts.at);
        const [row] = rowsOf<{ order_status: string | null; position_id: string | null }>(await run(statement));
        if (row?.order_status) fired.push({ orderId: c.id, userId: c.userId, ticker: c.ticker, type: c.type, status: row.order_status, positionId: row.position_id ? positionId : null });
      } else {
        const [row] = rowsOf<{ order_status: string | null }>(await run(buildStopFireStatement(c, opts.at)));
        if (row?.order_status) fired.push({ orderId: c.id, userId: c.userId, ticker: c.ticker, type: c.type, status: row.order_status, positionId: c.positionId });
      }
    } catch (e) {
      console.error(`[perps] perp order ${c.id} (${c.type} on ${c.ticker}) did not fire; the next pass retries:`, e);
    }
  }
  return fired;
}
