import { adminCreateMarket } from '@/lib/contracts/markets';
import { route } from '@/lib/http/route';
import { createMarket } from '@/lib/markets/service/create-market';

// POST /api/admin/markets — create a question
export const POST = route(adminCreateMarket, async ({ body, principal }) => ({
  market: await createMarket({ ...body, createdById: principal.userId }),
}));
