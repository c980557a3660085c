import { widgetsStats } from '@/lib/contracts/social';
import { route } from '@/lib/http/route';
import { getPlatformStats } from '@/lib/game/widgets';

// GET /api/feed/widgets/stats — platform figures
export const GET = route(widgetsStats, async () => getPlatformStats());
