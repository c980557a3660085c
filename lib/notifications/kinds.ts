/**
 * What a `system` notification is about (the `type` stays one of the specification's seven): a
 * trade, a big move in a market one holds, a perp nearing its liquidation price, a liquidation,
 * funding paid or received (written before issue 20 only: funding is a per-ticker index since, and
 * the liquidation notice states it; kept so older rows stay valid), a resolution, a payout, an
 * order that filled, expired or fired. No
 * imports: the contract reads it too.
 */
export const NOTIFICATION_KINDS = [
  'trade',
  'price_move',
  'liquidation_warning',
  'liquidation',
  'funding',
  'resolution',
  'payout',
  // Orders (issue 32): a limit order filled (or partly), a GTD order expired, a stop or take-profit fired.
  'order_filled',
  'order_expired',
  'order_triggered',
] as const;
export type TNotificationKind = (typeof NOTIFICATION_KINDS)[number];
