import { biasActive } from '@/lib/contracts/markets';
import { route } from '@/lib/http/route';
import { listActiveBiases } from '@/lib/markets/service/read-markets';

// GET /api/markets/bias/active — biases that have not expired
export const GET = route(biasActive, async () => listActiveBiases());
