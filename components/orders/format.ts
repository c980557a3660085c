/**
 * Display formatting for orders: limit prices in cents, share counts, perp prices, and the words
 * for statuses, time in force and order types. Display only: values are rounded for reading, never
 * summed here. components/markets and components/perps import this folder, so it cannot import
 * theirs: the two formats it shares with them (cents, perp prices) are repeated here on purpose,
 * with the same output. Money and dates: components/ui/format.ts.
 */
import { formatMoney, type TStringFormat } from '@/components/ui/format';
import type { TOrder, TOrderStatus, TPerpOrderType, TTimeInForce } from '@/lib/client/queries/orders';

const cents = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 0 });
const shares = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
const priceSmall = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumSignificantDigits: 2, maximumSignificantDigits: 4 });
const leverage = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A limit price in cents, as exact as an order's price may be: "45¢", "45.25¢" from 0.4525. */
export const formatLimitCents = (p: number | string) => `${cents.format(Number(p) * 100)}¢`;

/** "1,234.57" shares. */
export const formatOrderShares = (value: number | string) => (shares.format as TStringFormat)(value);

/** A perp price, as components/perps shows it: "$142.50"; under a dollar four significant digits. */
export const formatPerpPrice = (value: number | string) => {
  const n = Number(value);
  return n !== 0 && Math.abs(n) < 1 ? (priceSmall.format as TStringFormat)(value) : formatMoney(value);
};

/** "5x". */
export const formatOrderLeverage = (value: number | string) => `${(leverage.format as TStringFormat)(value)}x`;

export const TIME_IN_FORCE_LABELS: Record<TTimeInForce, string> = {
  GTC: 'Good till cancelled',
  GTD: 'Good till date',
  IOC: 'Immediate or cancel',
};

export const STATUS_LABELS: Record<TOrderStatus, string> = {
  open: 'Open',
  partially_filled: 'Partly filled',
  filled: 'Filled',
  cancelled: 'Cancelled',
  expired: 'Expired',
  triggered: 'Triggered',
};

export const PERP_ORDER_TYPE_LABELS: Record<TPerpOrderType, string> = {
  stop_loss: 'Stop-loss',
  take_profit: 'Take-profit',
  limit: 'Limit',
};

/** One line naming an order, for its row and its Cancel button: "Buy YES at 45¢", "Stop-loss at $90.00". */
export const describeOrder = (o: TOrder) =>
  o.kind === 'prediction'
    ? `Buy ${o.outcome} at ${formatLimitCents(o.limitPrice)}`
    : o.type === 'limit'
      ? `Limit ${o.side} ${o.ticker} at ${formatPerpPrice(o.triggerPrice)}`
      : `${PERP_ORDER_TYPE_LABELS[o.type]} ${o.ticker} at ${formatPerpPrice(o.triggerPrice)}`;
