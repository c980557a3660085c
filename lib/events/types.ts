/**
 * The event vocabulary of the specification's "Events" section: the channels a client may
 * subscribe to and the `{type, data}` objects they carry. Pure types and parsing, no I/O.
 */
export type TMarketUpdate = {
  type: 'market_update';
  data: { marketId: string; yesPrice: number; noPrice: number; yesShares: number; noShares: number; timestamp: string };
};

export type TFeedUpdate = {
  type: 'feed_update';
  data: { post: { id: string; content: string; authorId: string; timestamp: string; [extra: string]: unknown } };
};

export type TBreakingNews = {
  type: 'breaking_news';
  data: { id: string; title: string; content: string; relatedQuestions: number[]; timestamp: string };
};

export type TQuestionCreated = {
  type: 'question_created';
  data: { id: string; questionNumber: number | null; text: string; resolutionDate: string; timestamp: string };
};

/** A pool's NAV moved (a deposit, a withdrawal, its manager's trade, the tick's NAV point). */
export type TPoolUpdate = {
  type: 'pool_update';
  data: { poolId: string; totalValue: number; sharePrice: number; totalShares: number; timestamp: string };
};

export type TChatMessage = {
  type: 'chat_message';
  data: { chatId: string; messageId: string; senderId: string; content: string; timestamp: string };
};

/**
 * Internal (never sent to clients): a block, unblock, mute or unmute between these users
 * committed, so live streams of theirs reload what they may see.
 */
export type TVisibilityChanged = {
  type: 'visibility_changed';
  data: { userIds: string[] };
};

/**
 * Internal (never sent to clients): these users left (or were removed from) the chat, so their
 * open streams stop delivering `chat:{chatId}` from this point of the log.
 */
export type TChatMembershipChanged = {
  type: 'membership_changed';
  data: { chatId: string; userIds: string[] };
};

export type TChannelEvent =
  | TVisibilityChanged
  | TChatMembershipChanged
  | TMarketUpdate
  | TFeedUpdate
  | TBreakingNews
  | TQuestionCreated
  | TPoolUpdate
  | TChatMessage
  | TOrderUpdate
  | TOrderBookUpdate
  | { type: string; data: Record<string, unknown> };

/** The channels anyone may subscribe to; `chat:{chatId}` needs a signed-in member. */
export const PUBLIC_CHANNELS = ['feed', 'markets', 'breaking-news', 'upcoming-events'] as const;
export type TPublicChannel = (typeof PUBLIC_CHANNELS)[number];
/** Channels the service writes for its own readers; no client may subscribe to them (isChannel says no). */
export const INTERNAL_CHANNELS = ['moderation', 'chats'] as const;
export type TInternalChannel = (typeof INTERNAL_CHANNELS)[number];
export type TChannel = TPublicChannel | `chat:${string}` | `user:${string}` | TInternalChannel;

const CHAT_CHANNEL = /^chat:([A-Za-z0-9_-]{1,100})$/;
/** A player's own channel (`order_update`): only that player may subscribe. */
const USER_CHANNEL = /^user:([A-Za-z0-9_:.@-]{1,200})$/;

/** The chat id of a `chat:{chatId}` channel name, or null for any other name. */
export function chatIdOf(channel: string): string | null {
  return CHAT_CHANNEL.exec(channel)?.[1] ?? null;
}

/** The user id of a `user:{userId}` channel name, or null for any other name. */
export function userIdOfChannel(channel: string): string | null {
  return USER_CHANNEL.exec(channel)?.[1] ?? null;
}

/** A channel a client may name (public, chat or its own user channel); internal channels are not. */
export function isChannel(name: string): name is TChannel {
  return (PUBLIC_CHANNELS as readonly string[]).includes(name) || chatIdOf(name) !== null || userIdOfChannel(name) !== null;
}

/** What happened to an order (`order_update` on its owner's `user:{userId}` channel). */
export type TOrderUpdate = {
  type: 'order_update';
  data: {
    event: 'placed' | 'filled' | 'partially_filled' | 'cancelled' | 'expired' | 'triggered';
    order: Record<string, unknown>;
    timestamp: string;
  };
};

/** A question's order book changed (`markets` channel): clients refetch its book. */
export type TOrderBookUpdate = {
  type: 'order_book';
  data: { marketId: string; timestamp: string };
};
