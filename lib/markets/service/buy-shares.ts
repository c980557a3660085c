/**
 * Buying YES or NO shares in ONE SQL statement. Under load the event loop delays every await,
 * and a market row lock held across awaits serialises each market behind that delay (measured:
 * 75 ms of lock hold per buy at 32 clients). So the whole buy is a chain of CTEs executed by
 * PostgreSQL in one round trip, holding the market lock only while it runs:
 *   market: lock the row (active, before its resolution date)
 *   debit:  the ledger's conditional debit of the buyer (lib/ledger balanceChangeCtes)
 *   calc:   the CPMM buy (cpmm.buyShares written in SQL: same formula, same rounding; a property
 *           test checks both agree), only when the debit happened
 *   then the reserves, the position upsert, the trade, the price point, the referrer's fee and
 *   the market_update event in the outbox (lib/events/outbox: NOTIFY on commit).
 * Nothing is written unless the market was open and the debit succeeded: a single statement is
 * atomic. Fees depend only on the amount and come from the pure splitFee.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { executePrepared, getDb, rowsOf, withTransaction } from '@/db/client';
import { buyThroughBook } from '../orders/take';
import { marketPositions, marketPricePoints, markets, trades } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { outboxCtes, outboxNotified } from '@/lib/events/outbox';
import { AppError } from '@/lib/errors/app-error';
import { balanceChangeCtes, insufficientBalance } from '@/lib/ledger/ledger';
import { parseAmount } from '@/lib/money/amount';
import { referralFeeCtes } from '@/lib/referrals/fees';
import { referralEarner } from '@/lib/referrals/share';
import { dec, toDecimalString, toNumber, type TDecimal } from '@/lib/money/decimal';
import { MIN_BUY, SHARE_SCALE, prices, splitFee, toPool, type TOutcome } from '../cpmm';
import { getMarketRowOrThrow } from '../queries';
import { noPriceSql, storedYesPriceSql, yesPriceSql } from '../sql';
import { assertTradable } from './shared';

/** The caller buys; their referrer (caller.referredById) earns half the fee. */
export type TBuyInput = {
  caller: TCaller;
  marketId: string;
  outcome: TOutcome;
  amount: number | string;
};

/** Validates a trade amount: positive, at least the minimum, at most 8 decimals are kept. */
export function parseBuyAmount(amount: number | string): TDecimal {
  return parseAmount(amount, { code: 'INVALID_TRADE_SIZE', label: 'Trade size', min: { value: MIN_BUY, message: `The minimum buy is ${MIN_BUY.toFixed()}` } });
}

type TBuyRow = {
  market_open: number | string;
  /** Open orders of the other outcome (the buy wrote nothing when there are any). */
  book: number | string | null;
  balance_after: string | null;
  shares: string | null;
  yes_shares: string | null;
  no_shares: string | null;
  position_id: string | null;
  position_shares: string | null;
  position_cost: string | null;
};

/**
 * The buy statement for a validated amount and the buyer's referrer. Exported so the benchmark
 * can issue exactly this SQL directly as its reference.
 */
export function buildBuyStatement(opts: {
  userId: string;
  marketId: string;
  outcome: TOutcome;
  amount: TDecimal;
  referrerId: string | null;
  at: Date;
  /** The API key the buyer traded with (lib/api-keys), recorded on the trade. */
  apiKeyId?: string | null;
}) {
  const { amount, at, referrerId, userId, marketId, outcome: side } = opts;
  const parties = { payerId: userId, referrerId };
  const fees = splitFee(amount, parties);
  const earner = referralEarner(parties);
  const net = toDecimalString(amount.minus(fees.total));
  const amt = toDecimalString(amount);
  const ts = sql`${at.toISOString()}::timestamptz`;
  const scale = sql.raw(String(SHARE_SCALE));
  const debitCtes = balanceChangeCtes({
    name: 'debit',
    transactionId: crypto.randomUUID(),
    userId: userId,
    amount: amount.negated(),
    type: 'pred_buy',
    description: `Bought ${side} in a prediction market`,
    reference: { type: 'market', id: marketId },
    at,
    // Only when the other outcome has no open limit orders: a buy that could meet one runs
    // through the matching engine instead (lib/markets/orders/take.ts).
    guard: sql`exists (select 1 from market where book = 0)`,
  });
  const referrerCtes = earner
    ? sql`, ${referralFeeCtes({
        name: 'referral',
        referrerId: earner,
        referredUserId: userId,
        source: 'predictions',
        amount: fees.referrer,
        description: 'Referral share of a trading fee',
        reference: { type: 'market', id: marketId },
        at,
        guard: sql`exists (select 1 from debit)`,
      })}`
    : sql``;

  const statement = sql`
    with market as (
      select id, yes_shares, no_shares,
        case when ${side} = 'YES' then open_no_orders else open_yes_orders end as book
      from ${markets}
      where id = ${marketId} and status = 'active' and resolution_date > ${ts}
      for update
    ),
    ${debitCtes},
    calc as (
      -- cpmm.buyShares: same = reserve of the bought side, other = the opposite reserve
      -- (public yes_shares is the NO reserve); shares = trunc(same + net - same*other/(other + net), 18)
      select r.same, r.other,
        trunc(r.same + ${net}::numeric - (r.same * r.other)::numeric(80, 40) / (r.other + ${net}::numeric), ${scale}) as shares
      from market,
        lateral (select case when ${side} = 'YES' then market.no_shares else market.yes_shares end as same,
                        case when ${side} = 'YES' then market.yes_shares else market.no_shares end as other) r
      where exists (select 1 from debit)
    ),
    moved as (
      update ${markets} set
        yes_shares = case when ${side} = 'YES' then calc.other + ${net}::numeric else calc.same + ${net}::numeric - calc.shares end,
        no_shares = case when ${side} = 'YES' then calc.same + ${net}::numeric - calc.shares else calc.other + ${net}::numeric end,
        volume = volume + ${amt}::numeric
      from calc where ${markets}.id = ${marketId}
      returning ${markets}.yes_shares, ${markets}.no_shares
    ),
    position as (
      insert into ${marketPositions} (id, user_id, market_id, side, shares, cost_basis, created_at, updated_at)
      select ${crypto.randomUUID()}, ${userId}, ${marketId}, ${side}, calc.shares, ${amt}::numeric, ${ts}, ${ts} from calc
      on conflict (user_id, market_id, side) do update set
        shares = ${marketPositions}.shares + excluded.shares,
        cost_basis = ${marketPositions}.cost_basis + excluded.cost_basis,
        updated_at = excluded.updated_at
      returning id, shares, cost_basis
    ),
    trade as (
      insert into ${trades} (id, user_id, market_id, position_id, side, action, amount, shares, price,
        fee_total, fee_platform, fee_referrer, yes_price_after, api_key_id, created_at)
      select ${crypto.randomUUID()}, ${userId}, ${marketId}, position.id, ${side}, 'buy', ${amt}::numeric, calc.shares,
        trunc(${amt}::numeric / calc.shares, ${scale}), ${toDecimalString(fees.total)}::numeric, ${toDecimalString(fees.platform)}::numeric,
        ${toDecimalString(fees.referrer)}::numeric, ${storedYesPriceSql('moved')}, ${opts.apiKeyId ?? null}::text, ${ts}
      from position, calc, moved
    ),
    point as (
      insert into ${marketPricePoints} (id, market_id, yes_price, yes_shares, no_shares, source, created_at)
      select ${crypto.randomUUID()}, ${marketId}, ${storedYesPriceSql('moved')},
        moved.yes_shares, moved.no_shares, 'trade', ${ts}
      from moved
    ),
    ${outboxCtes(
      'event',
      'markets',
      'market_update',
      // The same fields and prices as emitMarketUpdate.
      sql`select jsonb_build_object(
        'marketId', ${marketId}::text,
        'yesPrice', ${yesPriceSql('moved')}::float8,
        'noPrice', ${noPriceSql('moved')}::float8,
        'yesShares', moved.yes_shares::float8,
        'noShares', moved.no_shares::float8,
        'timestamp', ${at.toISOString()}::text) as data
      from moved`,
    )}${referrerCtes}
    select
      (select count(*) from market) as market_open,
      (select book from market) as book,
      (select virtual_balance from debit) as balance_after,
      (select shares from calc) as shares,
      (select yes_shares from moved) as yes_shares,
      (select no_shares from moved) as no_shares,
      (select id from position) as position_id,
      (select shares from position) as position_shares,
      (select cost_basis from position) as position_cost,
      ${outboxNotified('event')} as notified`;
  return { statement, fees, amt };
}

export async function buyShares(input: TBuyInput) {
  const { caller } = input;
  const amount = parseBuyAmount(input.amount);
  const db = await getDb();
  const side = input.outcome;
  const { statement, fees, amt } = buildBuyStatement({
    userId: caller.userId,
    marketId: input.marketId,
    outcome: side,
    amount,
    referrerId: caller.referredById,
    at: now(),
    apiKeyId: caller.apiKeyId,
  });
  const result = await executePrepared(statement);
  const row = rowsOf<TBuyRow>(result)[0]!;

  if (Number(row.market_open) === 0) {
    // Why was the market not lockable? Missing, resolved or expired: say which.
    assertTradable(await getMarketRowOrThrow(db, input.marketId));
    throw new AppError('MARKET_CLOSED', 'This market no longer trades', { marketId: input.marketId });
  }
  if (Number(row.book ?? 0) > 0) {
    // Resting orders of the other outcome: the buy runs through the matching engine.
    return withTransaction((tx) => buyThroughBook(tx, { caller, marketId: input.marketId, outcome: side, amount, at: now() }));
  }
  if (row.balance_after === null) {
    return insufficientBalance(db, caller.userId, amt);
  }

  const pool = toPool({ yesShares: row.yes_shares!, noShares: row.no_shares! });
  const p = prices(pool);
  const shares = dec(row.shares!);
  const positionShares = dec(row.position_shares!);
  return {
    position: {
      id: row.position_id!,
      marketId: input.marketId,
      side,
      outcome: side,
      shares: toNumber(positionShares),
      avgPrice: toNumber(dec(row.position_cost!).div(positionShares)),
      costBasis: toNumber(row.position_cost!),
    },
    shares: toNumber(shares),
    avgPrice: toNumber(amount.div(shares)),
    positionId: row.position_id!,
    newBalance: toDecimalString(row.balance_after),
    fees: { total: toNumber(fees.total), platform: toNumber(fees.platform), referrer: toNumber(fees.referrer) },
    yesPrice: toNumber(p.yes),
    noPrice: toNumber(p.no),
    marketId: input.marketId,
  };
}
