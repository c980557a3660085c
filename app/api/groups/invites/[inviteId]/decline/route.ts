import { groupsDeclineInvite } from '@/lib/contracts/groups';
import { declineInvite } from '@/lib/groups/service/membership';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/groups/invites/{inviteId}/decline — decline an invite
export const POST = route(groupsDeclineInvite, async ({ params, caller }) => declineInvite({ caller, inviteId: params.inviteId }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
