/**
 * Reading chats: the caller's list (newest activity first; an invitation by when it came, with
 * nothing of the chat's messages), one chat with a page of its messages (opening the newest page
 * marks the chat read), and the unread counts. Members only: an invitation is not read.
 */
import 'server-only';
import { and, count, desc, eq, lt, sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { chatMessages, chatParticipants, chats } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { canSee } from '@/lib/moderation/visibility';
import { loadChatSummaries, readMessages, requireChat, requireMember, toMessageDto } from '../queries';
import { decodeMessageCursor, encodeMessageCursor } from './shared';

export async function listChats(input: { caller: TCaller; limit: number }) {
  const db = await getDb();
  const mine = eq(chatParticipants.userId, input.caller.userId);
  const [rows, [total]] = await Promise.all([
    db
      .select({ id: chats.id })
      .from(chatParticipants)
      .innerJoin(chats, eq(chats.id, chatParticipants.chatId))
      .where(mine)
      // An invitation sorts by when it came: the chat's own activity is not the invitee's to see.
      .orderBy(desc(sql`case when ${chatParticipants.status} = 'invited' then ${chatParticipants.joinedAt} else ${chats.lastActivityAt} end`), desc(chats.id))
      .limit(input.limit),
    db.select({ n: count() }).from(chatParticipants).where(mine),
  ]);
  return { chats: await loadChatSummaries(db, rows.map((r) => r.id), input.caller.userId), total: Number(total?.n ?? 0) };
}

export async function getChat(input: { caller: TCaller; id: string; limit: number; cursor?: string }) {
  const db = await getDb();
  const me = input.caller.userId;
  const beforeSeq = input.cursor === undefined ? undefined : decodeMessageCursor(input.cursor);
  const chat = await requireChat(db, input.id);
  await requireMember(db, chat.id, me);
  const page = await readMessages(db, { chatId: chat.id, readerId: me, limit: input.limit, beforeSeq });
  // The summary as it was when opened: its unreadCount tells the reader where the new messages start.
  const [summary] = await loadChatSummaries(db, [chat.id], me);
  // Opening the newest page reads the chat up to what it showed (a message sent since stays unread).
  if (beforeSeq === undefined && page.seqs.length) {
    await db
      .update(chatParticipants)
      .set({ lastReadSeq: page.seqs[0]! })
      .where(and(eq(chatParticipants.chatId, chat.id), eq(chatParticipants.userId, me), lt(chatParticipants.lastReadSeq, page.seqs[0]!)));
  }
  return {
    chat: summary!,
    messages: page.rows.map(toMessageDto),
    nextCursor: page.hasMore ? encodeMessageCursor(page.seqs.at(-1)!) : null,
    hasMore: page.hasMore,
  };
}

export async function unreadCounts(input: { caller: TCaller }) {
  const db = await getDb();
  const me = input.caller.userId;
  const rows = rowsOf<{ chat_id: string; n: string | number }>(
    await db.execute(sql`
      select p.chat_id, count(*) as n
      from ${chatParticipants} p
      join ${chatMessages} m on m.chat_id = p.chat_id and m.seq > p.last_read_seq and m.sender_id <> p.user_id
      where p.user_id = ${me} and p.status = 'member' and ${canSee(sql`m.sender_id`, me)}
      group by p.chat_id
      order by p.chat_id`),
  );
  const list = rows.map((r) => ({ chatId: r.chat_id, unreadCount: Number(r.n) }));
  return { total: list.reduce((s, c) => s + c.unreadCount, 0), chats: list };
}
