/** API shapes of markets and positions, with the specification's alternative names. No I/O. */
import type { TMarketPositionRow, TMarketRow } from '@/db/schema';
import { dec, toNumber, type TDecimalInput } from '@/lib/money/decimal';
import { prices, toPool, type TOutcome } from './cpmm';

export function marketPrices(m: Pick<TMarketRow, 'yesShares' | 'noShares' | 'status' | 'resolvedOutcome'>) {
  if (m.status === 'resolved' && m.resolvedOutcome) {
    const yes = m.resolvedOutcome === 'YES' ? dec(1) : dec(0);
    return { yes, no: dec(1).minus(yes) };
  }
  return prices(toPool(m));
}

export type TPositionDto = ReturnType<typeof toPositionDto>;

export function toPositionDto(
  p: TMarketPositionRow,
  market: Pick<TMarketRow, 'id' | 'text' | 'yesShares' | 'noShares' | 'status' | 'resolvedOutcome'>,) {
  const p2 = marketPrices(market);
  const current = p.side === 'YES' ? p2.yes : p2.no;
  const shares = dec(p.shares);
  const cost = dec(p.costBasis);
  const value = p.settledAt ? dec(0) : shares.times(current);
  return {
    id: p.id,
    marketId: p.marketId,
    question: market.text,
    side: p.side as TOutcome,
    outcome: p.side as TOutcome,
    shares: toNumber(shares),
    avgPrice: shares.gt(0) ? toNumber(cost.div(shares)) : 0,
    currentPrice: toNumber(current),
    costBasis: toNumber(cost),
    value: toNumber(value),
    unrealizedPnL: p.settledAt ? 0 : toNumber(value.minus(cost)),
    realizedPnL: toNumber(p.realizedPnL),
    status: p.settledAt ? ('settled' as const) : shares.gt(0) ? ('open' as const) : ('closed' as const),
    payout: p.payout === null ? null : toNumber(p.payout),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export type TMarketExtras = { volume24h?: TDecimalInput; yesPrice24hAgo?: TDecimalInput | null };

/**
 * The numbers toMarketDto derives from a market's weights, status and price 24 h ago (decimal
 * division at 40 digits, then JSON numbers), remembered by those inputs: a pure function of them,
 * so a remembered answer is the answer. Lists and pages answer the same markets many times
 * between two trades; the memory is dropped whole when it holds MEMO_LIMIT entries.
 */
const MEMO_LIMIT = 4_096;
const priceNumbersMemo = new Map<string, { yesPrice: number; noPrice: number; change: number }>();

function priceNumbers(m: Pick<TMarketRow, 'yesShares' | 'noShares' | 'status' | 'resolvedOutcome'>, yesPrice24hAgo: TDecimalInput | null | undefined) {
  const key = `${m.status}|${m.resolvedOutcome}|${String(m.yesShares)}|${String(m.noShares)}|${yesPrice24hAgo === undefined || yesPrice24hAgo === null ? '' : String(yesPrice24hAgo)}`;
  const known = priceNumbersMemo.get(key);
  if (known) return known;
  const p = marketPrices(m);
  const then = yesPrice24hAgo === undefined || yesPrice24hAgo === null ? p.yes : dec(yesPrice24hAgo);
  const numbers = { yesPrice: toNumber(p.yes), noPrice: toNumber(p.no), change: toNumber(p.yes.minus(then)) };
  if (priceNumbersMemo.size >= MEMO_LIMIT) priceNumbersMemo.clear();
  priceNumbersMemo.set(key, numbers);
  return numbers;
}

export function toMarketDto(m: TMarketRow, extras: TMarketExtras = {}) {
  const { yesPrice, noPrice, change } = priceNumbers(m, extras.yesPrice24hAgo);
  const createdAt = m.createdAt.toISOString();
  const resolutionDate = m.resolutionDate.toISOString();
  return {
    id: m.id,
    questionNumber: m.questionNumber,
    text: m.text,
    question: m.text,
    status: m.status,
    yesShares: toNumber(m.yesShares),
    noShares: toNumber(m.noShares),
    yesPrice,
    noPrice,
    createdDate: createdAt,
    createdAt,
    resolutionDate,
    endDate: resolutionDate,
    liquidity: toNumber(m.liquidity),
    volume: toNumber(m.volume),
    volume24h: toNumber(extras.volume24h ?? 0),
    priceChange24h: change,
    change24h: change,
    resolvedOutcome: m.resolvedOutcome,
    outcome: m.resolvedOutcome,
    resolvedAt: m.resolvedAt ? m.resolvedAt.toISOString() : null,
  };
}

export type TMarketDto = ReturnType<typeof toMarketDto>;
