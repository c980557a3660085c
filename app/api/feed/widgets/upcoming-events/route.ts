import { widgetsUpcomingEvents } from '@/lib/contracts/social';
import { route } from '@/lib/http/route';
import { listUpcomingEvents } from '@/lib/game/widgets';

// GET /api/feed/widgets/upcoming-events — upcoming resolutions and funding
export const GET = route(widgetsUpcomingEvents, async () => listUpcomingEvents());
