import { adminResolveMarket } from '@/lib/contracts/markets';
import { route } from '@/lib/http/route';
import { resolveMarket } from '@/lib/markets/service/resolve-market';

// POST /api/admin/markets/{id}/resolve — pay every winning share 1, once
export const POST = route(adminResolveMarket, async ({ params, body }) =>
  resolveMarket({ marketId: params.id, outcome: body.outcome }),
);
