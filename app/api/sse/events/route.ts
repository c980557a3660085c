import { sseEvents } from '@/lib/contracts/realtime';
import { route } from '@/lib/http/route';
import { parseChannelList, subscribeToEvents } from '@/lib/realtime';

// GET /api/sse/events — live events of the requested channels, replaying from Last-Event-ID
export const GET = route(sseEvents, async ({ req, principal, query }) =>
  subscribeToEvents({
    channels: parseChannelList(query.channels),
    userId: principal?.userId ?? null,
    lastEventId: query.lastEventId ?? req.headers.get('last-event-id'),
    signal: req.signal,
  }),
);
