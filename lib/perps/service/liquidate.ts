/**
 * The liquidation sweep: ONE set-based statement closes every open position whose liquidation
 * price the mark has reached (of one ticker, or of all), as `liquidated`: the margin is lost (no
 * credit; it left the balance at open), the loss is booked to lifetimePnL, a liquidation trade and
 * a notification (with the funding the position paid or received) are written.
 * The liquidation price counts the funding accrued since the position opened: it is the stored
 * liquidation_key plus liquidationShift(the ticker's funding index) (lib/perps/math), so the mark
 * reaches it when key ≥ mark − shift(index) for a long, key ≤ mark − shift(index) for a short:
 * one range per ticker and side of the partial index perp_positions_liquidation_idx, whether the
 * mark moved or only the funding index did. The accrual is settled into the position's row.
 * A position closes once: the update re-checks status = 'open' under the row lock, so a close
 * racing a sweep loses or wins as a whole. Its open orders are cancelled in the same statement.
 * `liquidateTicker` first fires the perp orders the mark has reached (order-triggers.ts), and the
 * sweep skips a position whose open stop-loss or take-profit the mark fires, so a crossed stop
 * always closes its position before a liquidation at the same mark.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { executePrepared, rowsOf, type DbOrTx } from '@/db/client';
import { notifications, perpMarkets, perpOrders, perpPositions, perpTrades } from '@/db/schema';
import { deliveryFor, wantsNotice } from '@/db/notification-delivery';
import { now } from '@/lib/clock/clock';
import { realizedPnLBookingCte } from '@/lib/ledger/ledger';
import { outboxChannelCtes, outboxNotified } from '@/lib/events/outbox';
import { perpLiquidationCtes } from './events';
import { cancelPositionOrdersCte, crossedSql, orderUpdateRowsSql } from './order-sql';
import { firePerpOrders } from './order-triggers';
import { accruedFundingSql, effectiveLiquidationPriceSql, liquidationShiftSql, pricePnLSql } from './sql';

const money = (x: string) => sql.raw(`trim(to_char(round(abs(${x}), 2), 'FM999,999,999,990.00'))`);

/**
 * What a liquidation records beside the position, as CTEs over `liq` (the liquidated positions:
 * id, user_id, ticker, side, units, leverage, exit_price, net_pnl, funding_paid): `trade`, its
 * perp_trades row (the notional at the liquidation price, as a close records it: units × exit),
 * and `note`, the owner's notification. `at` is the time both carry (an expression over `liq` or
 * a timestamp). The sweep below and the backfill's writer (../history.ts) share it.
 */
export function liquidationRecordCtes(at: SQL) {
  return sql`trade as (
      insert into ${perpTrades} (id, user_id, position_id, ticker, side, action, size, price, fee, realized_pnl, created_at)
      select gen_random_uuid()::text, liq.user_id, liq.id, liq.ticker, liq.side, 'liquidation', trunc(liq.units * liq.exit_price, 8), liq.exit_price, 0, liq.net_pnl, ${at}
      from liq
    ),
    note as (
      insert into ${notifications} (id, user_id, type, kind, link, title, message, read, delivery, created_at)
      select gen_random_uuid()::text, liq.user_id, 'system', 'liquidation', '/perps/' || liq.ticker, 'Position liquidated',
        'Your ' || trim(to_char(liq.leverage, 'FM999990.####'), '.') || 'x ' || liq.side || ' on ' || liq.ticker
          || ' was liquidated at ' || trim(to_char(liq.exit_price, 'FM999999999990.00######'), '.') || '. Its margin is lost.'
          || case when liq.funding_paid > 0 then ' It had paid ' || ${money('liq.funding_paid')} || ' in funding.'
            when liq.funding_paid < 0 then ' It had received ' || ${money('liq.funding_paid')} || ' in funding.' else '' end,
        false, ${deliveryFor(sql`liq.user_id`, sql`'liquidation'`)}, ${at}
      from liq
      where ${wantsNotice(sql`liq.user_id`, sql`'liquidation'`)}
    )`;
}

export function buildSweepStatement(opts: { ticker?: string; at: Date }) {
  const ts = sql`${opts.at.toISOString()}::timestamptz`;
  const tickerFilter = opts.ticker ? sql`m.ticker = ${opts.ticker}` : sql`true`;
  const p = sql.raw('p');
  return sql`
    with m as (
      select ticker, mark_price, funding_index,
        mark_price - ${liquidationShiftSql(sql`'long'`, sql`funding_index`)} as long_reach,
        mark_price - ${liquidationShiftSql(sql`'short'`, sql`funding_index`)} as short_reach
      from ${perpMarkets} m where ${tickerFilter}
    ),
    -- One index range per ticker and side (an OR of both sides in one scan would read every position).
    reached as (
      select c.id from m cross join lateral (
        select p.id from ${perpPositions} p
        where p.ticker = m.ticker and p.side = 'long' and p.status = 'open' and p.liquidation_key >= m.long_reach
        union all
        select p.id from ${perpPositions} p
        where p.ticker = m.ticker and p.side = 'short' and p.status = 'open' and p.liquidation_key <= m.short_reach
      ) c
    ),
    liq as (
      update ${perpPositions} p set
        status = 'liquidated',
        exit_price = m.mark_price,
        realized_pnl = ${pricePnLSql(sql`${p}.side`, sql`${p}.units`, sql`${p}.entry_price`, sql`m.mark_price`)},
        net_pnl = -(p.margin + p.open_fee),
        close_fee = 0,
        -- The funding accrued since the entry index, settled (the collateral is lost all the same).
        collateral = p.collateral - ${accruedFundingSql(sql`${p}.side`, sql`${p}.units`, sql`m.funding_index`, sql`${p}.funding_index_entry`)},
        funding_paid = p.funding_paid + ${accruedFundingSql(sql`${p}.side`, sql`${p}.units`, sql`m.funding_index`, sql`${p}.funding_index_entry`)},
        liquidation_price = ${effectiveLiquidationPriceSql(sql`${p}.side`, sql`${p}.liquidation_key`, sql`m.funding_index`)},
        funding_index_entry = m.funding_index,
        closed_at = ${ts},
        updated_at = ${ts}
      from m
      -- By primary key (an array, so the plan never hashes a whole ticker), and checked again on the
      -- locked row: a close that committed meanwhile leaves nothing to liquidate.
      where p.id = any(array(select id from reached)) and p.ticker = m.ticker and p.status = 'open'
        and ((p.side = 'long' and p.liquidation_key >= m.long_reach) or (p.side = 'short' and p.liquidation_key <= m.short_reach))
        -- A stop-loss or take-profit this mark fires closes the position first (order-triggers.ts,
        -- which liquidateTicker runs before this): a sweep racing that pass leaves it alone.
        and not exists (
          select 1 from ${perpOrders} po
          where po.position_id = p.id and po.status = 'open' and po.type <> 'limit' and ${crossedSql('po', sql`m.mark_price`)}
        )
      returning p.id, p.user_id, p.ticker, p.side, p.size, p.units, p.leverage, p.exit_price, p.net_pnl, p.funding_paid
    ),
    ${realizedPnLBookingCte({ name: 'booked', source: sql`(select user_id, net_pnl as pnl from liq)`, at: opts.at })},
    ${liquidationRecordCtes(ts)},
    ${perpLiquidationCtes('liq')},
    ${cancelPositionOrdersCte({ name: 'orders_off', closedPositions: 'liq', note: 'its position was liquidated', at: opts.at })},
    ${outboxChannelCtes('order_event', 'order_update', orderUpdateRowsSql('orders_off', sql`'cancelled'`, opts.at))}
    select id, user_id, ticker, ${outboxNotified('event')} as notified, ${outboxNotified('order_event')} as orders_notified from liq`;
}

/**
 * Fires the perp orders the current mark of `ticker` (or of every ticker) has reached
 * (order-triggers.ts: stop-losses and take-profits first), then liquidates what it has reached.
 * Returns the liquidated positions.
 */
export async function liquidateTicker(ticker?: string, db?: DbOrTx) {
  await firePerpOrders({ ticker, at: now(), db });
  const statement = buildSweepStatement({ ticker, at: now() });
  const rows = rowsOf<{ id: string; user_id: string; ticker: string }>(await (db ? db.execute(statement) : executePrepared(statement)));
  const closed = rows.map((r) => ({ id: r.id, userId: r.user_id, ticker: r.ticker }));
  return closed;
}

/**
 * The sweep after a trade has committed. The trade stands whatever happens here, so a failure
 * (a deadlock with another sweep, say) is logged, not answered: the next price change or tick
 * sweeps again.
 */
export async function liquidateAfterTrade(ticker: string) {
  try {
    await liquidateTicker(ticker);
  } catch (e) {
    console.error(`[perps] liquidation sweep of ${ticker} after a trade failed; the next tick retries:`, e);
  }
}
