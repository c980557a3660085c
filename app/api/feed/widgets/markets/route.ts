import { widgetsMarkets } from '@/lib/contracts/widgets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listTopMarkets } from '@/lib/markets/service/read-markets';

// GET /api/feed/widgets/markets — top markets with 24 h price change
export const GET = route(widgetsMarkets, async () => listTopMarkets());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
