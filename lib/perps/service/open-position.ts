/**
 * Opening a perpetual position in ONE SQL statement:
 *   mkt:    lock the ticker row
 *   debit:  the ledger's conditional debit of margin + fee (perp_open)
 *   calc:   impact, fill price (the new mark), units and liquidation price (lib/perps/math in SQL)
 *   then the mark move, the position (entering at the ticker's funding index: it accrues funding
 *   from here), the trade and a price point.
 * Nothing is written unless the ticker exists and the debit succeeded. After the commit, the
 * liquidation sweep runs for the ticker: the fill moved the mark.
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
import { fillPriceSql, impactSql, liquidationPriceSql } from './sql';

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
  const buy = sql.raw(o.side === 'long' ? 'true' : 'false');
  const statement = sql`
    with mkt as (
      select ticker, mark_price, depth, funding_index from ${perpMarkets} where ticker = ${o.ticker} for update
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
      returning *
    ),
    trade as (
      insert into ${perpTrades} (id, user_id, position_id, ticker, side, action, size, price, fee, created_at)
      select ${crypto.randomUUID()}, ${o.userId}, pos.id, ${o.ticker}, ${o.side}, 'open', ${size}::numeric, pos.entry_price, ${fee}::numeric, ${ts}
      from pos
    ),
    point as (
      insert into ${perpPricePoints} (id, ticker, mark_price, index_price, source, created_at)
      select ${crypto.randomUUID()}, ${o.ticker}, moved.mark_price, o.current_price, 'trade', ${ts}
      from moved, ${organizations} o where o.ticker = ${o.ticker}
    )${referral}
    select (select count(*) from mkt) as found, (select virtual_balance from debit) as balance_after,
      (select name from ${organizations} where ticker = ${o.ticker}) as org_name, ${outboxNotified('event')} as notified, pos.*
    from (select 1) one left join pos on true`;
  return { statement, quote: q, positionId };
}

type TOpenRow = {
  found: number | string;
  org_name: string | null;
  balance_after: string | null;
  id: string | null;
  user_id: string;
  ticker: string;
  side: TPerpSide;
  size: string;
  units: string;
  entry_price: string;
  leverage: string;
  margin: string;
  collateral: string;
  funding_paid: string;
  liquidation_price: string;
  funding_index_entry: string;
  liquidation_key: string;
  open_fee: string;
  status: 'open';
  opened_at: string | Date;
};

export async function openPosition(input: TOpenInput) {
  const problem = orderProblem(input);
  if (problem) throw new AppError('VALIDATION_ERROR', problem, { size: input.size, leverage: input.leverage });
  const db = await getDb();
  const size = toDecimalString(dec(input.size).toDecimalPlaces(8));
  const leverage = toDecimalString(dec(input.leverage));
  const { statement, quote } = buildOpenStatement({
    userId: input.caller.userId,
    ticker: input.ticker,
    side: input.side,
    size,
    leverage,
    at: now(),
    referrerId: input.caller.referredById,
    apiKeyId: input.caller.apiKeyId,
  });
  const row = rowsOf<TOpenRow>(await executePrepared(statement))[0]!;
  if (Number(row.found) === 0) throw new AppError('VALIDATION_ERROR', `Unknown ticker ${input.ticker}`, { ticker: input.ticker });
  if (row.balance_after === null || row.id === null) {
    return insufficientBalance(db, input.caller.userId, quote.cost);
  }
  // The fill moved the mark: positions on the other side may now be due.
  await liquidateAfterTrade(input.ticker);
  const position = toPerpPositionDto(
    {
      id: row.id,
      userId: row.user_id,
      ticker: row.ticker,
      side: row.side,
      size: row.size,
      units: row.units,
      entryPrice: row.entry_price,
      leverage: row.leverage,
      margin: row.margin,
      collateral: row.collateral,
      fundingPaid: row.funding_paid,
      liquidationPrice: row.liquidation_price,
      fundingIndexEntry: row.funding_index_entry,
      liquidationKey: row.liquidation_key,
      openFee: row.open_fee,
      closeFee: null,
      exitPrice: null,
      realizedPnL: null,
      netPnL: null,
      status: 'open',
      liquidationWarnedAt: null,
      apiKeyId: input.caller.apiKeyId ?? null,
      openedAt: new Date(row.opened_at),
      closedAt: null,
      updatedAt: new Date(row.opened_at),
    },
    // Just opened: nothing accrued yet (its entry is the ticker's index).
    { markPrice: row.entry_price, name: row.org_name ?? row.ticker, fundingIndex: row.funding_index_entry },
  );
  return { position, fee: toNumber(quote.fee), newBalance: toDecimalString(row.balance_after) };
}
