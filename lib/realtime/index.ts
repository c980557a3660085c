/**
 * Realtime delivery: the outbox reader, the per-instance hub (one LISTEN, in-memory fan-out) and
 * the SSE stream. Writers do not come here: they call lib/events/outbox emitEvent in their own
 * transaction. See README.md in this folder.
 */
import { getDb, type DbOrTx } from '@/db/client';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { chatIdOf, isChannel, PUBLIC_CHANNELS, userIdOfChannel } from '@/lib/events/types';
import { chatsNotSubscribable } from './chat-access';
import { realtimeStats } from './hub';
import { deleteEventsBefore } from './reader';
import { openEventStream } from './sse';

export { ensureRealtime, pokeRealtime, realtimeStats, stopRealtime } from './hub';
export { formatPosition, parsePosition, type TPosition } from './position';

/** Deletes events logged before `before` (the tick keeps about 24 h for reconnects); returns how many. */
export async function pruneEventLog(before: Date, db?: DbOrTx) {
  return deleteEventsBefore(db ?? (await getDb()), before);
}

/** The channel list of `?channels=a,b`: trimmed, de-duplicated; every public channel when absent. */
export function parseChannelList(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [...PUBLIC_CHANNELS];
  return [...new Set(raw.split(',').map((c) => c.trim()).filter(Boolean))];
}

/**
 * GET /api/sse/events: checks the channels and the caller's right to each, then opens the
 * stream. `lastEventId` (query) or the Last-Event-ID header (browsers send it on reconnect)
 * replays what the client missed, when it names an event the log still holds; any other value
 * starts the stream live after a `reset` frame.
 */
export async function subscribeToEvents(input: {
  channels: string[];
  userId: string | null;
  lastEventId: string | null;
  signal?: AbortSignal;
}) {
  const unknown = input.channels.filter((c) => !isChannel(c));
  if (unknown.length) {
    throw new AppError('INVALID_PARAMETER', `Unknown channel: ${unknown.join(', ')}`, { channels: unknown, known: [...PUBLIC_CHANNELS, 'chat:{chatId}', 'user:{userId}'] });
  }
  // A player's own channel (their orders' updates): theirs only.
  const userIds = input.channels.map(userIdOfChannel).filter((id): id is string => id !== null);
  if (userIds.length) {
    if (!input.userId) throw new AppError('UNAUTHORIZED', 'Sign in to follow your own channel', { channel: `user:${userIds[0]}` });
    const other = userIds.find((id) => id !== input.userId);
    if (other) throw new AppError('FORBIDDEN', "You may follow only your own user channel", { channel: `user:${other}` });
  }
  const chatIds = input.channels.map(chatIdOf).filter((id): id is string => id !== null);
  if (chatIds.length) {
    if (!input.userId) throw new AppError('UNAUTHORIZED', 'Sign in to follow a chat', { channel: `chat:${chatIds[0]}` });
    // One read for every chat the stream names (a reader's page follows all their chats).
    const refused = await chatsNotSubscribable(input.userId, chatIds);
    if (refused.length) throw new AppError('FORBIDDEN', 'You are not a member of this chat', { channel: `chat:${refused[0]}`, channels: refused.map((id) => `chat:${id}`) });
  }
  // Any id is answered: one the log holds is replayed from, any other starts live with a `reset`
  // frame (lib/realtime/sse.ts); refusing it would stop a browser's EventSource for good.
  // The user filters the feed by their blocks and mutes (lib/realtime/sse.ts).
  return openEventStream({ channels: input.channels, userId: input.userId, lastEventId: input.lastEventId, signal: input.signal });
}

export function getSseStats() {
  return { ...realtimeStats(), timestamp: now().toISOString() };
}
