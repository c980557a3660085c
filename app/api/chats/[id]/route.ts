import { chatsGet } from '@/lib/contracts/chats';
import { getChat } from '@/lib/chats/service/read-chats';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/chats/{id} — the chat and a page of its messages, newest first
export const GET = route(chatsGet, async ({ params, query, caller }) => getChat({ caller, id: params.id, ...query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
