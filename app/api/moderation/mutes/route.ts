import { moderationMutesList } from '@/lib/contracts/moderation';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listMutes } from '@/lib/moderation/service/mutes';

// GET /api/moderation/mutes — the caller's mutes
export const GET = route(moderationMutesList, async ({ query, caller }) => listMutes({ caller, ...query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
