/**
 * Opening a perpetual position in ONE SQL statement:
 *   mkt:    lock the ticker row
 *   debit:  the ledger's conditional debit of margin + fee (perp_open)
 *   calc:   impact, fill price (the new mark), units and liquidation price (lib/perps/math in SQL)
 *   then the mark move, the position (entering at the ticker's funding index: it accrues funding
 *   from here), the trade and a price point.
 * Nothing is written unless the ticker exists and the debit succeeded. The fill moved the mark:
 * the statement also looks whether that reached an open position or fired a perp order
 * (sql.ts sweepDueCte), and after the commit the liquidation sweep runs for the ticker when it did
 * (or when the statement could not tell), not after every trade: two statements saved per trade.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { executePrepared, getDb, rowsOf } from '@/db/client';
import { organizations, perpMarkets, perpPositions, perpPricePoints, perpTrades } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { balanceChangeCtes, insufficientBalance } from '@/lib/ledger/ledger';
import { referralFeeCtes } from '@/lib/referrals/fees';
import { referralEarner, referralShare } from '@/lib/referrals/share';
import { dec, toDecimalString, toNumber } from '@/lib/money/decimal';
import { orderProblem, quoteOpen, type TPerpSide } from '../math';
import { toPerpPositionDto } from '../dto';
import { outboxNotified } from '@/lib/events/outbox';
import { perpUpdateCtes } from './events';
import { liquidateAfterTrade } from './liquidate';
import { fillPriceSql, impactSql, liquidationPriceSql, sweepDueCte } from './sql';

/** The caller opens the position. */
export type TOpenInput = { caller: TCaller; ticker: string; side: TPerpSide; size: number | string; leverage: number | string };

/** The open statement for a validated order. Exported so the benchmark can issue exactly this SQL. */
export function buildOpenStatement(o: {
  userId: string;
  ticker: string;
  side: TPerpSide;
  size: string;
  leverage: string;
  at: Date;
  /** The trader's referrer, who earns half the opening fee. */
  referrerId?: string | null;
  /** The API key the trader opened it with (lib/api-keys), recorded on the position. */
  apiKeyId?: string | null;
}) {
  // Margin and fee depend only on the order: computed here (quoteOpen), not in SQL.
  const q = quoteOpen({ side: o.side, size: o.size, leverage: o.leverage, markPrice: 1, depth: 1 });
  const size = toDecimalString(q.size);
  const margin = toDecimalString(q.margin);
  const fee = toDecimalString(q.fee);
  const ts = sql`${o.at.toISOString()}::timestamptz`;
  const positionId = crypto.randomUUID();
  const debit = balanceChangeCtes({
    name: 'debit',
    transactionId: crypto.randomUUID(),
    userId: o.userId,
    amount: q.cost.negated(),
    type: 'perp_open',
    description: `Opened a ${o.leverage}x ${o.side} on ${o.ticker}`,
    reference: { type: 'perp_position', id: positionId },
    at: o.at,
    guard: sql`exists (select 1 from mkt)`,
  });
  const parties = { payerId: o.userId, referrerId: o.referrerId };
  const referrerId = referralEarner(parties);
  const { share } = referralShare(q.fee, parties);
  const referral =
    referrerId && share.gt(0)
      ? sql`, ${referralFeeCtes({
          name: 'referral',
          referrerId,
          referredUserId: o.userId,
          source: 'perps',
          amount: share,
          description: `Referral share of a perpetual trading fee on ${o.ticker}`,
          reference: { type: 'perp_position', id: positionId },
          at: o.at,
          guard: sql`exists (select 1 from pos)`,
        })}`
      : sql``;
  // The side is a parameter, not text: one statement (one prepare, one cached plan) for both sides.
  const buy = sql`${o.side}::text = 'long'`;
  const statement = sql`
    with mkt as (
      select ticker, mark_price, depth, funding_index, xmin::text as version from ${perpMarkets} where ticker = ${o.ticker} for update
    ),
    ${debit},
    calc as (
      select f.entry, trunc(${size}::numeric(80, 40) / f.entry, 18) as units
      from mkt, lateral (select ${fillPriceSql(sql`mkt.mark_price`, buy, impactSql(sql`${size}::numeric`, sql`mkt.depth`))} as entry) f
      where exists (select 1 from debit)
    ),
    moved as (
      update ${perpMarkets} set mark_price = calc.entry, volume = ${perpMarkets}.volume + ${size}::numeric, updated_at = ${ts}
      from calc where ${perpMarkets}.ticker = ${o.ticker}
      returning ${perpMarkets}.ticker, ${perpMarkets}.mark_price
    ),
    ${perpUpdateCtes('moved', o.at)},
    pos as (
      insert into ${perpPositions} (id, user_id, ticker, side, size, units, entry_price, leverage, margin, collateral,
        funding_paid, liquidation_price, funding_index_entry, open_fee, status, api_key_id, opened_at, updated_at)
      select ${positionId}, ${o.userId}, ${o.ticker}, ${o.side}, ${size}::numeric, calc.units, calc.entry, ${o.leverage}::numeric,
        ${margin}::numeric, ${margin}::numeric, 0,
        ${liquidationPriceSql(sql`${o.side}::text`, sql`calc.entry`, sql`calc.units`, sql`${margin}::numeric`)},
        mkt.funding_index, ${fee}::numeric, 'open', ${o.apiKeyId ?? null}::text, ${ts}, ${ts}
      from calc, mkt
      returning id, units, entry_price, liquidation_price, funding_index_entry, liquidation_key
    ),
    trade as (
      insert into ${perpTrades} (id, user_id, position_id, ticker, side, action, size, price, fee, created_at)
      select ${crypto.randomUUID()}, ${o.userId}, pos.id, ${o.ticker}, ${o.side}, 'open', ${size}::numeric, pos.entry_price, ${fee}::numeric, ${ts}
      from pos
    ),
    org as (
      select name, current_price from ${organizations} where ticker = ${o.ticker}
    ),
    point as (
      insert into ${perpPricePoints} (id, ticker, mark_price, index_price, source, created_at)
      select ${crypto.randomUUID()}, ${o.ticker}, moved.mark_price, org.current_price, 'trade', ${ts}
      from moved, org
    ),
    ${sweepDueCte({ locked: 'mkt', moved: 'moved' })}${referral}
    select (select count(*) from mkt) as found, (select virtual_balance from debit) as balance_after,
      (select name from org) as org_name, ${outboxNotified('event')} as notified, (select due from sweep_due) as sweep_due,
      pos.id, pos.units, pos.entry_price, pos.liquidation_price, pos.funding_index_entry, pos.liquidation_key
    from (select 1) one left join pos on true`;
  return { statement, quote: q, positionId };
}

type TOpenRow = {
  found: number | string;
  org_name: string | null;
  /** Whether a liquidation or a perp order may now be due on the ticker (sweepDueCte). */
  sweep_due: boolean | null;
  balance_after: string | null;
  /** What the statement computed; the rest of the row is the order's (returned without a read). */
  id: string | null;
  units: string;
  entry_price: string;
  liquidation_price: string;
  funding_index_entry: string;
  liquidation_key: string;
};

export async function openPosition(input: TOpenInput) {
  const problem = orderProblem(input);
  if (problem) throw new AppError('VALIDATION_ERROR', problem, { size: input.size, leverage: input.leverage });
  const db = await getDb();
  const size = toDecimalString(dec(input.size).toDecimalPlaces(8));
  const leverage = toDecimalString(dec(input.leverage));
  const at = now();
  const { statement, quote } = buildOpenStatement({
    userId: input.caller.userId,
    ticker: input.ticker,
    side: input.side,
    size,
    leverage,
    at,
    referrerId: input.caller.referredById,
    apiKeyId: input.caller.apiKeyId,
  });
  const row = rowsOf<TOpenRow>(await executePrepared(statement))[0]!;
  if (Number(row.found) === 0) throw new AppError('VALIDATION_ERROR', `Unknown ticker ${input.ticker}`, { ticker: input.ticker });
  if (row.balance_after === null || row.id === null) {
    return insufficientBalance(db, input.caller.userId, quote.cost);
  }
  // The fill moved the mark: positions on the other side, or perp orders, may now be due. The
  // statement looked (sweep_due): the sweep runs when it found any, or could not tell.
  if (row.sweep_due !== false) await liquidateAfterTrade(input.ticker);
  const position = toPerpPositionDto(
    {
      id: row.id,
      userId: input.caller.userId,
      ticker: input.ticker,
      side: input.side,
      size: toDecimalString(quote.size),
      units: row.units,
      entryPrice: row.entry_price,
      leverage,
      margin: toDecimalString(quote.margin),
      collateral: toDecimalString(quote.margin),
      fundingPaid: '0',
      liquidationPrice: row.liquidation_price,
      fundingIndexEntry: row.funding_index_entry,
      liquidationKey: row.liquidation_key,
      openFee: toDecimalString(quote.fee),
      closeFee: null,
      exitPrice: null,
      realizedPnL: null,
      netPnL: null,
      status: 'open',
      liquidationWarnedAt: null,
      apiKeyId: input.caller.apiKeyId ?? null,
      openedAt: at,
      closedAt: null,
      updatedAt: at,
    },
    // Just opened: nothing accrued yet (its entry is the ticker's index).
    { markPrice: row.entry_price, name: row.org_name ?? input.ticker, fundingIndex: row.funding_index_entry },
  );
  return { position, fee: toNumber(quote.fee), newBalance: toDecimalString(row.balance_after) };
}
