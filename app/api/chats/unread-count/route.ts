import { chatsUnreadCount } from '@/lib/contracts/chats';
import { unreadCounts } from '@/lib/chats/service/read-chats';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/chats/unread-count — unread messages, total and per chat
export const GET = route(chatsUnreadCount, async ({ caller }) => unreadCounts({ caller }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
