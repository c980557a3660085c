import { chatsLeave } from '@/lib/contracts/chats';
import { leaveChat } from '@/lib/chats/service/leave-chat';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// DELETE /api/chats/{id}/participants/me — leave the chat
export const DELETE = route(chatsLeave, async ({ params, caller }) => leaveChat({ caller, id: params.id }));

// GET, POST, PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
