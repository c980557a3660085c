/**
 * The kinds a player sets a preference for (every system kind and the social types) and how each
 * is named: in the settings, the digest's grouped lines ("3 orders filled") and the screen-reader
 * text of a notification ("Order filled: …"). No I/O, no imports but the kinds: the contract, the
 * SQL of the digest and the components read it.
 */
import { NOTIFICATION_KINDS } from './kinds';

export const SOCIAL_TYPES = ['comment', 'reply', 'mention', 'reaction', 'share', 'follow'] as const;

/** The kinds with a preference: the system kinds, then the social types. */
export const PREFERENCE_KINDS = [...NOTIFICATION_KINDS, ...SOCIAL_TYPES] as const;
export type TPreferenceKind = (typeof PREFERENCE_KINDS)[number];

export const NOTIFICATION_CHANNELS = ['in_app', 'digest', 'off'] as const;
export type TNotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** Each kind's name (singular, as the settings and screen readers say it) and its plural noun for counts. */
export const KIND_LABELS: Record<TPreferenceKind, { label: string; one: string; many: string; hint: string }> = {
  order_filled: { label: 'Order filled', one: 'order filled', many: 'orders filled', hint: 'A limit order filled, fully or in part' },
  order_expired: { label: 'Order expired', one: 'order expired', many: 'orders expired', hint: 'A good-till-date order expired' },
  order_triggered: { label: 'Order triggered', one: 'stop or take-profit fired', many: 'stops and take-profits fired', hint: 'A stop-loss or take-profit closed a position' },
  payout: { label: 'Payout', one: 'payout', many: 'payouts', hint: 'A market you held resolved in your favour' },
  resolution: { label: 'Resolution', one: 'market resolved', many: 'markets resolved', hint: 'A market you held resolved against you' },
  price_move: { label: 'Price move', one: 'price move', many: 'price moves', hint: 'A market you hold moved 10 points in a day' },
  liquidation_warning: { label: 'Liquidation warning', one: 'liquidation warning', many: 'liquidation warnings', hint: 'A perp is close to its liquidation price' },
  liquidation: { label: 'Liquidation', one: 'liquidation', many: 'liquidations', hint: 'A perp was liquidated' },
  funding: { label: 'Funding', one: 'funding notice', many: 'funding notices', hint: 'Funding paid or received' },
  trade: { label: 'Trade', one: 'trade', many: 'trades', hint: 'A trade on your account' },
  report_outcome: { label: 'Report outcome', one: 'report outcome', many: 'report outcomes', hint: 'What happened to a report you filed' },
  moderation: { label: 'Moderation', one: 'moderation notice', many: 'moderation notices', hint: "A moderator's action on your content or account" },
  digest: { label: 'Daily digest', one: 'daily digest', many: 'daily digests', hint: 'One notification a day summing up the digest' },
  comment: { label: 'Comment', one: 'comment', many: 'comments', hint: 'A comment on your post' },
  reply: { label: 'Reply', one: 'reply', many: 'replies', hint: 'A reply to your comment' },
  mention: { label: 'Mention', one: 'mention', many: 'mentions', hint: 'Someone mentioned you' },
  reaction: { label: 'Like', one: 'like', many: 'likes', hint: 'Someone liked your post' },
  share: { label: 'Share', one: 'share', many: 'shares', hint: 'Someone shared your post' },
  follow: { label: 'Follow', one: 'new follower', many: 'new followers', hint: 'Someone followed you' },
};

/** "3 orders filled", "1 payout". */
export function countLabel(kind: string, count: number) {
  const l = (KIND_LABELS as Record<string, { one: string; many: string } | undefined>)[kind];
  return l ? `${count} ${count === 1 ? l.one : l.many}` : `${count} ${count === 1 ? 'notification' : 'notifications'}`;
}
