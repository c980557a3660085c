/**
 * Sending a message: one transaction that locks the chat row (taking the next seq, so messages
 * are numbered in the order their transactions commit), checks the sender's rhythm under that
 * lock (the same text twice in a row within a minute: DUPLICATE_MESSAGE; more than
 * FLOOD_LIMIT messages in FLOOD_WINDOW_MS in one chat: MESSAGE_FLOOD), inserts the message and
 * its `chat_message` event (the outbox), and notifies the other members of a direct or player
 * group chat for whom this message starts an unread stretch (one notification per stretch, not
 * one per message). In a direct chat a block refuses the message, and the other person, if they
 * had left, is back in the chat to read it.
 */
import 'server-only';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { chatMessages, chatParticipants, chats, groups } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { emitEvent } from '@/lib/events/outbox';
import { assertCanReach } from '@/lib/moderation/reach';
import { notify } from '@/lib/notifications/service';
import { readMessage, requireChat, requireMember } from '../queries';
import { addChatMember } from './shared';

export const DUPLICATE_WINDOW_MS = 60_000;
export const FLOOD_LIMIT = 8;
export const FLOOD_WINDOW_MS = 10_000;

const preview = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s);

export const sendMessage = async (input: { caller: TCaller; id: string; content: string }) => {
  const me = input.caller.userId;
  const content = input.content;
  const messageId = await withTransaction(async (tx) => {
    const chat = await requireChat(tx, input.id);
    await requireMember(tx, chat.id, me);
    // The chat row's lock orders the sends: seq is taken here and the rhythm checks see every
    // earlier send. The message's time is never before the previous one's (a send that read the
    // clock first may take the lock second).
    const [locked] = await tx
      .update(chats)
      .set({ lastSeq: sql`${chats.lastSeq} + 1`, lastActivityAt: sql`greatest(${chats.lastActivityAt}, ${now().toISOString()}::timestamptz)` })
      .where(eq(chats.id, chat.id))
      .returning({ seq: chats.lastSeq, at: chats.lastActivityAt });
    const seq = locked!.seq;
    const at = locked!.at;
    const recent = await tx
      .select({ content: chatMessages.content, createdAt: chatMessages.createdAt })
      .from(chatMessages)
      .where(and(eq(chatMessages.chatId, chat.id), eq(chatMessages.senderId, me), gt(chatMessages.createdAt, new Date(at.getTime() - Math.max(DUPLICATE_WINDOW_MS, FLOOD_WINDOW_MS)))))
      .orderBy(desc(chatMessages.seq))
      .limit(FLOOD_LIMIT);
    if (recent[0] && recent[0].content === content && at.getTime() - recent[0].createdAt.getTime() < DUPLICATE_WINDOW_MS) {
      throw new AppError('DUPLICATE_MESSAGE', 'You just sent that message', { chatId: chat.id });
    }
    const inWindow = recent.filter((m) => at.getTime() - m.createdAt.getTime() < FLOOD_WINDOW_MS);
    if (inWindow.length >= FLOOD_LIMIT) {
      const retryAt = new Date(inWindow.at(-1)!.createdAt.getTime() + FLOOD_WINDOW_MS);
      throw new AppError('MESSAGE_FLOOD', 'Too many messages in a few seconds: slow down', { chatId: chat.id, retryAt: retryAt.toISOString() });
    }
    if (!chat.isGroup) {
      const otherId = chat.dmKey!.split(':').find((x) => x !== me)!;
      await assertCanReach(tx, me, otherId, 'message this user');
      await addChatMember(tx, chat.id, otherId, 'member');
    }
    const [row] = await tx.insert(chatMessages).values({ chatId: chat.id, senderId: me, content, seq, createdAt: at }).returning({ id: chatMessages.id });
    await tx
      .update(chatParticipants)
      .set({ lastReadSeq: seq })
      .where(and(eq(chatParticipants.chatId, chat.id), eq(chatParticipants.userId, me)));
    await emitEvent(tx, `chat:${chat.id}`, {
      type: 'chat_message',
      data: { chatId: chat.id, messageId: row!.id, senderId: me, content, timestamp: at.toISOString() },
    });
    // Community chats of groups are busy: their unread badge is enough.
    const [community] = chat.isGroup ? await tx.select({ id: groups.id }).from(groups).where(eq(groups.chatId, chat.id)) : [];
    if (!community) {
      const fresh = rowsOf<{ user_id: string }>(
        await tx.execute(sql`
          select p.user_id from ${chatParticipants} p
          where p.chat_id = ${chat.id} and p.user_id <> ${me} and p.last_read_seq = ${seq - 1}`),
      );
      const who = input.caller.username ? `@${input.caller.username}` : 'Someone';
      await notify(
        tx,
        fresh.map((p) => ({
          userId: p.user_id,
          type: 'system' as const,
          actorId: me,
          title: chat.isGroup ? `New message in ${chat.name ?? 'a group chat'}` : `New message from ${who}`,
          message: preview(`${chat.isGroup ? `${who}: ` : ''}${content}`),
        })),
      );
    }
    return row!.id;
  });
  return { message: await readMessage(await getDb(), messageId) };
};
