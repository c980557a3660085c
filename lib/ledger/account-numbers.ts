/**
 * One account's numbers, pure: equity and P&L, per product and in total (README). The SQL twin
 * (sql.ts) computes the same columns inside a statement; `accountNumbersOf` here is what a
 * statement's row becomes, and the identities are tested over random inputs.
 */
import 'server-only';
import type { TTransactionType } from './ledger';
import { dec, toDecimalString, type TDecimal, type TDecimalInput } from '@/lib/money/decimal';

export type TProduct = 'predictions' | 'perps' | 'pools';
export type TLedgerClass = 'contribution' | TProduct;

export const PRODUCTS: readonly TProduct[] = ['predictions', 'perps', 'pools'];

/**
 * Every ledger type is money that is not a trading result (a contribution: the starting grant,
 * deposits, bonuses, transfers, referral fees, withdrawals) or the cash flow of exactly one product.
 * A Record, so a new ledger type does not compile until it is classified.
 */
export const LEDGER_CLASS: Readonly<Record<TTransactionType, TLedgerClass>> = {
  deposit: 'contribution',
  withdrawal: 'contribution',
  transfer_in: 'contribution',
  transfer_out: 'contribution',
  bonus: 'contribution',
  referral_fee: 'contribution',
  pred_buy: 'predictions',
  pred_sell: 'predictions',
  pred_payout: 'predictions',
  perp_open: 'perps',
  perp_close: 'perps',
  funding_paid: 'perps',
  funding_received: 'perps',
  // The specification's generic trading fee: no service writes it today (fees travel inside the
  // buy, the open and the close); were one written it would be a perps cost.
  fee: 'perps',
  // An open order's reserve is money still in that product (valued at what is reserved).
  order_reserve: 'predictions',
  order_refund: 'predictions',
  perp_order_reserve: 'perps',
  perp_order_refund: 'perps',
  pool_deposit: 'pools',
  pool_withdraw: 'pools',
  // The manager's share of a holder's profit: what running a pool earns.
  pool_performance_fee: 'pools',
};

/** The ledger types of one class, in a fixed order (for SQL `in (…)` lists). */
export function ledgerTypesOf(cls: TLedgerClass): TTransactionType[] {
  return (Object.keys(LEDGER_CLASS) as TTransactionType[]).filter((t) => LEDGER_CLASS[t] === cls).sort();
}

/** Money that comes in or goes out otherwise than by trading: not part of a result. */
export const CONTRIBUTION_TYPES: readonly TTransactionType[] = ledgerTypesOf('contribution');

/** What one product adds up to for an account, as the statement reads it. */
export type TProductInputs = {
  /** Σ the product's ledger amounts over all time (buys negative, sales and payouts positive). */
  flows: TDecimalInput;
  /** What is open now, at current prices (already rounded to the money scale). */
  value: TDecimalInput;
  /** What the open part cost (prediction and pool cost basis, perp margin). */
  cost: TDecimalInput;
};

export type TAccountInputs = {
  cash: TDecimalInput;
  contributions: TDecimalInput;
  products: Record<TProduct, TProductInputs>;
};

export type TProductNumbers = { value: string; costBasis: string; realized: string; unrealized: string; pnl: string };

/** One account's numbers: the answer every screen and API shows (decimal strings). */
export type TAccountNumbers = {
  cash: string;
  /** cash + every product's open value. */
  equity: string;
  /** Money put in otherwise than by trading (starting grant, bonuses, transfers, referral fees). */
  contributions: string;
  /** equity − contributions = Σ products' pnl (fees included, pools included). */
  pnl: string;
  realizedPnL: string;
  unrealizedPnL: string;
  /** pnl / contributions (0 without contributions), a fraction. */
  roi: string;
  products: Record<TProduct, TProductNumbers>;
};

const str = (d: TDecimal) => toDecimalString(d);

/** A product's numbers: pnl = flows + value; unrealized = value − cost; realized = pnl − unrealized. */
export function productNumbersOf(p: TProductInputs): TProductNumbers {
  const value = dec(p.value);
  const cost = dec(p.cost);
  const pnl = dec(p.flows).plus(value);
  const unrealized = value.minus(cost);
  return { value: str(value), costBasis: str(cost), realized: str(pnl.minus(unrealized)), unrealized: str(unrealized), pnl: str(pnl) };
}

/** An account's numbers from its cash, contributions and each product's flows, value and cost. */
export function accountNumbersOf(a: TAccountInputs): TAccountNumbers {
  const products = {} as Record<TProduct, TProductNumbers>;
  let equity = dec(a.cash);
  let unrealized = dec(0);
  for (const p of PRODUCTS) {
    const n = productNumbersOf(a.products[p]);
    products[p] = n;
    equity = equity.plus(n.value);
    unrealized = unrealized.plus(n.unrealized);
  }
  const contributions = dec(a.contributions);
  const pnl = equity.minus(contributions);
  // Realized is what is not unrealized: with the ledger's chain (cash = contributions + Σ flows)
  // it is also Σ products' realized.
  const realized = pnl.minus(unrealized);
  return {
    cash: str(dec(a.cash)),
    equity: str(equity),
    contributions: str(contributions),
    pnl: str(pnl),
    realizedPnL: str(realized),
    unrealizedPnL: str(unrealized),
    roi: str(roiOf(pnl, contributions)),
    products,
  };
}

/** Return on what was put in: pnl / contributions, to 8 places; 0 when nothing was put in. */
export function roiOf(pnl: TDecimalInput, base: TDecimalInput): TDecimal {
  const b = dec(base);
  if (b.lte(0)) return dec(0);
  return dec(pnl).div(b).toDecimalPlaces(8);
}
