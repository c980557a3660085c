import { sseEvents } from '@/lib/contracts/realtime';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { parseChannelList, subscribeToEvents } from '@/lib/realtime';

// A stream lives up to 300 s (the specification's limit): on Vercel the function must be allowed
// that long, or the platform would cut it first.
export const maxDuration = 300;

// GET /api/sse/events — live events of the requested channels, replaying from Last-Event-ID
export const GET = route(sseEvents, async ({ req, caller, query }) =>
  subscribeToEvents({
    channels: parseChannelList(query.channels),
    userId: caller?.userId ?? null,
    lastEventId: query.lastEventId ?? req.headers.get('last-event-id'),
    signal: req.signal,
  }),
);

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
