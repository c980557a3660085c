import { widgetsBreakingNews } from '@/lib/contracts/widgets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listBreakingNews } from '@/lib/widgets/service/world';

// GET /api/feed/widgets/breaking-news — breaking news
export const GET = route(widgetsBreakingNews, async () => listBreakingNews());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
