/**
 * Read side of the ledger: balance summary and transaction history. Reads only. A history page
 * names what each row was about (`subject`, `link`: its question, ticker or pool, from
 * reference_type / reference_id) in the same single statement, whatever the page size.
 */
import 'server-only';
import { desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { balanceTransactions, markets, perpOrders, perpPositions, pools, predictionOrders, users } from '@/db/schema';
import type { DbOrTx } from '@/db/client';
import { toDecimalString } from '@/lib/money/decimal';

export type TTransactionDto = {
  id: string;
  type: string;
  amount: string;
  balanceBefore: string;
  balanceAfter: string;
  description: string;
  referenceType: string | null;
  referenceId: string | null;
  createdAt: string;
  timestamp: string;
  /** What the row was about, readable: the question, "NEXA long 10x", the pool's name. */
  subject: string | null;
  /** The in-app page of that market, ticker or pool. */
  link: string | null;
};

/** The referenced row's name and page, from the left joins of findTransactions. */
export type TTransactionReference = {
  question: string | null;
  ticker: string | null;
  side: string | null;
  leverage: string | null;
  poolName: string | null;
  /** A limit order's question (its id and text), or a perp order's ticker, side and type. */
  orderMarketId?: string | null;
  orderQuestion?: string | null;
  orderTicker?: string | null;
  orderSide?: string | null;
  orderType?: string | null;
};

const NO_REFERENCE: TTransactionReference = { question: null, ticker: null, side: null, leverage: null, poolName: null };
const ORDER_TYPE_NAMES: Record<string, string> = { stop_loss: 'stop-loss', take_profit: 'take-profit', limit: 'limit order' };

/** Pure: the subject and link of a transaction from its reference and the referenced row. */
export function describeReference(
  r: { referenceType: string | null; referenceId: string | null },
  ref: TTransactionReference,): { subject: string | null; link: string | null } {
  if (!r.referenceId) return { subject: null, link: null };
  switch (r.referenceType) {
    case 'market':
      return ref.question === null ? { subject: null, link: null } : { subject: ref.question, link: `/markets/${encodeURIComponent(r.referenceId)}` };
    case 'perp_position': {
      if (ref.ticker === null) return { subject: null, link: null };
      const lev = ref.leverage === null ? '' : ` ${Number(ref.leverage)}x`;
      return { subject: `${ref.ticker}${ref.side ? ` ${ref.side}` : ''}${lev}`, link: `/perps/${encodeURIComponent(ref.ticker)}` };
    }
    case 'pool':
      return ref.poolName === null ? { subject: null, link: null } : { subject: ref.poolName, link: `/pools/${encodeURIComponent(r.referenceId)}` };
    // Reservations and refunds of orders: the question or the ticker the order is on.
    case 'prediction_order':
      return !ref.orderQuestion || !ref.orderMarketId
        ? { subject: null, link: null }
        : { subject: `Limit order: ${ref.orderQuestion}`, link: `/markets/${encodeURIComponent(ref.orderMarketId)}` };
    case 'perp_order':
      return !ref.orderTicker
        ? { subject: null, link: null }
        : {
            subject: `${ref.orderTicker}${ref.orderSide ? ` ${ref.orderSide}` : ''} ${ORDER_TYPE_NAMES[ref.orderType ?? ''] ?? 'order'}`,
            link: `/perps/${encodeURIComponent(ref.orderTicker)}`,
          };
    default:
      return { subject: null, link: null };
  }
}

/**
 * Pure: a line's description that names what it was about (issue 35: buys read "Bought YES in a
 * prediction market" while sells named the question). Kept as written when it already names its
 * question, ticker or pool; a generic "in a prediction market" becomes the question; otherwise the
 * subject follows the description.
 */
export function describeLine(description: string, subject: string | null, ref: Pick<TTransactionReference, 'question' | 'ticker' | 'poolName' | 'orderQuestion' | 'orderTicker'> = NO_REFERENCE): string {
  if (!subject) return description;
  const names = [subject, ref.question, ref.ticker, ref.poolName, ref.orderQuestion, ref.orderTicker].filter((n): n is string => !!n);
  if (names.some((n) => description.includes(n))) return description;
  const question = ref.question ?? ref.orderQuestion;
  if (question && description.includes(' in a prediction market')) return description.replace(' in a prediction market', ` in "${question}"`);
  return description ? `${description}: ${subject}` : subject;
}

export function toTransactionDto(r: typeof balanceTransactions.$inferSelect, ref: TTransactionReference = NO_REFERENCE): TTransactionDto {
  const about = describeReference(r, ref);
  return {
  id: r.id,
  type: r.type,
  amount: toDecimalString(r.amount),
  balanceBefore: toDecimalString(r.balanceBefore),
  balanceAfter: toDecimalString(r.balanceAfter),
  description: describeLine(r.description, about.subject, ref),
  referenceType: r.referenceType,
  referenceId: r.referenceId,
  createdAt: r.createdAt.toISOString(),
  timestamp: r.createdAt.toISOString(),
  ...about,
};
}

const bt = balanceTransactions;
const refMarket = alias(markets, 'ref_market');
const refPosition = alias(perpPositions, 'ref_position');
const refPool = alias(pools, 'ref_pool');
const refPredOrder = alias(predictionOrders, 'ref_pred_order');
const refOrderMarket = alias(markets, 'ref_order_market');
const refPerpOrder = alias(perpOrders, 'ref_perp_order');

/** The newest transactions of a user, newest first, each with what it was about: one statement. */
export async function findTransactions(db: DbOrTx, userId: string, opts: { limit: number; offset: number }) {
  const rows = await db
    .select({
      t: bt,
      question: refMarket.text,
      ticker: refPosition.ticker,
      side: refPosition.side,
      leverage: refPosition.leverage,
      poolName: refPool.name,
      orderMarketId: refOrderMarket.id,
      orderQuestion: refOrderMarket.text,
      orderTicker: refPerpOrder.ticker,
      orderSide: refPerpOrder.side,
      orderType: refPerpOrder.type,
    })
    .from(bt)
    .leftJoin(refMarket, sql`${bt.referenceType} = 'market' and ${refMarket.id} = ${bt.referenceId}`)
    .leftJoin(refPosition, sql`${bt.referenceType} = 'perp_position' and ${refPosition.id} = ${bt.referenceId}`)
    .leftJoin(refPool, sql`${bt.referenceType} = 'pool' and ${refPool.id} = ${bt.referenceId}`)
    .leftJoin(refPredOrder, sql`${bt.referenceType} = 'prediction_order' and ${refPredOrder.id} = ${bt.referenceId}`)
    .leftJoin(refOrderMarket, sql`${refOrderMarket.id} = ${refPredOrder.marketId}`)
    .leftJoin(refPerpOrder, sql`${bt.referenceType} = 'perp_order' and ${refPerpOrder.id} = ${bt.referenceId}`)
    .where(eq(bt.userId, userId))
    .orderBy(desc(bt.seq))
    .limit(opts.limit)
    .offset(opts.offset);
  return rows.map(({ t, ...ref }) => toTransactionDto(t, ref));
}

export async function findBalanceSummary(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({
      balance: users.virtualBalance,
      totalDeposited: users.totalDeposited,
      totalWithdrawn: users.totalWithdrawn,
      lifetimePnL: users.lifetimePnL,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return undefined;
  return {
    balance: toDecimalString(row.balance),
    totalDeposited: toDecimalString(row.totalDeposited),
    totalWithdrawn: toDecimalString(row.totalWithdrawn),
    lifetimePnL: toDecimalString(row.lifetimePnL),
  };
}
