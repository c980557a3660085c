/**
 * What a `system` notification is about (the `type` stays one of the specification's seven): a
 * trade, a big move in a market one holds, a perp nearing its liquidation price, a liquidation,
 * funding paid or received (since issue 35 only over a threshold, by the funding step), a resolution, a payout, an
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
  // The player's day (issue 35): the outcome of a report one filed, a moderator's action on one's
  // own content or account (a removal, a warning, a ban), funding paid or received over a threshold,
  // and the daily digest of the kinds one asked to receive that way.
  'report_outcome',
  'moderation',
  'digest',
] as const;
export type TNotificationKind = (typeof NOTIFICATION_KINDS)[number];
