import { widgetsUpcomingEvents } from '@/lib/contracts/widgets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listUpcomingEvents } from '@/lib/widgets/service/world';

// GET /api/feed/widgets/upcoming-events — upcoming resolutions and funding
export const GET = route(widgetsUpcomingEvents, async () => listUpcomingEvents());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
