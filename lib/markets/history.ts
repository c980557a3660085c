/**
 * The world's backfilled past, written set-based: a known, ordered list of NPC prediction-market
 * trades (buys and sales, each at its own past time) replayed inside ONE transaction with a handful
 * of statements, instead of one buyShares / sellShares call (3–9 ms) per trade.
 *
 * It writes exactly the rows the services would write for the same trades taken one by one with the
 * clock at each trade's `at`: the same trades rows, positions, price points ('trade'), market
 * reserves and volume, ledger rows (lib/ledger/batch.ts chains them per user) and balances, and it
 * refuses, with the service's error code, the trades the services would refuse (nothing is written
 * for those). history.int.test.ts holds both paths to each other row by row.
 *
 * How: the markets are locked (id order), then the traders' positions in those markets, then their
 * balances (ledger batch). The trades are then replayed in memory, with the services' checks in
 * the services' order, by the pure CPMM (cpmm.ts buyShares / sellShares / splitFee, composed as
 * quoteBuy / quoteSell compose them; buy-sql.int.test.ts holds them equal to the buy's SQL). The
 * rows go in as multi-row statements (`unnest` of one text[] per column, in chunks): trades with
 * their price points, new and moved positions, each market's final reserves and volume, then the
 * ledger rows and each balance once (applyBalanceChanges). Prices that the buy stores come from
 * PostgreSQL's own division at insert time (storedYesPriceSql and trunc(amount / shares, 18) on
 * numeric(38,18) operands, as the buy's one statement computes them); the sale's come from
 * decimal.js as sell-shares.ts computes them.
 *
 * Differences, on purpose:
 * - no market_update events in the outbox (the past is not broadcast over SSE);
 * - for NPCs only: nobody is referred, so no fee is shared. A trader with users.referred_by_id set
 *   makes the call throw (the referral fee rows and referral_earnings are not written here);
 * - a sale whose shares become 0 by the sell-all dust rule (a position already at 0 shares) is
 *   refused as INVALID_TRADE_SIZE, where the service fails with an internal error.
 */
import 'server-only';
import { and, isNotNull, sql, type SQL } from 'drizzle-orm';
import { textArray, unnestSql, type Tx } from '@/db/client';
import { marketPositions, marketPricePoints, markets, trades, users, type TMarketRow } from '@/db/schema';
import { isAppError } from '@/lib/errors/app-error';
import { LedgerBatch, type THistoryWriter } from '@/lib/ledger/batch';
import { parseAmount } from '@/lib/money/amount';
import type { TReferralParties } from '@/lib/referrals/share';
import { D, dec, toDecimalString, toMoney, type TDecimal } from '@/lib/money/decimal';
import { SHARE_SCALE, buyShares, prices, sellShares, splitFee, toPool, toPublic, type TOutcome, type TPool } from './cpmm';
import { parseBuyAmount } from './service/buy-shares';
import { storedYesPriceSql } from './sql';

export type TPredictionHistoryTrade =
  | { action: 'buy'; userId: string; marketId: string; outcome: 'YES' | 'NO'; amount: string; at: Date }
  | { action: 'sell'; userId: string; marketId: string; outcome: 'YES' | 'NO'; shares: string; at: Date };

/** A trade the services would have refused: its index in the list and the service's error code. */
export type THistoryRefusal = { index: number; code: string };

/** Rows per statement: each is one text[] per column, so the size, not the parameter count, bounds it. */
const CHUNK = 5000;
/**
 * A sale within this of the whole position sells the whole position (sell-shares.ts keeps 1e-9 for
 * clients). The backfill's generator counts shares in six decimals over its own simulated pool,
 * whose numbers can drift from the rows' (18 decimals) around the sixth place on a near-certain
 * market; a sale of "all of it" then asks for a hair more than is held (seen: 1.05e-6 of a share).
 * It never sells more than is held.
 */
const SELL_ALL_DUST = dec('1e-5');

type TMarketState = { row: TMarketRow; pool: TPool; volume: TDecimal; touched: boolean };
type TPositionState = {
  id: string;
  userId: string;
  marketId: string;
  side: TOutcome;
  shares: TDecimal;
  cost: TDecimal;
  realized: TDecimal;
  createdAt: Date;
  updatedAt: Date;
  isNew: boolean;
  touched: boolean;
};
/** A trade row; the buy's price and yes_price_after are left to SQL (empty here), the sale's are given. */
type TTradeRow = {
  id: string;
  userId: string;
  marketId: string;
  positionId: string;
  side: TOutcome;
  action: 'buy' | 'sell';
  amount: string;
  shares: string;
  price: string;
  fees: { total: string; platform: string; referrer: string };
  yesPrice: string;
  /** The 'trade' price point's yes_price (the sale's; the buy's comes from SQL). */
  pointPrice: string;
  yesShares: string;
  noShares: string;
  at: string;
};

const positionKey = (userId: string, marketId: string, side: string) => `${userId}\u0000${marketId}\u0000${side}`;

/** The sale's share count as sell-shares.ts parses it. */
const parseShares = (shares: string): TDecimal => parseAmount(shares, { code: 'INVALID_TRADE_SIZE', label: 'Shares', scale: SHARE_SCALE });

/** A value as a numeric(38,18) column stores it (PostgreSQL rounds half away from zero). */
const storedQuantity = (d: TDecimal) => d.toDecimalPlaces(SHARE_SCALE, D.ROUND_HALF_UP);

/** The pool as the markets row stores it (public weights at 18 places). */
const storedPool = (pool: TPool): TPool => {
  const pub = toPublic(pool);
  return toPool({ yesShares: storedQuantity(pub.yesShares), noShares: storedQuantity(pub.noShares) });
};

/** The service's verdict on the market for a trade at `at` (shared.ts assertTradable, the buy's WHERE). */
const isClosed = (m: TMarketRow, at: Date) => m.status !== 'active' || m.resolutionDate.getTime() <= at.getTime();

/**
 * cpmm.quoteBuy without its priceBefore / priceAfter (four decimal divisions a trade that the
 * history never stores): the same fee split, the same net amount into the same buyShares.
 */
function buyQuote(pool: TPool, outcome: TOutcome, amount: TDecimal, parties: TReferralParties) {
  const fees = splitFee(amount, parties);
  return { fees, ...buyShares(pool, outcome, amount.minus(fees.total)) };
}

/** cpmm.quoteSell without its priceBefore / priceAfter: the same sellShares, fee and proceeds. */
function sellQuote(pool: TPool, outcome: TOutcome, shares: TDecimal, parties: TReferralParties) {
  const { amount, pool: after } = sellShares(pool, outcome, shares);
  const fees = splitFee(amount, parties);
  return { grossProceeds: amount, fees, proceeds: amount.minus(fees.total), avgPrice: amount.div(shares), pool: after };
}

/** The AppError code a parse refused with; anything else is a bug and is thrown. */
function refusalCode(e: unknown): string {
  if (isAppError(e)) return e.code;
  throw e;
}

async function inChunks<T>(list: readonly T[], write: (chunk: readonly T[]) => Promise<unknown>) {
  for (let i = 0; i < list.length; i += CHUNK) await write(list.slice(i, i + CHUNK));
}

/**
 * Writes `items` in order inside `tx` as buyShares/sellShares would one by one with the clock at
 * each `at`; returns how many were written and which were refused (nothing written for those).
 * NPCs only: throws when a trader has a referrer. No outbox events are written.
 */
export async function preparePredictionHistory(
  tx: Tx,
  items: readonly TPredictionHistoryTrade[],
  opts: { ledger?: LedgerBatch } = {},
): Promise<THistoryWriter<{ written: number; refused: THistoryRefusal[] }>> {
  if (!items.length) return { step: () => undefined, finish: async () => ({ written: 0, refused: [] }) };

  // Locks: markets (id order), then the traders' positions in them (id order), then balances.
  const marketIds = [...new Set(items.map((t) => t.marketId))].sort();
  const marketRows = await tx
    .select()
    .from(markets)
    .where(sql`${markets.id} = any(${textArray(marketIds)})`)
    .orderBy(markets.id)
    .for('update');
  const marketState = new Map<string, TMarketState>(
    marketRows.map((row) => [row.id, { row, pool: toPool(row), volume: dec(row.volume), touched: false }]),
  );
  const pairs = [...new Set(items.map((t) => `${t.userId}\u0000${t.marketId}`))].map((p) => p.split('\u0000') as [string, string]);
  const positionRows = await tx
    .select()
    .from(marketPositions)
    .where(
      sql`(${marketPositions.userId}, ${marketPositions.marketId}) in (select * from unnest(${textArray(pairs.map((p) => p[0]))}, ${textArray(pairs.map((p) => p[1]))}))`,
    )
    .orderBy(marketPositions.id)
    .for('update');
  const positions = new Map<string, TPositionState>(
    positionRows.map((p) => [
      positionKey(p.userId, p.marketId, p.side),
      {
        id: p.id,
        userId: p.userId,
        marketId: p.marketId,
        side: p.side,
        shares: dec(p.shares),
        cost: dec(p.costBasis),
        realized: dec(p.realizedPnL),
        createdAt: p.createdAt,
        updatedAt: p.updatedAt,
        isNew: false,
        touched: false,
      },
    ]),
  );
  const userIds = [...new Set(items.map((t) => t.userId))];
  // A caller writing perps of the same minutes shares its batch (chained in time order at its apply).
  const ledger = opts.ledger ?? (await LedgerBatch.open(tx, userIds));
  const referred = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(sql`${users.id} = any(${textArray(userIds)})`, isNotNull(users.referredById)))
    .limit(1);
  if (referred.length) {
    throw new Error(`writePredictionHistory: user ${referred[0]!.id} has a referrer; the bulk history path is for NPCs (no referral fees)`);
  }

  const refused: THistoryRefusal[] = [];
  const tradeRows: TTradeRow[] = [];

  const step = (index: number) => {
    const item = items[index]!;
    const refuse = (code: string) => refused.push({ index, code });
    const parties: TReferralParties = { payerId: item.userId, referrerId: null };
    const reference = { type: 'market', id: item.marketId };
    const key = positionKey(item.userId, item.marketId, item.outcome);
    const market = marketState.get(item.marketId);

    if (item.action === 'buy') {
      let amount: TDecimal;
      try {
        amount = parseBuyAmount(item.amount);
      } catch (e) {
        return refuse(refusalCode(e));
      }
      if (!market) return refuse('NOT_FOUND');
      if (isClosed(market.row, item.at)) return refuse('MARKET_CLOSED');
      const balance = ledger.balanceOf(item.userId, item.at);
      // The buy's conditional debit: balance − amount must stay ≥ 0 (an unknown user has nothing).
      if (!balance || balance.lt(amount)) return refuse('INSUFFICIENT_BALANCE');

      const quote = buyQuote(market.pool, item.outcome, amount, parties);
      market.pool = storedPool(quote.pool);
      market.volume = market.volume.plus(amount);
      market.touched = true;
      let position = positions.get(key);
      if (!position) {
        position = {
          id: crypto.randomUUID(),
          userId: item.userId,
          marketId: item.marketId,
          side: item.outcome,
          shares: dec(0),
          cost: dec(0),
          realized: dec(0),
          createdAt: item.at,
          updatedAt: item.at,
          isNew: true,
          touched: true,
        };
        positions.set(key, position);
      }
      position.shares = position.shares.plus(quote.shares);
      position.cost = position.cost.plus(amount);
      position.updatedAt = item.at;
      position.touched = true;
      ledger.push({
        userId: item.userId,
        amount: amount.negated(),
        type: 'pred_buy',
        description: `Bought ${item.outcome} in a prediction market`,
        reference,
        at: item.at,
      });
      const pub = toPublic(market.pool);
      tradeRows.push({
        id: crypto.randomUUID(),
        userId: item.userId,
        marketId: item.marketId,
        positionId: position.id,
        side: item.outcome,
        action: 'buy',
        amount: toDecimalString(amount),
        shares: toDecimalString(quote.shares),
        price: '',
        fees: { total: toDecimalString(quote.fees.total), platform: toDecimalString(quote.fees.platform), referrer: toDecimalString(quote.fees.referrer) },
        yesPrice: '',
        pointPrice: '',
        yesShares: toDecimalString(pub.yesShares),
        noShares: toDecimalString(pub.noShares),
        at: item.at.toISOString(),
      });
      return;
    }

    // The sale, with sell-shares.ts's checks in its order.
    let shares: TDecimal;
    try {
      shares = parseShares(item.shares);
    } catch (e) {
      return refuse(refusalCode(e));
    }
    if (!market) return refuse('NOT_FOUND');
    const position = positions.get(key);
    if (!position) return refuse('INSUFFICIENT_SHARES');
    const held = position.shares;
    if (shares.minus(held).abs().lte(SELL_ALL_DUST)) shares = held;
    if (shares.gt(held)) return refuse('INSUFFICIENT_SHARES');
    if (isClosed(market.row, item.at)) return refuse('MARKET_CLOSED');
    if (shares.lte(0)) return refuse('INVALID_TRADE_SIZE');
    const quote = sellQuote(market.pool, item.outcome, shares, parties);
    if (quote.proceeds.lte(0)) return refuse('INVALID_TRADE_SIZE');

    const removedCost = shares.eq(held) ? position.cost : toMoney(position.cost.times(shares).div(held));
    const realizedPnL = quote.proceeds.minus(removedCost);
    ledger.push({
      userId: item.userId,
      amount: quote.proceeds,
      type: 'pred_sell',
      description: `Sold ${item.outcome} in "${market.row.text}"`,
      reference,
      realizedPnL,
      at: item.at,
    });
    // The trade's yes_price_after is priced on the quote's pool, the price point on the stored row.
    const yesPriceAfter = prices(quote.pool).yes.toDecimalPlaces(18).toFixed();
    market.pool = storedPool(quote.pool);
    market.volume = market.volume.plus(quote.grossProceeds);
    market.touched = true;
    position.shares = held.minus(shares);
    position.cost = position.cost.minus(removedCost);
    position.realized = position.realized.plus(toMoney(realizedPnL));
    position.updatedAt = item.at;
    position.touched = true;
    const pub = toPublic(market.pool);
    tradeRows.push({
      id: crypto.randomUUID(),
      userId: item.userId,
      marketId: item.marketId,
      positionId: position.id,
      side: item.outcome,
      action: 'sell',
      amount: toDecimalString(quote.grossProceeds),
      shares: toDecimalString(shares),
      price: quote.avgPrice.toDecimalPlaces(18).toFixed(),
      fees: { total: toDecimalString(quote.fees.total), platform: toDecimalString(quote.fees.platform), referrer: toDecimalString(quote.fees.referrer) },
      yesPrice: yesPriceAfter,
      // recordPricePoint: marketPrices of the updated (stored) row, to 18 places.
      pointPrice: prices(market.pool).yes.toDecimalPlaces(18).toFixed(),
      yesShares: toDecimalString(pub.yesShares),
      noShares: toDecimalString(pub.noShares),
      at: item.at.toISOString(),
    });
  };

  const finish = async () => {
  if (!tradeRows.length) return { written: 0, refused };

  await writeTradesAndPoints(tx, tradeRows);
  await writePositions(tx, [...positions.values()].filter((p) => p.touched));
  await writeMarkets(tx, [...marketState.values()].filter((m) => m.touched));
  if (!opts.ledger) await ledger.apply(tx);
  return { written: tradeRows.length, refused };
  };
  return { step, finish };
}

/**
 * Writes `items` in order inside `tx` as buyShares/sellShares would one by one with the clock at
 * each `at`; returns how many were written and which were refused (nothing written for those).
 * NPCs only: throws when a trader has a referrer. No outbox events are written.
 */
export async function writePredictionHistory(
  tx: Tx,
  items: readonly TPredictionHistoryTrade[],
  opts: { ledger?: LedgerBatch } = {},
): Promise<{ written: number; refused: THistoryRefusal[] }> {
  const w = await preparePredictionHistory(tx, items, opts);
  items.forEach((_, i) => w.step(i));
  return w.finish();
}

/**
 * The trades rows and their source rows with the pool after each trade as the markets row stores it
 * (yes_shares, no_shares: numeric(38,18), as the buy's RETURNING gives them to its price SQL).
 */
function tradeSource(chunk: readonly TTradeRow[]): SQL {
  return sql`(select v.*, v.ys::numeric(38, 18) as yes_shares, v.ns::numeric(38, 18) as no_shares from ${unnestSql('v', {
    id: chunk.map((r) => r.id),
    user_id: chunk.map((r) => r.userId),
    market_id: chunk.map((r) => r.marketId),
    position_id: chunk.map((r) => r.positionId),
    side: chunk.map((r) => r.side),
    action: chunk.map((r) => r.action),
    amount: chunk.map((r) => r.amount),
    shares: chunk.map((r) => r.shares),
    price: chunk.map((r) => r.price),
    fee_total: chunk.map((r) => r.fees.total),
    fee_platform: chunk.map((r) => r.fees.platform),
    fee_referrer: chunk.map((r) => r.fees.referrer),
    yes_price: chunk.map((r) => r.yesPrice),
    point_price: chunk.map((r) => r.pointPrice),
    ys: chunk.map((r) => r.yesShares),
    ns: chunk.map((r) => r.noShares),
    at: chunk.map((r) => r.at),
  })}) w`;
}

/**
 * The buy's prices as its one statement computes them: trunc(amount / shares, 18) with the shares
 * at numeric(38,18) (calc.shares is a trunc to 18 places) and storedYesPriceSql on the stored pool.
 */
const buyPriceSql = sql`trunc(w.amount::numeric / w.shares::numeric(38, 18), ${sql.raw(String(SHARE_SCALE))})`;

/** Each chunk's trades rows and their 'trade' price points, in one statement. */
async function writeTradesAndPoints(tx: Tx, rows: readonly TTradeRow[]) {
  await inChunks(rows, (chunk) =>
    tx.execute(sql`
      with w as materialized (select * from ${tradeSource(chunk)}),
      written as (
        insert into ${trades} (id, user_id, market_id, position_id, side, action, amount, shares, price,
          fee_total, fee_platform, fee_referrer, yes_price_after, created_at)
        select w.id, w.user_id, w.market_id, w.position_id, w.side, w.action, w.amount::numeric, w.shares::numeric,
          case when w.action = 'buy' then ${buyPriceSql} else nullif(w.price, '')::numeric end,
          w.fee_total::numeric, w.fee_platform::numeric, w.fee_referrer::numeric,
          case when w.action = 'buy' then ${storedYesPriceSql('w')} else nullif(w.yes_price, '')::numeric end,
          w.at::timestamptz
        from w
      )
      insert into ${marketPricePoints} (id, market_id, yes_price, yes_shares, no_shares, source, created_at)
      select gen_random_uuid()::text, w.market_id,
        case when w.action = 'buy' then ${storedYesPriceSql('w')} else nullif(w.point_price, '')::numeric end,
        w.yes_shares, w.no_shares, 'trade', w.at::timestamptz
      from w`),
  );
}

/** New positions go in with their final values, existing ones move to theirs. */
async function writePositions(tx: Tx, list: readonly TPositionState[]) {
  const columns = (chunk: readonly TPositionState[]) => ({
    id: chunk.map((p) => p.id),
    user_id: chunk.map((p) => p.userId),
    market_id: chunk.map((p) => p.marketId),
    side: chunk.map((p) => p.side),
    shares: chunk.map((p) => toDecimalString(p.shares)),
    cost_basis: chunk.map((p) => toDecimalString(p.cost)),
    realized_pnl: chunk.map((p) => toDecimalString(p.realized)),
    created_at: chunk.map((p) => p.createdAt.toISOString()),
    updated_at: chunk.map((p) => p.updatedAt.toISOString()),
  });
  await inChunks(
    list.filter((p) => p.isNew),
    (chunk) =>
      tx.execute(sql`
        insert into ${marketPositions} (id, user_id, market_id, side, shares, cost_basis, realized_pnl, created_at, updated_at)
        select v.id, v.user_id, v.market_id, v.side, v.shares::numeric, v.cost_basis::numeric, v.realized_pnl::numeric,
          v.created_at::timestamptz, v.updated_at::timestamptz
        from ${unnestSql('v', columns(chunk))}`),
  );
  await inChunks(
    list.filter((p) => !p.isNew),
    (chunk) =>
      tx.execute(sql`
        update ${marketPositions} p set shares = v.shares::numeric, cost_basis = v.cost_basis::numeric,
          realized_pnl = v.realized_pnl::numeric, updated_at = v.updated_at::timestamptz
        from ${unnestSql('v', columns(chunk))}
        where p.id = v.id`),
  );
}

/** Each traded market's final reserves and volume. */
async function writeMarkets(tx: Tx, list: readonly TMarketState[]) {
  await inChunks(list, (chunk) => {
    const pubs = chunk.map((m) => toPublic(m.pool));
    return tx.execute(sql`
      update ${markets} m set yes_shares = v.yes_shares::numeric, no_shares = v.no_shares::numeric, volume = v.volume::numeric
      from ${unnestSql('v', {
        id: chunk.map((m) => m.row.id),
        yes_shares: pubs.map((p) => toDecimalString(p.yesShares)),
        no_shares: pubs.map((p) => toDecimalString(p.noShares)),
        volume: chunk.map((m) => toDecimalString(m.volume)),
      })}
      where m.id = v.id`);
  });
}
