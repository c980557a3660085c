/**
 * The events the browser receives over `GET /api/sse/events` (specification, "Events"): the
 * channels the UI subscribes to, the event types it understands and their data. Every frame's
 * `data:` is a JSON `{type, data}`; the browser checks each payload against these schemas, so a
 * malformed or unknown frame is dropped instead of breaking a cache. Pure: no I/O, no window.
 */
import { z } from 'zod';

/** The public channels one page subscribes to (chat channels are opened by the chat UI). */
export const REALTIME_CHANNELS = ['feed', 'markets', 'breaking-news', 'upcoming-events'] as const;

const ZTime = z.string();

export const ZFeedUpdate = z.object({
  post: z.looseObject({
    id: z.string(),
    authorId: z.string(),
    timestamp: ZTime,
    /** Absent on a repost (which names the shared post with `repostId`). */
    content: z.string().optional(),
    repostId: z.string().optional(),
  }),
});

export const ZMarketUpdate = z.object({
  marketId: z.string(),
  yesPrice: z.number(),
  noPrice: z.number(),
  yesShares: z.number(),
  noShares: z.number(),
  timestamp: ZTime,
});

export const ZBreakingNews = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  relatedQuestions: z.array(z.number().int()),
  timestamp: ZTime,
});

export const ZQuestionCreated = z.looseObject({
  id: z.string(),
  questionNumber: z.number().int().nullable().optional(),
  text: z.string(),
  resolutionDate: ZTime,
  timestamp: ZTime,
});

/** A trade or the game tick moved a mark; the tick also sends the index it drifts toward. */
export const ZPerpUpdate = z.object({ ticker: z.string(), markPrice: z.number().optional(), indexPrice: z.number().optional(), timestamp: ZTime });

export const ZPerpLiquidation = z.looseObject({ positionId: z.string(), userId: z.string(), ticker: z.string() });

/** A pool's NAV moved: a deposit, a withdrawal, its manager's trade or the tick's NAV point. */
export const ZPoolUpdate = z.object({ poolId: z.string(), totalValue: z.number(), sharePrice: z.number(), totalShares: z.number(), timestamp: ZTime });

export const ZChatMessage = z.object({ chatId: z.string(), messageId: z.string(), senderId: z.string(), content: z.string(), timestamp: ZTime });

/** A question's order book changed (an order rested, filled, was cancelled or expired): its book is read again. */
export const ZOrderBookUpdate = z.object({ marketId: z.string(), timestamp: ZTime });

/**
 * What happened to one of the reader's orders, on their own `user:{userId}` channel. Only what the
 * cache needs is checked: which order, and the market or ticker it is on.
 */
export const ZOrderUpdate = z.looseObject({
  event: z.string(),
  order: z.looseObject({ id: z.string(), kind: z.enum(['prediction', 'perp']).optional(), marketId: z.string().optional(), ticker: z.string().optional() }),
  timestamp: ZTime,
});

/** Each event type the UI handles, with the schema of its `data`. */
export const REALTIME_EVENT_SCHEMAS = {
  feed_update: ZFeedUpdate,
  market_update: ZMarketUpdate,
  breaking_news: ZBreakingNews,
  question_created: ZQuestionCreated,
  perp_update: ZPerpUpdate,
  perp_liquidation: ZPerpLiquidation,
  pool_update: ZPoolUpdate,
  chat_message: ZChatMessage,
  order_book: ZOrderBookUpdate,
  order_update: ZOrderUpdate,
} as const;

export type TRealtimeEventType = keyof typeof REALTIME_EVENT_SCHEMAS;
export type TRealtimeEventData<K extends TRealtimeEventType> = z.infer<(typeof REALTIME_EVENT_SCHEMAS)[K]>;
export type TRealtimeEvent = { [K in TRealtimeEventType]: { type: K; data: TRealtimeEventData<K> } }[TRealtimeEventType];

export const REALTIME_EVENT_TYPES = Object.keys(REALTIME_EVENT_SCHEMAS) as TRealtimeEventType[];

const isEventType = (t: unknown): t is TRealtimeEventType => typeof t === 'string' && Object.hasOwn(REALTIME_EVENT_SCHEMAS, t);

/**
 * The event in one frame's `data:` text, or null when it is not JSON, not `{type, data}`, of a
 * type the UI does not handle, or its data lacks a field the UI relies on.
 */
export function parseRealtimeEvent(text: string): TRealtimeEvent | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const { type, data } = raw as { type?: unknown; data?: unknown };
  if (!isEventType(type)) return null;
  const parsed = REALTIME_EVENT_SCHEMAS[type].safeParse(data);
  return parsed.success ? ({ type, data: parsed.data } as TRealtimeEvent) : null;
}

/**
 * The server's notice, as the first frame of a stream, that the id it was asked to resume from
 * is not in its log (malformed, ahead of the log, pruned): the stream started live, so anything
 * shown may be stale. Its `id:` is where the next reconnect resumes (empty: start live). Not a
 * data event: the connection handles it (lib/client/realtime/connection.ts).
 */
export const STREAM_RESET_EVENT = 'reset';

/** The stream's URL for a set of channels; `lastEventId` resumes a stream opened afresh. */
export function realtimeUrl(channels: readonly string[], lastEventId?: string | null) {
  const sp = new URLSearchParams({ channels: channels.join(',') });
  if (lastEventId) sp.set('lastEventId', lastEventId);
  return `/api/sse/events?${sp.toString()}`;
}
