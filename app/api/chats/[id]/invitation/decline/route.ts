import { chatsDeclineInvitation } from '@/lib/contracts/chats';
import { declineChatInvitation } from '@/lib/chats/service/invitation';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/chats/{id}/invitation/decline — decline an invitation to a group chat
export const POST = route(chatsDeclineInvitation, async ({ params, caller }) => declineChatInvitation({ caller, id: params.id }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
