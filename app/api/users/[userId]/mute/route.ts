import { usersMute, usersMuteStatus } from '@/lib/contracts/moderation';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getMuteStatus, setMute } from '@/lib/moderation/service/mutes';

// POST /api/users/{userId}/mute — mute or unmute ({action})
export const POST = route(usersMute, async ({ params, body, caller }) => setMute({ caller, userId: params.userId, ...body }));

// GET /api/users/{userId}/mute — mute status
export const GET = route(usersMuteStatus, async ({ params, caller }) => getMuteStatus({ caller, userId: params.userId }));

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
