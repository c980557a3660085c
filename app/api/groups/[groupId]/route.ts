import { groupsGet } from '@/lib/contracts/groups';
import { getGroup } from '@/lib/groups/service/read-groups';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/groups/{groupId} — a group, its members and (for members) its recent messages
export const GET = route(groupsGet, async ({ params, caller }) => getGroup({ caller, groupId: params.groupId }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
