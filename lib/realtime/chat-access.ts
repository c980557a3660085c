/**
 * Who may subscribe to `chat:{chatId}`: the one membership check of the SSE route (a member is a
 * row in chat_participants with status `member`: someone only invited to a group chat gets nothing
 * of it live until they accept), for all the chats a stream names in one read. A member who leaves
 * later stops receiving the channel on an open stream too: lib/realtime/sse.ts hears the internal
 * `membership_changed` event of their leaving.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { chatParticipants } from '@/db/schema';

/** The chats of `chatIds` that `userId` is not a member of (empty: they may subscribe to all). */
export async function chatsNotSubscribable(userId: string, chatIds: readonly string[]): Promise<string[]> {
  if (chatIds.length === 0) return [];
  const rows = await (await getDb())
    .select({ chatId: chatParticipants.chatId })
    .from(chatParticipants)
    .where(and(eq(chatParticipants.userId, userId), eq(chatParticipants.status, 'member'), inArray(chatParticipants.chatId, [...chatIds])));
  const member = new Set(rows.map((r) => r.chatId));
  return chatIds.filter((id) => !member.has(id));
}
