import { groupsJoin, groupsLeave } from '@/lib/contracts/groups';
import { joinGroup, leaveGroup } from '@/lib/groups/service/membership';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/groups/{groupId}/members — join the group and its chat
export const POST = route(groupsJoin, async ({ params, caller }) => joinGroup({ caller, groupId: params.groupId }));

// DELETE /api/groups/{groupId}/members — leave the group and its chat
export const DELETE = route(groupsLeave, async ({ params, caller }) => leaveGroup({ caller, groupId: params.groupId }));

// GET, PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
