import { widgetsMarkets } from '@/lib/contracts/markets';
import { route } from '@/lib/http/route';
import { listTopMarkets } from '@/lib/markets/service/read-markets';

// GET /api/feed/widgets/markets — top markets with 24 h price change
export const GET = route(widgetsMarkets, async () => listTopMarkets());
