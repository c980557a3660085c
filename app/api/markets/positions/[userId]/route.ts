import { marketsPositions } from '@/lib/contracts/markets';
import { route } from '@/lib/http/route';
import { getUserPositions } from '@/lib/markets/service/read-markets';

// GET /api/markets/positions/{userId} — a user's open positions
export const GET = route(marketsPositions, async ({ params }) => getUserPositions(params.userId));
