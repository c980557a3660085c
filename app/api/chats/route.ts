import { chatsCreate, chatsList } from '@/lib/contracts/chats';
import { createChat } from '@/lib/chats/service/open-chat';
import { listChats } from '@/lib/chats/service/read-chats';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/chats — the caller's chats, newest activity first
export const GET = route(chatsList, async ({ query, caller }) => listChats({ caller, ...query }));

// POST /api/chats — create a group chat
export const POST = route(chatsCreate, async ({ body, caller }) => ({ chat: await createChat({ caller, ...body }) }));

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
