import { groupsList } from '@/lib/contracts/groups';
import { listGroups } from '@/lib/groups/service/read-groups';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/groups — groups to discover, largest first
export const GET = route(groupsList, async ({ query, caller }) => listGroups({ caller, ...query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
