import { predictionsBuy } from '@/lib/contracts/markets';
import { route } from '@/lib/http/route';
import { buyShares } from '@/lib/markets/service/buy-shares';

// POST /api/markets/predictions/{id}/buy — buy YES or NO shares
export const POST = route(predictionsBuy, async ({ params, body, principal }) =>
  buyShares({ userId: principal.userId, referredById: principal.user.referredById, marketId: params.id, ...body }),
);
