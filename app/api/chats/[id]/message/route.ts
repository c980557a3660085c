import { chatsSendMessage } from '@/lib/contracts/chats';
import { sendMessage } from '@/lib/chats/service/send-message';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/chats/{id}/message — send a message
export const POST = route(chatsSendMessage, async ({ params, body, caller }) => sendMessage({ caller, id: params.id, content: body.content }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
