/**
 * Closing a perpetual position in ONE SQL statement:
 *   pos:    lock the caller's position, only while it is open
 *   mkt:    lock its ticker
 *   funded: the funding accrued since its entry index (units × index difference), settled here:
 *           collateral and funding paid as of the ticker's funding index
 *   calc:   fill after impact, price PnL, closing fee, the two ledger legs (lib/perps/math in SQL)
 *   then the mark move, the position's final state, its open stop-loss and take-profit orders
 *   cancelled (order_update to the owner), the settlement (perp_close and the funding settlement as
 *   funding_paid, one balance update), the trade and a price point; and whether the new mark
 *   reached a position or fired an order (sql.ts sweepDueCte): only then does the liquidation
 *   sweep run after the commit.
 * A position with no open stop-loss or take-profit (most) is closed by the statement without the
 * cancellation (`withOrders: false`, guarded by the absence of such orders under the same snapshot
 * as the cancellation reads); one with any is left untouched by it, and the full statement runs.
 * Whichever close path runs, and however many at once, the position closes exactly once: the lock
 * and `status = 'open'` admit one statement, the others find nothing to close.
 */
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { executePrepared, getDb, rowsOf } from '@/db/client';
import { organizations, perpMarkets, perpOrders, perpPositions, perpPricePoints, perpTrades, users, type TPerpPositionRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { settlementCtes } from '@/lib/ledger/ledger';
import { referralFeeSqlCtes } from '@/lib/referrals/fees';
import { referralEarner } from '@/lib/referrals/share';
import { referralShareSql } from '@/lib/referrals/sql';
import { toDecimalString, toNumber } from '@/lib/money/decimal';
import { toPerpPositionDto } from '../dto';
import { outboxCtes, outboxNotified } from '@/lib/events/outbox';
import { perpUpdateCtes } from './events';
import { liquidateAfterTrade } from './liquidate';
import { cancelPositionOrdersCte, orderUpdateRowsSql } from './order-sql';
import { accruedFundingSql, closeFeeSql, fillPriceSql, impactSql, liquidationPriceSql, pricePnLSql, sweepDueCte } from './sql';

/** Whether the position has an open order attached (perp_orders_position_idx). */
const openOrdersOf = (positionId: string) => sql`exists (select 1 from ${perpOrders} po where po.position_id = ${positionId} and po.status = 'open')`;

export function buildCloseStatement(o: {
  userId: string;
  positionId: string;
  at: Date;
  /** The trader's referrer, who earns half of the closing fee actually collected. */
  referrerId?: string | null;
  /**
   * false: the statement for a position with no open stop-loss or take-profit, without the
   * order cancellation: it closes the position only while none is open (else it writes nothing and
   * answers has_orders), so the caller then issues the full statement.
   */
  withOrders?: boolean;
}) {
  const withOrders = o.withOrders ?? true;
  const ts = sql`${o.at.toISOString()}::timestamptz`;
  const settlement = settlementCtes({
    name: 'paid',
    userId: o.userId,
    legs: [
      { transactionId: crypto.randomUUID(), type: 'perp_close', amount: sql`(select close_credit from calc)`, description: 'Closed a perpetual position' },
      { transactionId: crypto.randomUUID(), type: 'funding_paid', amount: sql`(select funding_credit from calc)`, description: 'Funding settled on close' },
    ],
    realizedPnL: sql`(select net from calc)`,
    reference: { type: 'perp_position', id: o.positionId },
    at: o.at,
    guard: sql`exists (select 1 from calc)`,
  });
  const referrerId = referralEarner({ payerId: o.userId, referrerId: o.referrerId });
  const referral = referrerId
    ? sql`, ${referralFeeSqlCtes({
        name: 'referral',
        referrerId,
        referredUserId: o.userId,
        source: 'perps',
        // Half of the fee the close collected: what the position had left covers it, or part of it.
        amount: sql`coalesce((select ${referralShareSql(sql`least(calc.fee, greatest(0, calc.collateral + calc.pnl))`)} from calc), 0)`,
        description: 'Referral share of a perpetual trading fee',
        reference: { type: 'perp_position', id: o.positionId },
        at: o.at,
        guard: sql`exists (select 1 from closed)`,
      })}`
    : sql``;
  // funded, c1 and c2 are MATERIALIZED: inlined, each reference to exit, pnl and fee in calc would
  // copy the whole expression beneath it (planned and evaluated again each time).
  const statement = sql`
    with pos as (
      select * from ${perpPositions} where id = ${o.positionId} and user_id = ${o.userId} and status = 'open'${withOrders ? sql`` : sql`
        and not ${openOrdersOf(o.positionId)}`} for update
    ),
    mkt as (
      select m.ticker, m.mark_price, m.depth, m.funding_index, m.xmin::text as version from ${perpMarkets} m where m.ticker = (select ticker from pos) for update
    ),
    funded as materialized (
      select pos.id, pos.user_id, pos.ticker, pos.side, pos.units, pos.entry_price, pos.margin, pos.open_fee,
        pos.collateral - a.accrued as collateral, pos.funding_paid + a.accrued as funding_paid, mkt.funding_index
      from pos, mkt,
        lateral (select ${accruedFundingSql(sql`pos.side`, sql`pos.units`, sql`mkt.funding_index`, sql`pos.funding_index_entry`)} as accrued) a
    ),
    c1 as materialized (
      select funded.*, x.notional, ${fillPriceSql(sql`mkt.mark_price`, sql`funded.side = 'short'`, impactSql(sql`x.notional`, sql`mkt.depth`))} as exit
      from funded, mkt, lateral (select trunc(funded.units * mkt.mark_price, 8) as notional) x
    ),
    c2 as materialized (
      select c1.*, ${pricePnLSql(sql`c1.side`, sql`c1.units`, sql`c1.entry_price`, sql`c1.exit`)} as pnl,
        ${closeFeeSql(sql`c1.units`, sql`c1.exit`)} as fee
      from c1
    ),
    calc as (
      select c2.*, greatest(0, c2.margin + c2.pnl - c2.fee) as close_credit,
        greatest(0, c2.collateral + c2.pnl - c2.fee) - greatest(0, c2.margin + c2.pnl - c2.fee) as funding_credit,
        greatest(0, c2.collateral + c2.pnl - c2.fee) - c2.margin - c2.open_fee as net
      from c2
    ),
    moved as (
      update ${perpMarkets} set mark_price = calc.exit, volume = ${perpMarkets}.volume + calc.notional, updated_at = ${ts}
      from calc where ${perpMarkets}.ticker = calc.ticker
      returning ${perpMarkets}.ticker, ${perpMarkets}.mark_price
    ),
    ${perpUpdateCtes('moved', o.at)},
    closed as (
      update ${perpPositions} set status = 'closed', exit_price = calc.exit, realized_pnl = calc.pnl, close_fee = calc.fee,
        net_pnl = calc.net, collateral = calc.collateral, funding_paid = calc.funding_paid, funding_index_entry = calc.funding_index,
        liquidation_price = ${liquidationPriceSql(sql`calc.side`, sql`calc.entry_price`, sql`calc.units`, sql`calc.collateral`)},
        closed_at = ${ts}, updated_at = ${ts}
      from calc where ${perpPositions}.id = calc.id
      returning ${perpPositions}.*
    ),
    ${
      withOrders
        ? sql`${cancelPositionOrdersCte({ name: 'orders_off', closedPositions: 'closed', note: 'its position was closed', at: o.at })},
    ${outboxCtes('order_event', `user:${o.userId}`, 'order_update', orderUpdateRowsSql('orders_off', sql`'cancelled'`, o.at))},`
        : sql``
    }
    ${settlement},
    trade as (
      insert into ${perpTrades} (id, user_id, position_id, ticker, side, action, size, price, fee, realized_pnl, created_at)
      select ${crypto.randomUUID()}, calc.user_id, calc.id, calc.ticker, calc.side, 'close', calc.notional, calc.exit, calc.fee, calc.net, ${ts}
      from calc
    ),
    org as (
      select o.name, o.current_price from ${organizations} o where o.ticker = (select ticker from mkt)
    ),
    point as (
      insert into ${perpPricePoints} (id, ticker, mark_price, index_price, source, created_at)
      select ${crypto.randomUUID()}, moved.ticker, moved.mark_price, org.current_price, 'trade', ${ts}
      from moved, org
    ),
    ${sweepDueCte({ locked: 'mkt', moved: 'moved' })}${referral}
    select (select virtual_balance from paid) as balance_after, (select name from org) as org_name,
      ${outboxNotified('event')} as notified, ${withOrders ? sql`${outboxNotified('order_event')} as orders_notified` : sql`case when closed.id is null then ${openOrdersOf(o.positionId)} end as has_orders`},
      (select due from sweep_due) as sweep_due, closed.*
    from (select 1) one left join closed on true`;
  return { statement };
}

type TClosedRow = { balance_after: string | null; org_name: string | null; sweep_due: boolean | null; has_orders?: boolean | null } & Record<string, unknown>;

const fromRaw = (r: Record<string, unknown>): TPerpPositionRow => {
  const d = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    id: String(r.id),
    userId: String(r.user_id),
    ticker: String(r.ticker),
    side: r.side as 'long' | 'short',
    size: String(r.size),
    units: String(r.units),
    entryPrice: String(r.entry_price),
    leverage: String(r.leverage),
    margin: String(r.margin),
    collateral: String(r.collateral),
    fundingPaid: String(r.funding_paid),
    liquidationPrice: String(r.liquidation_price),
    fundingIndexEntry: String(r.funding_index_entry),
    liquidationKey: String(r.liquidation_key),
    openFee: String(r.open_fee),
    closeFee: s(r.close_fee),
    exitPrice: s(r.exit_price),
    realizedPnL: s(r.realized_pnl),
    netPnL: s(r.net_pnl),
    status: r.status as TPerpPositionRow['status'],
    liquidationWarnedAt: d(r.liquidation_warned_at),
    apiKeyId: s(r.api_key_id),
    openedAt: d(r.opened_at)!,
    closedAt: d(r.closed_at),
    updatedAt: d(r.updated_at)!,
  };
};

/** Closes the caller's position: 404 unknown, 403 someone else's, POSITION_CLOSED already closed. */
export async function closePosition(input: { caller: TCaller; positionId: string }) {
  const { caller } = input;
  const db = await getDb();
  const close = (withOrders: boolean) =>
    buildCloseStatement({ userId: caller.userId, positionId: input.positionId, at: now(), referrerId: caller.referredById, withOrders }).statement;
  // Most positions carry no stop-loss or take-profit: the statement without the cancellation runs
  // first; when the position has an open order it wrote nothing, and the full statement closes it.
  let row = rowsOf<TClosedRow>(await executePrepared(close(false)))[0]!;
  if (row.has_orders === true) row = rowsOf<TClosedRow>(await executePrepared(close(true)))[0]!;
  if (row.id === null || row.id === undefined) {
    const [p] = await db.select({ userId: perpPositions.userId, status: perpPositions.status }).from(perpPositions).where(eq(perpPositions.id, input.positionId));
    if (!p) throw new AppError('NOT_FOUND', 'Position not found', { positionId: input.positionId });
    if (p.userId !== caller.userId) throw new AppError('FORBIDDEN', 'This position belongs to another user');
    throw new AppError('POSITION_CLOSED', p.status === 'liquidated' ? 'This position was liquidated' : 'This position is already closed', {
      positionId: input.positionId,
      status: p.status,
    });
  }
  const pos = fromRaw(row);
  // The fill moved the mark: the sweep runs when the statement found something due, or could not tell.
  if (row.sweep_due !== false) await liquidateAfterTrade(pos.ticker);
  let balance = row.balance_after;
  if (balance === null) {
    const [u] = await db.select({ b: users.virtualBalance }).from(users).where(eq(users.id, caller.userId));
    balance = u?.b ?? '0';
  }
  return {
    positionId: pos.id,
    // Closed: its funding is settled in the row.
    position: toPerpPositionDto(pos, { markPrice: pos.exitPrice!, name: row.org_name ?? pos.ticker, fundingIndex: null }),
    exitPrice: toNumber(pos.exitPrice!),
    realizedPnL: toNumber(pos.realizedPnL!),
    fundingPaid: toNumber(pos.fundingPaid),
    fee: toNumber(pos.closeFee!),
    netPnL: toNumber(pos.netPnL!),
    newBalance: toDecimalString(balance),
    closedAt: pos.closedAt!.toISOString(),
  };
}
