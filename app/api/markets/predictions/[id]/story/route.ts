import { predictionStory } from '@/lib/contracts/storylines';
import { getQuestionStory } from '@/lib/storylines/read';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/markets/predictions/{id}/story — the storyline behind a question (roles and calls once resolved)
export const GET = route(predictionStory, async ({ params }) => getQuestionStory(params.id));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
