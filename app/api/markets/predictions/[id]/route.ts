import { predictionsGet } from '@/lib/contracts/markets';
import { route } from '@/lib/http/route';
import { getPrediction } from '@/lib/markets/service/read-markets';

// GET /api/markets/predictions/{id} — one question
export const GET = route(predictionsGet, async ({ params }) => getPrediction(params.id));
