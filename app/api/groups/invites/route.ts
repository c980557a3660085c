import { groupsInvites } from '@/lib/contracts/groups';
import { listMyInvites } from '@/lib/groups/service/read-groups';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/groups/invites — the caller's pending invites
export const GET = route(groupsInvites, async ({ caller }) => listMyInvites({ caller }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
