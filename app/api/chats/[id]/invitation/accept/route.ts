import { chatsAcceptInvitation } from '@/lib/contracts/chats';
import { acceptChatInvitation } from '@/lib/chats/service/invitation';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/chats/{id}/invitation/accept — accept an invitation to a group chat and become a member
export const POST = route(chatsAcceptInvitation, async ({ params, caller }) => acceptChatInvitation({ caller, id: params.id }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
