import { widgetsStats } from '@/lib/contracts/widgets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getPlatformStats } from '@/lib/widgets/service/world';

// GET /api/feed/widgets/stats — platform figures
export const GET = route(widgetsStats, async () => getPlatformStats());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
