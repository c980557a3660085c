/** Realtime endpoints: the SSE stream of the specification's "Events" and its statistics. */
import { z } from 'zod';
import { ZSuccess, ZTimestamp } from './common';
import { defineEndpoint, type TEndpoint } from './endpoint';

/**
 * The channels parameter: comma-separated names (blanks around them and empty items are
 * ignored). Written so that every run of blanks has one place to go: no backtracking blow-up.
 */
const CHANNEL = '(?:feed|markets|breaking-news|upcoming-events|chat:[A-Za-z0-9_-]{1,100}|user:[A-Za-z0-9_:.@-]{1,200})';
const CHANNEL_LIST = new RegExp(`^\\s*(?:${CHANNEL}\\s*)?(?:,\\s*(?:${CHANNEL}\\s*)?)*$`);

export const sseEvents = defineEndpoint({
  id: 'sse.events',
  method: 'GET',
  path: '/api/sse/events',
  summary:
    'Server-Sent Events (text/event-stream). Channels: feed, markets, breaking-news, upcoming-events (public) and chat:{chatId} ' +
    '(members). Frames: `id: <txId>-<id>`, `event: <type>`, `data: {"type","data"}`; `: ping` every 15 s; closed after 300 s. ' +
    'Reconnect with Last-Event-ID (header) or lastEventId (query) to receive what was missed first. An id the log does not hold ' +
    '(malformed, ahead of the log, or older than the retained log) starts the stream live instead, and its first frame is ' +
    '`event: reset`, `data: {"type":"reset","data":{"reason","lastEventId","timestamp"}}` (reason: malformed, ahead_of_log, ' +
    'older_than_log or not_in_log) with `id:` the newest retained position (empty when the log is empty): refetch what you show.',
  tag: 'realtime',
  auth: 'public',
  requires: ['read'],
  query: z.object({
    channels: z
      .string()
      .max(2000)
      .regex(CHANNEL_LIST, 'channels are feed, markets, breaking-news, upcoming-events, chat:{chatId} or user:{your user id}, comma-separated')
      .optional()
      .describe('comma-separated channel names; every public channel when absent'),
    lastEventId: z.string().max(50).optional().describe('resume after this event id (as the Last-Event-ID header)'),
  }),
  response: z.string().describe('text/event-stream'),
  responseType: 'text/event-stream',
  envelope: false,
  errors: ['UNAUTHORIZED', 'FORBIDDEN'],
});

export const sseStats = defineEndpoint({
  id: 'sse.stats',
  method: 'GET',
  path: '/api/sse/stats',
  summary: 'Connected SSE clients on this instance, per channel and in total',
  tag: 'realtime',
  auth: 'public',
  requires: ['read'],
  response: z.object({
    success: ZSuccess,
    totalClients: z.number().int(),
    channels: z.record(z.string(), z.number().int()),
    timestamp: ZTimestamp,
  }),
});

export const realtimeEndpoints: readonly TEndpoint[] = [sseEvents, sseStats];
