import { predictionsSell } from '@/lib/contracts/markets';
import { route } from '@/lib/http/route';
import { sellShares } from '@/lib/markets/service/sell-shares';

// POST /api/markets/predictions/{id}/sell — sell by positionId, or by outcome
export const POST = route(predictionsSell, async ({ params, body, principal }) =>
  sellShares({ userId: principal.userId, marketId: params.id, ...body }),
);
