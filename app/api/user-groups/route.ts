import { groupsMine } from '@/lib/contracts/groups';
import { listMyGroups } from '@/lib/groups/service/read-groups';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/user-groups — the caller's groups
export const GET = route(groupsMine, async ({ caller }) => listMyGroups({ caller }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
