/**
 * What pools hold, read in ONE statement (so cash and positions come from one snapshot: a trade
 * that commits meanwhile is seen wholly or not at all), and valued with the pure navOf. Perps are
 * taken as of their ticker's funding index: collateral and liquidation price include the funding
 * accrued since they opened (lib/perps/math withAccruedFunding). Reads only; the caller decides
 * whether it holds the pool's row lock.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { textArray, type DbOrTx } from '@/db/client';
import { marketPositions, markets, perpMarkets, perpPositions, users } from '@/db/schema';
import { yesPriceSql } from '@/lib/markets/sql';
import { dec, type TDecimal } from '@/lib/money/decimal';
import { markToMarket, withAccruedFunding, type TPerpSide } from '@/lib/perps/math';
import { navOf } from './math';

export type TPerpHolding = {
  id: string;
  ticker: string;
  side: TPerpSide;
  size: string;
  units: string;
  leverage: string;
  entryPrice: string;
  markPrice: string;
  margin: string;
  /** With the funding accrued so far. */
  collateral: string;
  openFee: string;
  /** With the funding accrued so far. */
  liquidationPrice: string;
  openedAt: Date;
  unrealizedPnL: TDecimal;
  /** Equity at the mark, never below zero. */
  value: TDecimal;
};

export type TPredictionHolding = {
  marketId: string;
  /** Q<questionNumber>: how the portfolio names a question. */
  label: string;
  question: string;
  side: 'YES' | 'NO';
  shares: string;
  costBasis: string;
  price: TDecimal;
  value: TDecimal;
};

export type THoldings = {
  accountId: string;
  cash: TDecimal;
  perps: TPerpHolding[];
  predictions: TPredictionHolding[];
  /** cash + perps at equity + predictions at price (lib/pools/math navOf). */
  nav: TDecimal;
  positionsValue: TDecimal;
};

type TRow = {
  kind: 'cash' | 'perp' | 'pred';
  account_id: string;
  id: string | null;
  ticker: string | null;
  side: string | null;
  a: string | null; // cash | size | shares
  b: string | null; // units | cost basis
  c: string | null; // leverage | yes price
  entry_price: string | null;
  mark_price: string | null;
  margin: string | null;
  collateral: string | null;
  open_fee: string | null;
  liquidation_price: string | null;
  funding_paid: string | null;
  funding_index_entry: string | null;
  funding_index: string | null;
  opened_at: string | Date | null;
  text: string | null;
};

/** The holdings of the given pool accounts (an account with no row is absent from the map). */
export async function loadHoldings(db: DbOrTx, accountIds: readonly string[]): Promise<Map<string, THoldings>> {
  const out = new Map<string, THoldings>();
  if (accountIds.length === 0) return out;
  // One text[] parameter, however many accounts, so the statement's text is always the same, and
  // it runs as a prepared statement (drizzle's prepare: postgres.js keeps it per connection).
  // Parsing and planning this union cost PostgreSQL several times its execution, on every deposit
  // and withdrawal, while the pool's lock is held.
  const ids = textArray(accountIds);
  const holdings = sql`
      select 'cash' as kind, u.id as account_id, null as id, null as ticker, null as side, u.virtual_balance::text as a,
        null as b, null as c, null as entry_price, null as mark_price, null as margin, null as collateral, null as open_fee,
        null as liquidation_price, null as funding_paid, null as funding_index_entry, null as funding_index,
        null::timestamptz as opened_at, null as text
      from ${users} u where u.id = any(${ids})
      union all
      select 'perp', p.user_id, p.id, p.ticker, p.side, p.size::text, p.units::text, p.leverage::text, p.entry_price::text,
        m.mark_price::text, p.margin::text, p.collateral::text, p.open_fee::text, p.liquidation_price::text,
        p.funding_paid::text, p.funding_index_entry::text, m.funding_index::text, p.opened_at, null
      from ${perpPositions} p join ${perpMarkets} m on m.ticker = p.ticker
      where p.user_id = any(${ids}) and p.status = 'open'
      union all
      select 'pred', mp.user_id, mp.market_id, 'Q' || mk.question_number, mp.side, mp.shares::text, mp.cost_basis::text,
        ${yesPriceSql('mk')}::text, null, null, null, null, null, null, null, null, null, mp.created_at, mk.text
      from ${marketPositions} mp join ${markets} mk on mk.id = mp.market_id
      where mp.user_id = any(${ids}) and mp.shares > 0 and mp.settled_at is null and mk.status = 'active'`;
  const column = <K extends keyof TRow>(name: K) => sql<TRow[K]>`${sql.identifier('h')}.${sql.identifier(name)}`;
  const rows: TRow[] = await db
    .select({
      kind: column('kind'),
      account_id: column('account_id'),
      id: column('id'),
      ticker: column('ticker'),
      side: column('side'),
      a: column('a'),
      b: column('b'),
      c: column('c'),
      entry_price: column('entry_price'),
      mark_price: column('mark_price'),
      margin: column('margin'),
      collateral: column('collateral'),
      open_fee: column('open_fee'),
      liquidation_price: column('liquidation_price'),
      funding_paid: column('funding_paid'),
      funding_index_entry: column('funding_index_entry'),
      funding_index: column('funding_index'),
      opened_at: column('opened_at'),
      text: column('text'),
    })
    .from(sql`(${holdings}) as h`)
    .orderBy(sql`h.account_id, h.kind, h.opened_at, h.id`)
    .prepare('pool_holdings')
    .execute();
  const byAccount = new Map<string, { cash: string; perps: TPerpHolding[]; predictions: TPredictionHolding[] }>();
  const entry = (id: string) => {
    let e = byAccount.get(id);
    if (!e) byAccount.set(id, (e = { cash: '0', perps: [], predictions: [] }));
    return e;
  };
  for (const r of rows) {
    const e = entry(r.account_id);
    if (r.kind === 'cash') e.cash = r.a!;
    else if (r.kind === 'perp') {
      const side = r.side as TPerpSide;
      const funded = withAccruedFunding(
        { side, units: r.b!, collateral: r.collateral!, fundingPaid: r.funding_paid!, liquidationPrice: r.liquidation_price!, fundingIndexEntry: r.funding_index_entry! },
        r.funding_index!,
      );
      const collateral = funded.collateral.toFixed(8);
      const m = markToMarket({ side, units: r.b!, entryPrice: r.entry_price!, margin: r.margin!, collateral, openFee: r.open_fee! }, r.mark_price!);
      e.perps.push({
        id: r.id!,
        ticker: r.ticker!,
        side,
        size: r.a!,
        units: r.b!,
        leverage: r.c!,
        entryPrice: r.entry_price!,
        markPrice: r.mark_price!,
        margin: r.margin!,
        collateral,
        openFee: r.open_fee!,
        liquidationPrice: funded.liquidationPrice.toFixed(18),
        openedAt: new Date(r.opened_at!),
        unrealizedPnL: m.unrealizedPnL,
        value: m.equity.isNegative() ? dec(0) : m.equity,
      });
    } else {
      const side = r.side as 'YES' | 'NO';
      const yes = dec(r.c!);
      const price = side === 'YES' ? yes : dec(1).minus(yes);
      e.predictions.push({
        marketId: r.id!,
        label: r.ticker ?? 'Q',
        question: r.text ?? '',
        side,
        shares: r.a!,
        costBasis: r.b!,
        price,
        value: dec(r.a!).times(price).toDecimalPlaces(8, 1),
      });
    }
  }
  for (const [accountId, e] of byAccount) {
    const nav = navOf({
      cash: e.cash,
      perps: e.perps.map((p) => ({ collateral: p.collateral, pricePnL: p.unrealizedPnL })),
      predictions: e.predictions.map((h) => ({ shares: h.shares, price: h.price })),
    });
    out.set(accountId, { accountId, cash: dec(e.cash), perps: e.perps, predictions: e.predictions, nav, positionsValue: nav.minus(e.cash) });
  }
  return out;
}

export async function loadHoldingsOf(db: DbOrTx, accountId: string): Promise<THoldings> {
  const h = (await loadHoldings(db, [accountId])).get(accountId);
  if (!h) throw new Error(`pools: no account ${accountId}`);
  return h;
}
