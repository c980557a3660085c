import { chatsDm } from '@/lib/contracts/chats';
import { openDirectChat } from '@/lib/chats/service/open-chat';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/chats/dm — open (or create) the direct chat with a user
export const POST = route(chatsDm, async ({ body, caller }) => openDirectChat({ caller, participantId: body.participantId }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
