/**
 * The world's backfilled past, set-based: a known, ordered list of NPC perpetual opens and closes
 * written in ONE transaction with a handful of statements, producing exactly the rows the services
 * (service/open-position.ts, service/close-position.ts and the liquidation sweep each trade runs
 * after it, service/liquidate.ts) would write for the same list with the clock at each item's `at`
 * and the ticker's mark set to the item's `mark` just before it (as lib/game/backfill/write.ts
 * does with `setMark`). Replaying thousands of trades one statement each costs ~9 ms apiece on
 * PGlite; here every number a service computes in SQL is computed in SQL with the services' own
 * expressions (service/sql.ts) over all items at once, the order-dependent parts (balances, which
 * positions are open, which fills liquidate what) are replayed in memory with exact decimals
 * (only sums and comparisons), and the rows go in as multi-row writes, each passing its rows as
 * one text[] parameter per column (unnest), in chunks of CHUNK rows.
 *
 * What each item does, as the services would:
 *  - the mark of its ticker is set to `mark` (updated_at = at), except for a close whose key names
 *    no position (write.ts skips those before setting the mark);
 *  - open: VALIDATION_ERROR (orderProblem, unknown ticker), INSUFFICIENT_BALANCE (margin + fee
 *    over the balance tracked from `lockBalances`), else the perp_open ledger row, the position,
 *    the trade, a price point, the mark moved to the fill and the volume;
 *  - close: NOT_FOUND (unknown key), FORBIDDEN (another user's), POSITION_CLOSED (closed or
 *    liquidated), else the funded settlement (perp_close and funding_paid legs, net P&L to
 *    lifetimePnL), the position's final state, the trade, a price point, the mark and volume;
 *  - after every successful trade the sweep of its ticker at the new mark: any open position
 *    (this batch's, a pool's, anyone's) the mark reached is liquidated as the sweep does it
 *    (position, liquidation trade, notification, net P&L to lifetimePnL).
 * After the batch each touched ticker's mark is what the services leave: the fill of its last
 * trade, or the last mark set when its last item was refused; updated_at is that item's `at`.
 * Not written: outbox / SSE events (perp_update, perp_liquidation): history is not broadcast.
 * Refused: a trader with a referrer (the bulk path is for NPCs; referral fees are not replayed).
 * Lock order: the tickers' perp_markets rows, then the positions, then the traders' balances.
 * Balance columns move only through lib/ledger (applyBalanceChanges, realizedPnLBookingCte).
 */
import 'server-only';
import { inArray, sql } from 'drizzle-orm';
import { rowsOf, textArray, unnestSql, type Tx } from '@/db/client';
import { organizations, perpMarkets, perpPositions, perpPricePoints, perpTrades, users } from '@/db/schema';
import { LedgerBatch, type THistoryWriter } from '@/lib/ledger/batch';
import { realizedPnLBookingCte } from '@/lib/ledger/ledger';
import { dec, toDecimalString, type TDecimal } from '@/lib/money/decimal';
import { orderProblem, quoteOpen, type TPerpSide } from './math';
import { liquidationRecordCtes } from './service/liquidate';
import {
  accruedFundingSql,
  closeFeeSql,
  effectiveLiquidationPriceSql,
  fillPriceSql,
  impactSql,
  liquidationPriceSql,
  liquidationShiftSql,
  pricePnLSql,
} from './service/sql';

export type TPerpHistoryTrade =
  | { action: 'open'; key: string; userId: string; ticker: string; side: TPerpSide; size: string; leverage: number; mark: string; at: Date }
  | { action: 'close'; key: string; userId: string; ticker: string; mark: string; at: Date };

export type TPerpHistoryResult = {
  /** Items that traded (opens and closes). */
  written: number;
  /** Items refused, with the service's error code. */
  refused: { index: number; code: string }[];
  /** key → position id, for the positions this call opened. */
  positionIds: Map<string, string>;
};

/**
 * Rows per statement. Every multi-row statement passes its rows as one text[] parameter per
 * column (`unnest`), so this bounds statement size, not parameters (a handful per statement).
 */
const CHUNK = 5000;

const chunks = <T>(rows: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
};

type TMarket = { ticker: string; fundingIndex: string; indexPrice: string; shiftLong: TDecimal; shiftShort: TDecimal };

/** A position as the replay tracks it. */
type TPos = {
  id: string;
  userId: string;
  ticker: string;
  side: TPerpSide;
  status: 'open' | 'closed' | 'liquidated';
  key: TDecimal;
  margin: string;
  openFee: string;
  /** Opened by this call (inserted) rather than read from the table. */
  fresh: boolean;
  /** Index of the open item (fresh) and its computed state. */
  open?: TOpenCalc & { item: number; size: string; leverage: string; fee: string; at: Date };
  close?: TCloseCalc & { at: Date };
};

type TOpenCalc = { entry: string; units: string; liq: string; key: string };
type TCloseCalc = {
  exit: string;
  notional: string;
  pnl: string;
  fee: string;
  closeCredit: string;
  fundingCredit: string;
  net: string;
  collateral: string;
  fundingPaid: string;
  fundingIndex: string;
  liq: string;
};

type TTradeRow = {
  id: string;
  userId: string;
  positionId: string;
  ticker: string;
  side: TPerpSide;
  action: 'open' | 'close';
  size: string;
  price: string;
  fee: string;
  realizedPnL: string | null;
  at: Date;
};

type TOpenInputRow = { i: number; ticker: string; side: TPerpSide; size: string; margin: string; mark: string };
type TCloseInputRow = {
  i: number;
  ticker: string;
  side: TPerpSide;
  units: string;
  entry: string;
  margin: string;
  collateral: string;
  fundingPaid: string;
  openFee: string;
  fundingIndexEntry: string;
  mark: string;
};

/** Entry, units, liquidation price and key of each open at its mark: the open statement's calc. */
async function openCalcs(tx: Tx, rows: readonly TOpenInputRow[]) {
  const out = new Map<number, TOpenCalc>();
  for (const c of chunks(rows)) {
    const u = unnestSql('u', {
      i: c.map((r) => String(r.i)),
      ticker: c.map((r) => r.ticker),
      side: c.map((r) => r.side),
      size: c.map((r) => r.size),
      margin: c.map((r) => r.margin),
      mark: c.map((r) => r.mark),
    });
    const res = rowsOf<{ i: number; entry: string; units: string; liq: string; key: string }>(
      await tx.execute(sql`
        with v as materialized (
          select u.i::int as i, u.ticker, u.side, u.size::numeric as size, u.margin::numeric as margin, u.mark::numeric(38, 18) as mark from ${u}
        ),
        f as materialized (
          select v.*, m.funding_index, ${fillPriceSql(sql`v.mark`, sql`v.side = 'long'`, impactSql(sql`v.size`, sql`m.depth`))} as entry
          from v join ${perpMarkets} m on m.ticker = v.ticker
        ),
        x as materialized (select f.*, trunc(f.size::numeric(80, 40) / f.entry, 18) as units from f),
        l as materialized (select x.*, ${liquidationPriceSql(sql`x.side`, sql`x.entry`, sql`x.units`, sql`x.margin`)} as liq from x)
        select l.i, l.entry::text as entry, l.units::text as units, l.liq::text as liq,
          (l.liq::numeric(38, 18) - ${liquidationShiftSql(sql`l.side`, sql`l.funding_index`)})::text as key
        from l`),
    );
    for (const r of res) out.set(Number(r.i), { entry: r.entry, units: r.units, liq: r.liq, key: r.key });
  }
  return out;
}

/** The close statement's funded / c1 / c2 / calc chain, for each close at its mark. */
async function closeCalcs(tx: Tx, rows: readonly TCloseInputRow[]) {
  const out = new Map<number, TCloseCalc>();
  for (const c of chunks(rows)) {
    const u = unnestSql('u', {
      i: c.map((r) => String(r.i)),
      ticker: c.map((r) => r.ticker),
      side: c.map((r) => r.side),
      units: c.map((r) => r.units),
      entry_price: c.map((r) => r.entry),
      margin: c.map((r) => r.margin),
      collateral: c.map((r) => r.collateral),
      funding_paid: c.map((r) => r.fundingPaid),
      open_fee: c.map((r) => r.openFee),
      funding_index_entry: c.map((r) => r.fundingIndexEntry),
      mark_price: c.map((r) => r.mark),
    });
    const res = rowsOf<Record<string, string> & { i: number }>(
      await tx.execute(sql`
        with v as materialized (
          select u.i::int as i, u.ticker, u.side, u.units::numeric(38, 18) as units, u.entry_price::numeric(38, 18) as entry_price,
            u.margin::numeric(30, 8) as margin, u.collateral::numeric(30, 8) as collateral, u.funding_paid::numeric(30, 8) as funding_paid,
            u.open_fee::numeric(30, 8) as open_fee, u.funding_index_entry::numeric(38, 18) as funding_index_entry, u.mark_price::numeric(38, 18) as mark_price
          from ${u}
        ),
        funded as (
          select v.i, v.side, v.units, v.entry_price, v.margin, v.open_fee, v.mark_price, m.depth,
            v.collateral - a.accrued as collateral, v.funding_paid + a.accrued as funding_paid, m.funding_index
          from v join ${perpMarkets} m on m.ticker = v.ticker,
            lateral (select ${accruedFundingSql(sql`v.side`, sql`v.units`, sql`m.funding_index`, sql`v.funding_index_entry`)} as accrued) a
        ),
        c1 as (
          select funded.*, x.notional, ${fillPriceSql(sql`funded.mark_price`, sql`funded.side = 'short'`, impactSql(sql`x.notional`, sql`funded.depth`))} as exit
          from funded, lateral (select trunc(funded.units * funded.mark_price, 8) as notional) x
        ),
        c2 as (
          select c1.*, ${pricePnLSql(sql`c1.side`, sql`c1.units`, sql`c1.entry_price`, sql`c1.exit`)} as pnl, ${closeFeeSql(sql`c1.units`, sql`c1.exit`)} as fee
          from c1
        ),
        calc as (
          select c2.*, greatest(0, c2.margin + c2.pnl - c2.fee) as close_credit,
            greatest(0, c2.collateral + c2.pnl - c2.fee) - greatest(0, c2.margin + c2.pnl - c2.fee) as funding_credit,
            greatest(0, c2.collateral + c2.pnl - c2.fee) - c2.margin - c2.open_fee as net
          from c2
        )
        select i, exit::text as exit, notional::text as notional, pnl::text as pnl, fee::text as fee, close_credit::text as close_credit,
          funding_credit::text as funding_credit, net::text as net, collateral::text as collateral, funding_paid::text as funding_paid,
          funding_index::text as funding_index,
          (${liquidationPriceSql(sql`side`, sql`entry_price`, sql`units`, sql`collateral`)})::text as liq
        from calc`),
    );
    for (const r of res)
      out.set(Number(r.i), {
        exit: r.exit!,
        notional: r.notional!,
        pnl: r.pnl!,
        fee: r.fee!,
        closeCredit: r.close_credit!,
        fundingCredit: r.funding_credit!,
        net: r.net!,
        collateral: r.collateral!,
        fundingPaid: r.funding_paid!,
        fundingIndex: r.funding_index!,
        liq: r.liq!,
      });
  }
  return out;
}

/** Whether the sweep at `mark` reaches a position (service/liquidate.ts: key ≥ mark − shift for a long, ≤ for a short). */
/**
 * The open positions of one ticker and side, for the sweep after each fill: a long is reached when
 * its key ≥ mark − shift(long), a short when its key ≤ mark − shift(short) (service/liquidate.ts).
 * The most exposed key (highest long, lowest short) is kept so that a fill reaching nothing, the
 * usual case, costs one comparison.
 */
class OpenSide {
  private readonly open = new Set<TPos>();
  private edge: TDecimal | null = null;
  private stale = false;
  constructor(private readonly side: TPerpSide) {}
  private beyond(a: TDecimal, b: TDecimal) {
    return this.side === 'long' ? a.gt(b) : a.lt(b);
  }
  add(p: TPos) {
    this.open.add(p);
    if (!this.stale && (this.edge === null || this.beyond(p.key, this.edge))) this.edge = p.key;
  }
  remove(p: TPos) {
    if (this.open.delete(p) && this.edge !== null && p.key.eq(this.edge)) this.stale = true;
  }
  /** Removes and returns the positions `reach` (mark − shift) reaches. */
  takeReached(reach: TDecimal): TPos[] {
    if (this.stale) {
      this.edge = null;
      for (const p of this.open) if (this.edge === null || this.beyond(p.key, this.edge)) this.edge = p.key;
      this.stale = false;
    }
    const hit = (k: TDecimal) => (this.side === 'long' ? k.gte(reach) : k.lte(reach));
    if (this.edge === null || !hit(this.edge)) return [];
    const out = [...this.open].filter((p) => hit(p.key));
    for (const p of out) this.remove(p);
    return out;
  }
}

/** The sweep's writes for positions it reached, each at its own mark and time (service/liquidate.ts, less the outbox). */
async function writeLiquidations(tx: Tx, liquidations: readonly { id: string; mark: string; at: Date }[]) {
  const p = sql.raw('p');
  for (const c of chunks(liquidations)) {
    const u = unnestSql('u', { id: c.map((l) => l.id), mark: c.map((l) => l.mark), at: c.map((l) => l.at.toISOString()) });
    await tx.execute(sql`
      with v as materialized (select u.id, u.mark::numeric(38, 18) as mark, u.at::timestamptz as at from ${u}),
      liq as (
        update ${perpPositions} p set
          status = 'liquidated',
          exit_price = v.mark,
          realized_pnl = ${pricePnLSql(sql`${p}.side`, sql`${p}.units`, sql`${p}.entry_price`, sql`v.mark`)},
          net_pnl = -(p.margin + p.open_fee),
          close_fee = 0,
          collateral = p.collateral - ${accruedFundingSql(sql`${p}.side`, sql`${p}.units`, sql`m.funding_index`, sql`${p}.funding_index_entry`)},
          funding_paid = p.funding_paid + ${accruedFundingSql(sql`${p}.side`, sql`${p}.units`, sql`m.funding_index`, sql`${p}.funding_index_entry`)},
          liquidation_price = ${effectiveLiquidationPriceSql(sql`${p}.side`, sql`${p}.liquidation_key`, sql`m.funding_index`)},
          funding_index_entry = m.funding_index,
          closed_at = v.at,
          updated_at = v.at
        from v, ${perpMarkets} m
        where p.id = v.id and m.ticker = p.ticker and p.status = 'open'
        returning p.id, p.user_id, p.ticker, p.side, p.size, p.units, p.leverage, p.exit_price, p.net_pnl, p.funding_paid, v.at
      ),
      ${liquidationRecordCtes(sql`liq.at`)}
      select count(*) from liq`);
  }
}

/**
 * Writes `items` in order as the services would (header). `known` maps keys opened by an earlier
 * call to their position ids. Runs inside the caller's transaction `tx`.
 */
export async function preparePerpHistory(
  tx: Tx,
  items: readonly TPerpHistoryTrade[],
  known: ReadonlyMap<string, string> = new Map(),
  opts: { ledger?: LedgerBatch } = {},
): Promise<THistoryWriter<TPerpHistoryResult>> {
  const refused: { index: number; code: string }[] = [];
  const positionIds = new Map<string, string>();
  if (!items.length) return { step: () => undefined, finish: async () => ({ written: 0, refused, positionIds }) };

  // Keys: each names one position. An open of a key already known or opened twice is a caller's bug.
  const opened = new Set<string>();
  for (const it of items) {
    if (it.action !== 'open') continue;
    if (known.has(it.key) || opened.has(it.key)) throw new Error(`writePerpHistory: key ${it.key} is opened twice`);
    opened.add(it.key);
  }
  const knownIds = [...new Set(items.filter((it) => it.action === 'close' && known.has(it.key)).map((it) => known.get(it.key)!))];

  // 1. The tickers' markets, locked (in ticker order).
  const tickers = [...new Set(items.map((it) => it.ticker))].sort();
  const marketRows = rowsOf<{ ticker: string; funding_index: string; index_price: string; shift_long: string; shift_short: string }>(
    await tx.execute(sql`
      select m.ticker, m.funding_index::text as funding_index, o.current_price::text as index_price,
        ${liquidationShiftSql(sql`'long'`, sql`m.funding_index`)}::text as shift_long,
        ${liquidationShiftSql(sql`'short'`, sql`m.funding_index`)}::text as shift_short
      from ${perpMarkets} m join ${organizations} o on o.ticker = m.ticker
      where m.ticker = any(${textArray(tickers)})
      order by m.ticker
      for update of m`),
  );
  const markets = new Map<string, TMarket>(
    marketRows.map((r) => [
      r.ticker,
      { ticker: r.ticker, fundingIndex: r.funding_index, indexPrice: r.index_price, shiftLong: dec(r.shift_long), shiftShort: dec(r.shift_short) },
    ]),
  );

  // 2. The positions: those earlier calls opened that this one closes, and every open one of the
  //    tickers (the sweep after each trade may reach any of them), locked in id order.
  const tickerList = [...markets.keys()];
  const posRows = rowsOf<{
    id: string;
    user_id: string;
    ticker: string;
    side: TPerpSide;
    status: TPos['status'];
    units: string;
    entry_price: string;
    margin: string;
    collateral: string;
    funding_paid: string;
    open_fee: string;
    funding_index_entry: string;
    liquidation_key: string;
  }>(
    await tx.execute(sql`
      select id, user_id, ticker, side, status, units::text as units, entry_price::text as entry_price, margin::text as margin,
        collateral::text as collateral, funding_paid::text as funding_paid, open_fee::text as open_fee,
        funding_index_entry::text as funding_index_entry, liquidation_key::text as liquidation_key
      from ${perpPositions}
      where id = any(${textArray(knownIds)}) or (status = 'open' and ticker = any(${textArray(tickerList)}))
      order by id
      for update`),
  );
  const positions = new Map<string, TPos>();
  const stored = new Map<string, (typeof posRows)[number]>();
  for (const r of posRows) {
    stored.set(r.id, r);
    positions.set(r.id, {
      id: r.id,
      userId: r.user_id,
      ticker: r.ticker,
      side: r.side,
      status: r.status,
      key: dec(r.liquidation_key),
      margin: r.margin,
      openFee: r.open_fee,
      fresh: false,
    });
  }

  // 3. The traders: none may have a referrer; their balances, locked.
  const traders = [...new Set(items.map((it) => it.userId))].sort();
  const referred = await tx
    .select({ id: users.id })
    .from(users)
    .where(sql`${inArray(users.id, traders)} and ${users.referredById} is not null`);
  if (referred.length) throw new Error(`writePerpHistory: trader ${referred[0]!.id} has a referrer; the bulk path is for NPCs`);
  // A caller writing predictions of the same minutes shares its batch (chained in time order at its apply).
  const ledger = opts.ledger ?? (await LedgerBatch.open(tx, traders));

  // 4. The numbers of every open and close at its mark (SQL, the services' expressions).
  const quotes = new Map<number, { size: string; leverage: string; margin: string; fee: string; cost: TDecimal }>();
  const openRows: TOpenInputRow[] = [];
  items.forEach((it, i) => {
    if (it.action !== 'open' || orderProblem(it) || !markets.has(it.ticker)) return;
    const size = toDecimalString(dec(it.size).toDecimalPlaces(8));
    const leverage = toDecimalString(dec(it.leverage));
    const q = quoteOpen({ side: it.side, size, leverage, markPrice: 1, depth: 1 });
    const v = { size: toDecimalString(q.size), leverage, margin: toDecimalString(q.margin), fee: toDecimalString(q.fee), cost: q.cost };
    quotes.set(i, v);
    openRows.push({ i, ticker: it.ticker, side: it.side, size: v.size, margin: v.margin, mark: it.mark });
  });
  const opens = await openCalcs(tx, openRows);
  const openIndexOf = new Map<string, number>();
  items.forEach((it, i) => {
    if (it.action === 'open') openIndexOf.set(it.key, i);
  });
  const closeRows: TCloseInputRow[] = [];
  items.forEach((it, i) => {
    if (it.action !== 'close') return;
    const o = openIndexOf.get(it.key);
    if (o !== undefined && o < i) {
      const calc = opens.get(o);
      const open = items[o] as Extract<TPerpHistoryTrade, { action: 'open' }>;
      if (!calc) return; // refused open: the close finds nothing
      if (open.ticker !== it.ticker) throw new Error(`writePerpHistory: close ${i} names ${it.ticker}, its position is on ${open.ticker}`);
      const q = quotes.get(o)!;
      closeRows.push({
        i,
        ticker: open.ticker,
        side: open.side,
        units: calc.units,
        entry: calc.entry,
        margin: q.margin,
        collateral: q.margin,
        fundingPaid: '0',
        openFee: q.fee,
        fundingIndexEntry: markets.get(open.ticker)!.fundingIndex,
        mark: it.mark,
      });
      return;
    }
    const id = known.get(it.key);
    const r = id === undefined ? undefined : stored.get(id);
    if (!r) return;
    if (r.ticker !== it.ticker) throw new Error(`writePerpHistory: close ${i} names ${it.ticker}, its position is on ${r.ticker}`);
    closeRows.push({
      i,
      ticker: r.ticker,
      side: r.side,
      units: r.units,
      entry: r.entry_price,
      margin: r.margin,
      collateral: r.collateral,
      fundingPaid: r.funding_paid,
      openFee: r.open_fee,
      fundingIndexEntry: r.funding_index_entry,
      mark: it.mark,
    });
  });
  const closes = await closeCalcs(tx, closeRows);

  // 5. The replay, in order: marks, balances, which positions are open, what each fill liquidates.
  const byKey = new Map<string, TPos>();
  for (const [key, id] of known) {
    const p = positions.get(id);
    if (p) byKey.set(key, p);
  }
  const books = new Map(tickerList.map((t) => [t, { long: new OpenSide('long'), short: new OpenSide('short') }]));
  const book = (p: TPos) => books.get(p.ticker)![p.side];
  for (const p of positions.values()) if (p.status === 'open' && books.has(p.ticker)) book(p).add(p);
  const markOf = new Map<string, { mark: string; at: Date; volume: TDecimal }>();
  const pnlOnly: { userId: string; pnl: TDecimal }[] = [];
  const lastAt = new Map<string, Date>();
  const liquidations: { id: string; mark: string; at: Date }[] = [];
  const trades: TTradeRow[] = [];
  const points: { id: string; ticker: string; mark: string; index: string; at: Date }[] = [];
  const knownClosed: TPos[] = [];
  let written = 0;

  const setMark = (ticker: string, mark: string, at: Date) => {
    const m = markOf.get(ticker);
    if (m) Object.assign(m, { mark, at });
    else if (markets.has(ticker)) markOf.set(ticker, { mark, at, volume: dec(0) });
  };
  const traded = (ticker: string, fill: string, volume: string, at: Date) => {
    const m = markOf.get(ticker)!;
    m.mark = fill;
    m.at = at;
    m.volume = m.volume.plus(volume);
    const market = markets.get(ticker)!;
    points.push({ id: crypto.randomUUID(), ticker, mark: fill, index: market.indexPrice, at });
    // The sweep after the trade, at the new mark.
    const mark = dec(fill);
    const b = books.get(ticker)!;
    for (const p of [...b.long.takeReached(mark.minus(market.shiftLong)), ...b.short.takeReached(mark.minus(market.shiftShort))]) {
      p.status = 'liquidated';
      liquidations.push({ id: p.id, mark: fill, at });
      pnlOnly.push({ userId: p.userId, pnl: dec(p.margin).plus(p.openFee).negated() });
      lastAt.set(p.userId, at);
    }
  };

  const step = (i: number) => {
    const it = items[i]!;
    if (it.action === 'open') {
      setMark(it.ticker, it.mark, it.at);
      const q = quotes.get(i);
      const calc = opens.get(i);
      if (!q || !calc) return void refused.push({ index: i, code: 'VALIDATION_ERROR' });
      const balance = ledger.balanceOf(it.userId, it.at) ?? dec(0);
      if (balance.lt(q.cost)) return void refused.push({ index: i, code: 'INSUFFICIENT_BALANCE' });
      const p: TPos = {
        id: crypto.randomUUID(),
        userId: it.userId,
        ticker: it.ticker,
        side: it.side,
        status: 'open',
        key: dec(calc.key),
        margin: q.margin,
        openFee: q.fee,
        fresh: true,
        open: { ...calc, item: i, size: q.size, leverage: q.leverage, fee: q.fee, at: it.at },
      };
      positions.set(p.id, p);
      byKey.set(it.key, p);
      positionIds.set(it.key, p.id);
      book(p).add(p);
      ledger.push({
        userId: it.userId,
        amount: q.cost.negated(),
        type: 'perp_open',
        description: `Opened a ${q.leverage}x ${it.side} on ${it.ticker}`,
        reference: { type: 'perp_position', id: p.id },
        at: it.at,
      });
      lastAt.set(it.userId, it.at);
      trades.push({ id: crypto.randomUUID(), userId: it.userId, positionId: p.id, ticker: it.ticker, side: it.side, action: 'open', size: q.size, price: calc.entry, fee: q.fee, realizedPnL: null, at: it.at });
      written++;
      traded(it.ticker, calc.entry, q.size, it.at);
      return;
    }
    const p = byKey.get(it.key);
    if (!p) return void refused.push({ index: i, code: 'NOT_FOUND' });
    setMark(it.ticker, it.mark, it.at);
    if (p.userId !== it.userId) return void refused.push({ index: i, code: 'FORBIDDEN' });
    if (p.status !== 'open') return void refused.push({ index: i, code: 'POSITION_CLOSED' });
    const c = closes.get(i);
    if (!c) throw new Error(`writePerpHistory: no close computed for item ${i}`);
    p.status = 'closed';
    p.close = { ...c, at: it.at };
    book(p).remove(p);
    if (!p.fresh) knownClosed.push(p);
    const legs = [
      { type: 'perp_close' as const, amount: dec(c.closeCredit), description: 'Closed a perpetual position' },
      { type: 'funding_paid' as const, amount: dec(c.fundingCredit), description: 'Funding settled on close' },
    ].filter((l) => !l.amount.isZero());
    legs.forEach((l, n) =>
      ledger.push({
        userId: it.userId,
        amount: l.amount,
        type: l.type,
        description: l.description,
        reference: { type: 'perp_position', id: p.id },
        realizedPnL: n === 0 ? c.net : undefined,
        at: it.at,
      }),
    );
    if (!legs.length && !dec(c.net).isZero()) pnlOnly.push({ userId: it.userId, pnl: dec(c.net) });
    lastAt.set(it.userId, it.at);
    trades.push({
      id: crypto.randomUUID(),
      userId: it.userId,
      positionId: p.id,
      ticker: p.ticker,
      side: p.side,
      action: 'close',
      size: c.notional,
      price: c.exit,
      fee: c.fee,
      realizedPnL: c.net,
      at: it.at,
    });
    written++;
    traded(p.ticker, c.exit, c.notional, it.at);
  };

  const finish = async (): Promise<TPerpHistoryResult> => {
  // 6. The writes. Positions this call opened, in their final state (a liquidated one as it
  //    stood before the sweep, which the liquidation statement then applies as the sweep does).
  const fresh = [...positions.values()].filter((p) => p.fresh);
  for (const c of chunks(fresh)) {
    const col = (f: (p: TPos) => string | null) => c.map(f);
    const u = unnestSql('u', {
      id: col((p) => p.id),
      user_id: col((p) => p.userId),
      ticker: col((p) => p.ticker),
      side: col((p) => p.side),
      size: col((p) => p.open!.size),
      units: col((p) => p.open!.units),
      entry_price: col((p) => p.open!.entry),
      leverage: col((p) => p.open!.leverage),
      margin: col((p) => p.margin),
      collateral: col((p) => p.close?.collateral ?? p.margin),
      funding_paid: col((p) => p.close?.fundingPaid ?? '0'),
      liquidation_price: col((p) => p.close?.liq ?? p.open!.liq),
      funding_index_entry: col((p) => p.close?.fundingIndex ?? markets.get(p.ticker)!.fundingIndex),
      open_fee: col((p) => p.open!.fee),
      close_fee: col((p) => p.close?.fee ?? null),
      exit_price: col((p) => p.close?.exit ?? null),
      realized_pnl: col((p) => p.close?.pnl ?? null),
      net_pnl: col((p) => p.close?.net ?? null),
      status: col((p) => (p.close ? 'closed' : 'open')),
      opened_at: col((p) => p.open!.at.toISOString()),
      closed_at: col((p) => p.close?.at.toISOString() ?? null),
      updated_at: col((p) => (p.close?.at ?? p.open!.at).toISOString()),
    });
    await tx.execute(sql`
      insert into ${perpPositions} (id, user_id, ticker, side, size, units, entry_price, leverage, margin, collateral, funding_paid,
        liquidation_price, funding_index_entry, open_fee, close_fee, exit_price, realized_pnl, net_pnl, status, opened_at, closed_at, updated_at)
      select id, user_id, ticker, side, size::numeric, units::numeric, entry_price::numeric, leverage::numeric, margin::numeric, collateral::numeric,
        funding_paid::numeric, liquidation_price::numeric, funding_index_entry::numeric, open_fee::numeric, close_fee::numeric,
        exit_price::numeric, realized_pnl::numeric, net_pnl::numeric, status, opened_at::timestamptz,
        closed_at::timestamptz, updated_at::timestamptz
      from ${u}`);
  }
  // Positions earlier calls opened, closed here.
  for (const c of chunks(knownClosed)) {
    const col = (f: (x: TCloseCalc & { at: Date }) => string) => c.map((p) => f(p.close!));
    const u = unnestSql('v', {
      id: c.map((p) => p.id),
      exit: col((x) => x.exit),
      pnl: col((x) => x.pnl),
      fee: col((x) => x.fee),
      net: col((x) => x.net),
      collateral: col((x) => x.collateral),
      funding_paid: col((x) => x.fundingPaid),
      funding_index: col((x) => x.fundingIndex),
      liq: col((x) => x.liq),
      at: col((x) => x.at.toISOString()),
    });
    await tx.execute(sql`
      update ${perpPositions} p set status = 'closed', exit_price = v.exit::numeric, realized_pnl = v.pnl::numeric, close_fee = v.fee::numeric,
        net_pnl = v.net::numeric, collateral = v.collateral::numeric, funding_paid = v.funding_paid::numeric,
        funding_index_entry = v.funding_index::numeric, liquidation_price = v.liq::numeric, closed_at = v.at::timestamptz, updated_at = v.at::timestamptz
      from ${u}
      where p.id = v.id`);
  }
  for (const c of chunks(trades)) {
    const col = (f: (t: TTradeRow) => string | null) => c.map(f);
    const u = unnestSql('u', {
      id: col((t) => t.id),
      user_id: col((t) => t.userId),
      position_id: col((t) => t.positionId),
      ticker: col((t) => t.ticker),
      side: col((t) => t.side),
      action: col((t) => t.action),
      size: col((t) => t.size),
      price: col((t) => t.price),
      fee: col((t) => t.fee),
      realized_pnl: col((t) => t.realizedPnL),
      created_at: col((t) => t.at.toISOString()),
    });
    await tx.execute(sql`
      insert into ${perpTrades} (id, user_id, position_id, ticker, side, action, size, price, fee, realized_pnl, created_at)
      select id, user_id, position_id, ticker, side, action, size::numeric, price::numeric, fee::numeric, realized_pnl::numeric, created_at::timestamptz
      from ${u}`);
  }
  for (const c of chunks(points)) {
    const u = unnestSql('u', {
      id: c.map((p) => p.id),
      ticker: c.map((p) => p.ticker),
      mark_price: c.map((p) => p.mark),
      index_price: c.map((p) => p.index),
      created_at: c.map((p) => p.at.toISOString()),
    });
    await tx.execute(sql`
      insert into ${perpPricePoints} (id, ticker, mark_price, index_price, source, created_at)
      select id, ticker, mark_price::numeric, index_price::numeric, 'trade', created_at::timestamptz from ${u}`);
  }
  if (!opts.ledger) await ledger.apply(tx);
  await writeLiquidations(tx, liquidations);

  // lifetimePnL booked without money: liquidations and closes that returned nothing. Each user's
  // updated_at ends at their last event, as the services leave it.
  const byUser = new Map<string, TDecimal>();
  for (const b of pnlOnly) byUser.set(b.userId, (byUser.get(b.userId) ?? dec(0)).plus(b.pnl));
  const byAt = new Map<number, { userId: string; pnl: TDecimal }[]>();
  for (const [userId, pnl] of byUser) {
    const at = lastAt.get(userId)!.getTime();
    byAt.set(at, [...(byAt.get(at) ?? []), { userId, pnl }]);
  }
  for (const [at, list] of byAt) {
    for (const c of chunks(list)) {
      const u = unnestSql('u', { user_id: c.map((b) => b.userId), pnl: c.map((b) => toDecimalString(b.pnl)) });
      const source = sql`(select u.user_id, u.pnl::numeric as pnl from ${u})`;
      await tx.execute(sql`with ${realizedPnLBookingCte({ name: 'booked', source, at: new Date(at) })} select count(*) from booked`);
    }
  }

  // The markets: the last mark each ticker was given or moved to, and the volume traded.
  const marks = [...markOf.entries()];
  for (const c of chunks(marks)) {
    const u = unnestSql('v', {
      ticker: c.map(([t]) => t),
      mark: c.map(([, m]) => m.mark),
      volume: c.map(([, m]) => toDecimalString(m.volume)),
      at: c.map(([, m]) => m.at.toISOString()),
    });
    await tx.execute(sql`
      update ${perpMarkets} m set mark_price = v.mark::numeric(38, 18), volume = m.volume + v.volume::numeric, updated_at = v.at::timestamptz
      from ${u} where m.ticker = v.ticker`);
  }
  return { written, refused, positionIds };
  };
  return { step, finish };
}

/**
 * Writes `items` in order as the services would (header). `known` maps keys opened by an earlier
 * call to their position ids. Runs inside the caller's transaction `tx`.
 */
export async function writePerpHistory(
  tx: Tx,
  items: readonly TPerpHistoryTrade[],
  known: ReadonlyMap<string, string> = new Map(),
  opts: { ledger?: LedgerBatch } = {},
): Promise<TPerpHistoryResult> {
  const w = await preparePerpHistory(tx, items, known, opts);
  items.forEach((_, i) => w.step(i));
  return w.finish();
}
