import { groupsAcceptInvite } from '@/lib/contracts/groups';
import { acceptInvite } from '@/lib/groups/service/membership';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/groups/invites/{inviteId}/accept — accept an invite and join the group
export const POST = route(groupsAcceptInvite, async ({ params, caller }) => acceptInvite({ caller, inviteId: params.inviteId }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
