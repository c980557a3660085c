/**
 * The API's perps shapes and database rows to them (numbers where the specification says number).
 * No I/O. The shapes (TPerpTicker, TPerpPosition, TPerpTapeTrade) are owned here;
 * lib/contracts/perps.ts documents them and checks the two agree.
 * An open position is shown as of its ticker's funding index: collateral, funding paid and
 * liquidation price include the funding accrued since it opened (lib/perps/math withAccruedFunding).
 */
import type { TPerpPositionRow } from '@/db/schema';
import { dec, toNumber, type TDecimalInput } from '@/lib/money/decimal';
import { annualizedFundingRate, changePercent, fundingPeriodStart, fundingRate, FUNDING_PERIOD_MS, markToMarket, withAccruedFunding } from './math';

/** A ticker as GET /api/markets/perps lists it (timestamps ISO 8601 UTC). */
export type TPerpTicker = {
  ticker: string;
  organizationId: string;
  name: string;
  sector: string;
  currentPrice: number;
  price: number;
  markPrice: number;
  indexPrice: number;
  change24h: number;
  changePercent24h: number;
  high24h: number;
  low24h: number;
  volume24h: number;
  /**
   * The funding rate per 8-hour period the next funding would charge as the book stands (premium
   * and open-interest imbalance, lib/perps/math fundingRate); positive: longs pay shorts.
   */
  fundingRate: number;
  /** The same rate a year long: fundingRate × 3 × 365 (simple, not compounded). */
  fundingRateAnnualized: number;
  nextFundingTime: string;
  openInterest: number;
  openInterestLong: number;
  openInterestShort: number;
  /** Notional that would move the mark 100% (a trade's impact is size / depth, at most 1%). */
  depth: number;
};

/** A position, open or settled. */
export type TPerpPosition = {
  id: string;
  userId: string;
  ticker: string;
  name: string;
  side: 'long' | 'short';
  status: 'open' | 'closed' | 'liquidated';
  entryPrice: number;
  size: number;
  units: number;
  collateral: number;
  margin: number;
  leverage: number;
  liquidationPrice: number;
  currentPrice: number;
  markPrice: number;
  unrealizedPnL: number;
  unrealizedPnLPercent: number;
  fundingPaid: number;
  openFee: number;
  exitPrice: number | null;
  realizedPnL: number | null;
  netPnL: number | null;
  openedAt: string;
  createdAt: string;
  closedAt: string | null;
};

/** A trade of a ticker's tape (GET /api/markets/perps/tickers/{ticker}/trades). */
export type TPerpTapeTrade = {
  id: string;
  side: 'long' | 'short';
  action: 'open' | 'close' | 'liquidation';
  /** Notional traded. */
  size: number;
  price: number;
  createdAt: string;
  timestamp: string;
  /** Whether the caller made it (false without a token). */
  isMine: boolean;
};

const iso = (d: Date | string) => new Date(d).toISOString();
const num = (v: TDecimalInput | null) => (v === null ? null : toNumber(v));

/**
 * `fundingIndex`: the ticker's perp_markets.funding_index, for an open position; null when the
 * row's values are final (a closed or liquidated position settled its funding).
 */
export function toPerpPositionDto(
  p: TPerpPositionRow,
  ctx: { markPrice: TDecimalInput; name: string; fundingIndex: TDecimalInput | null },): TPerpPosition {
  const open = p.status === 'open';
  const funded = open && ctx.fundingIndex !== null ? withAccruedFunding(p, ctx.fundingIndex) : p;
  const m = markToMarket({ ...p, collateral: funded.collateral }, ctx.markPrice);
  const unrealized = open ? m.unrealizedPnL : dec(0);
  return {
    id: p.id,
    userId: p.userId,
    ticker: p.ticker,
    name: ctx.name,
    side: p.side,
    status: p.status,
    entryPrice: toNumber(p.entryPrice),
    size: toNumber(p.size),
    units: toNumber(p.units),
    collateral: toNumber(funded.collateral),
    margin: toNumber(p.margin),
    leverage: toNumber(p.leverage),
    liquidationPrice: toNumber(funded.liquidationPrice),
    currentPrice: toNumber(ctx.markPrice),
    markPrice: toNumber(ctx.markPrice),
    unrealizedPnL: toNumber(unrealized),
    unrealizedPnLPercent: toNumber(dec(p.margin).isZero() ? 0 : unrealized.div(p.margin).times(100).toDecimalPlaces(4)),
    fundingPaid: toNumber(funded.fundingPaid),
    openFee: toNumber(p.openFee),
    exitPrice: num(p.exitPrice),
    realizedPnL: num(p.realizedPnL),
    netPnL: num(p.netPnL),
    openedAt: iso(p.openedAt),
    createdAt: iso(p.openedAt),
    closedAt: p.closedAt ? iso(p.closedAt) : null,
  };
}

export type TTickerStats = {
  ticker: string;
  organizationId: string;
  name: string;
  sector: string;
  markPrice: string;
  indexPrice: string;
  markPrice24hAgo: string | null;
  high24h: string | null;
  low24h: string | null;
  volume24h: string;
  openInterestLong: string;
  openInterestShort: string;
  depth: string;
};

export function toPerpTickerDto(t: TTickerStats, at: Date): TPerpTicker {
  const mark = dec(t.markPrice);
  const before = t.markPrice24hAgo ?? t.markPrice;
  const oiLong = dec(t.openInterestLong);
  const oiShort = dec(t.openInterestShort);
  const rate = fundingRate({ markPrice: mark, indexPrice: t.indexPrice, openInterestLong: oiLong, openInterestShort: oiShort });
  return {
    ticker: t.ticker,
    organizationId: t.organizationId,
    name: t.name,
    sector: t.sector,
    currentPrice: toNumber(mark),
    price: toNumber(mark),
    markPrice: toNumber(mark),
    indexPrice: toNumber(t.indexPrice),
    change24h: toNumber(mark.minus(before)),
    changePercent24h: toNumber(changePercent(before, mark).toDecimalPlaces(4)),
    high24h: toNumber(dec(t.high24h ?? t.markPrice).gt(mark) ? (t.high24h ?? mark) : mark),
    low24h: toNumber(dec(t.low24h ?? t.markPrice).lt(mark) ? (t.low24h ?? mark) : mark),
    volume24h: toNumber(t.volume24h),
    fundingRate: toNumber(rate),
    fundingRateAnnualized: toNumber(annualizedFundingRate(rate)),
    nextFundingTime: new Date(fundingPeriodStart(at).getTime() + FUNDING_PERIOD_MS).toISOString(),
    openInterest: toNumber(oiLong.plus(oiShort)),
    openInterestLong: toNumber(oiLong),
    openInterestShort: toNumber(oiShort),
    depth: toNumber(t.depth),
  };
}
