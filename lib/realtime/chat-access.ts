/**
 * Who may subscribe to `chat:{chatId}`: the one membership check of the SSE route (a member is a
 * row in chat_participants). A member who leaves later stops receiving the channel on an open
 * stream too: lib/realtime/sse.ts hears the internal `membership_changed` event of their leaving.
 */
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { chatParticipants } from '@/db/schema';

export const canSubscribeToChat = async (userId: string, chatId: string): Promise<boolean> => {
  const rows = await (await getDb())
    .select({ userId: chatParticipants.userId })
    .from(chatParticipants)
    .where(and(eq(chatParticipants.chatId, chatId), eq(chatParticipants.userId, userId)))
    .limit(1);
  return rows.length > 0;
};
