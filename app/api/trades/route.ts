import { tradesList } from '@/lib/contracts/markets';
import { route } from '@/lib/http/route';
import { listTrades } from '@/lib/markets/service/read-markets';

// GET /api/trades — recent trades, newest first
export const GET = route(tradesList, async ({ query }) => listTrades(query));
