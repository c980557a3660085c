import { chatsLeaveVariant } from '@/lib/contracts/chats';
import { leaveChat } from '@/lib/chats/service/leave-chat';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// DELETE /api/chats/{id}/participants — leave the chat (variant of /participants/me)
export const DELETE = route(chatsLeaveVariant, async ({ params, caller }) => leaveChat({ caller, id: params.id }));

// GET, POST, PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
