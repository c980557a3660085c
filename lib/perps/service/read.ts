/**
 * Read side of perps: tickers with 24 h statistics, price history, positions (open ones as of
 * their ticker's funding index, lib/perps/dto). Reads only.
 */
import 'server-only';
import { and, asc, count, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { organizations, perpFundingRates, perpMarkets, perpPositions, perpPricePoints, perpTrades, perpVolumeHours, users } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { dec, toNumber } from '@/lib/money/decimal';
import type { TCaller } from '@/lib/auth/caller';
import { toUserSummary } from '@/lib/users/dto';
import { toPerpPositionDto, toPerpTickerDto, type TTickerStats } from '../dto';

const DAY_MS = 86_400_000;

const RANGE_MS = { '1h': 3_600_000, '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS, all: null } as const;

/**
 * A ticker's (`m`) traded notional after `since`: the whole UTC hours from perp_volume_hours
 * (migration 0032) and, from perp_trades, only the part of the window's first hour. Every trade's
 * row holds the notional it moved at its price (opens, closes, liquidations); the sum is theirs
 * exactly, at a cost that no longer grows with how much the ticker trades.
 */
const volume24hSql = (since: SQL) => {
  const firstWholeHour = sql`(date_trunc('hour', ${since}, 'UTC') + interval '1 hour')`;
  return sql`(coalesce((select sum(h.amount) from ${perpVolumeHours} h where h.ticker = m.ticker and h.hour >= ${firstWholeHour}), 0)
      + coalesce((select sum(${perpTrades.size}) from ${perpTrades}
        where ${perpTrades.ticker} = m.ticker and ${perpTrades.createdAt} > ${since} and ${perpTrades.createdAt} < ${firstWholeHour}), 0))`;
};

/**
 * Every ticker (or one) with its 24 h statistics, in one statement.
 * - open interest: the notional of open positions at the mark (units × mark), long and short,
 *   from the open units a trigger keeps on the ticker's row (migration 0032), not a sum over positions;
 * - 24 h volume: the notional of every trade in the last 24 h (opens, closes, liquidations);
 * - 24 h high and low: the price points of the last 24 h and the live mark, so they bracket it.
 */
const tickerStats = async (ticker?: string): Promise<TTickerStats[]> => {
  const db = await getDb();
  const since = sql`${new Date(now().getTime() - DAY_MS).toISOString()}::timestamptz`;
  const rows = rowsOf<Record<string, string | null>>(
    await db.execute(sql`
      select m.ticker, m.organization_id, o.name, o.sector, m.mark_price, m.depth, o.current_price as index_price,
        coalesce(
          (select pp.mark_price from ${perpPricePoints} pp where pp.ticker = m.ticker and pp.created_at <= ${since} order by pp.created_at desc limit 1),
          (select pp.mark_price from ${perpPricePoints} pp where pp.ticker = m.ticker order by pp.created_at asc limit 1)) as mark_24h_ago,
        greatest(m.mark_price, (select max(pp.mark_price) from ${perpPricePoints} pp where pp.ticker = m.ticker and pp.created_at > ${since})) as high_24h,
        least(m.mark_price, (select min(pp.mark_price) from ${perpPricePoints} pp where pp.ticker = m.ticker and pp.created_at > ${since})) as low_24h,
        ${volume24hSql(since)} as volume_24h,
        trunc(m.open_units_long * m.mark_price, 8) as oi_long,
        trunc(m.open_units_short * m.mark_price, 8) as oi_short
      from ${perpMarkets} m join ${organizations} o on o.id = m.organization_id
      where ${ticker ? sql`m.ticker = ${ticker}` : sql`true`}
      order by m.ticker`),
  );
  return rows.map((r) => ({
    ticker: r.ticker!,
    organizationId: r.organization_id!,
    name: r.name!,
    sector: r.sector ?? '',
    markPrice: String(r.mark_price),
    indexPrice: String(r.index_price),
    markPrice24hAgo: r.mark_24h_ago === null ? null : String(r.mark_24h_ago),
    high24h: r.high_24h === null ? null : String(r.high_24h),
    low24h: r.low_24h === null ? null : String(r.low_24h),
    volume24h: String(r.volume_24h),
    openInterestLong: String(r.oi_long),
    openInterestShort: String(r.oi_short),
    depth: String(r.depth),
  }));
};

export async function listTickers() {
  const at = now();
  const tickers = (await tickerStats()).map((t) => toPerpTickerDto(t, at));
  return { tickers, markets: tickers };
}

export async function getTicker(ticker: string) {
  const [t] = await tickerStats(ticker);
  if (!t) throw new AppError('NOT_FOUND', `Unknown ticker ${ticker}`, { ticker });
  return toPerpTickerDto(t, now());
}

export async function getTickerHistory(ticker: string, range: keyof typeof RANGE_MS) {
  const t = await getTicker(ticker);
  const db = await getDb();
  const span = RANGE_MS[range];
  const from = span === null ? undefined : new Date(now().getTime() - span);
  const points = await db
    .select()
    .from(perpPricePoints)
    .where(and(eq(perpPricePoints.ticker, ticker), from ? gte(perpPricePoints.createdAt, from) : undefined))
    .orderBy(asc(perpPricePoints.createdAt))
    .limit(5000);
  const funding = await db
    .select()
    .from(perpFundingRates)
    .where(eq(perpFundingRates.ticker, ticker))
    .orderBy(desc(perpFundingRates.periodStart))
    .limit(30);
  return {
    ticker: t,
    history: points.map((p) => ({
      timestamp: p.createdAt.toISOString(),
      time: Math.floor(p.createdAt.getTime() / 1000),
      markPrice: toNumber(p.markPrice),
      indexPrice: toNumber(p.indexPrice),
      price: toNumber(p.markPrice),
      source: p.source,
    })),
    fundingHistory: funding.map((f) => ({
      periodStart: f.periodStart.toISOString(),
      rate: toNumber(f.rate),
      markPrice: toNumber(f.markPrice),
      indexPrice: toNumber(f.indexPrice),
    })),
  };
}

type TPerpPositionsFilter = { status: 'open' | 'closed' | 'all'; limit: number; ticker?: string };

/** A user's positions with the current mark: open ones, or closed and liquidated ones (newest first). */
export async function findUserPerpPositions(userId: string, opts: TPerpPositionsFilter) {
  const db = await getDb();
  const statusFilter =
    opts.status === 'open'
      ? eq(perpPositions.status, 'open')
      : opts.status === 'closed'
        ? inArray(perpPositions.status, ['closed', 'liquidated'])
        : undefined;
  const rows = await db
    .select({ position: perpPositions, markPrice: perpMarkets.markPrice, fundingIndex: perpMarkets.fundingIndex, name: organizations.name })
    .from(perpPositions)
    .innerJoin(perpMarkets, eq(perpMarkets.ticker, perpPositions.ticker))
    .innerJoin(organizations, eq(organizations.id, perpMarkets.organizationId))
    .where(and(eq(perpPositions.userId, userId), statusFilter, opts.ticker ? eq(perpPositions.ticker, opts.ticker) : undefined))
    .orderBy(desc(sql`coalesce(${perpPositions.closedAt}, ${perpPositions.openedAt})`))
    .limit(opts.limit);
  return rows.map((r) => toPerpPositionDto(r.position, { markPrice: r.markPrice, name: r.name, fundingIndex: r.fundingIndex }));
}

/** GET /api/markets/perps/positions: the caller's own positions. */
export async function listUserPerpPositions(input: { caller: TCaller } & TPerpPositionsFilter) {
  const { caller, ...filter } = input;
  return findUserPerpPositions(caller.userId, filter);
}

/** Perpetual trades newest first (opens, closes, liquidations), in the shape of GET /api/trades. */
export async function findPerpTrades(opts: { take: number; userId?: string; ticker?: string }) {
  const db = await getDb();
  const where = and(opts.userId ? eq(perpTrades.userId, opts.userId) : undefined, opts.ticker ? eq(perpTrades.ticker, opts.ticker) : undefined);
  const rows = await db
    .select({ trade: perpTrades, name: organizations.name, username: users.username, displayName: users.displayName, profileImageUrl: users.profileImageUrl })
    .from(perpTrades)
    .innerJoin(organizations, eq(organizations.ticker, perpTrades.ticker))
    .innerJoin(users, eq(users.id, perpTrades.userId))
    .where(where)
    .orderBy(desc(perpTrades.createdAt), desc(perpTrades.id))
    .limit(opts.take);
  const [{ total }] = (await db.select({ total: count() }).from(perpTrades).where(where)) as [{ total: number }];
  return {
    total: Number(total),
    trades: rows.map(({ trade: t, ...r }) => ({
      id: t.id,
      type: 'perp' as const,
      action: t.action,
      userId: t.userId,
      user: toUserSummary({ id: t.userId, username: r.username, displayName: r.displayName, profileImageUrl: r.profileImageUrl }, { nameOnly: true }),
      marketId: t.ticker,
      ticker: t.ticker,
      question: r.name,
      positionId: t.positionId,
      side: t.side,
      outcome: null,
      amount: toNumber(t.size),
      size: toNumber(t.size),
      shares: toNumber(dec(t.size).div(t.price).toDecimalPlaces(8)),
      price: toNumber(t.price),
      fee: toNumber(t.fee),
      realizedPnL: t.realizedPnL === null ? null : toNumber(t.realizedPnL),
      createdAt: t.createdAt.toISOString(),
      timestamp: t.createdAt.toISOString(),
    })),
  };
}
