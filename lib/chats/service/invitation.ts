/**
 * Answering an invitation to a group chat (the creator's participants are invited, ./open-chat.ts):
 * accepting makes the caller a member who has read everything sent so far (the history is theirs
 * to scroll, nothing counts as unread, and from now on messages notify and stream to them);
 * declining deletes their participant row, so the chat leaves their list. An invitation is
 * answered once, by its invitee only: each answer is one conditional write on the row while it is
 * still `invited`, so of two answers at once exactly one wins and the other finds it answered
 * (INVITE_ALREADY_ANSWERED once accepted; INVITE_NOT_FOUND once declined, when nothing is left).
 * Like a group invite, accepting is refused across a block with the creator.
 */
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { getDb, withTransaction, type DbOrTx } from '@/db/client';
import { chatParticipants, chats } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { assertCanReach } from '@/lib/moderation/reach';
import { loadChatSummaries, requireChat } from '../queries';

const mine = (chatId: string, userId: string) => and(eq(chatParticipants.chatId, chatId), eq(chatParticipants.userId, userId));

/** Why the caller's invitation cannot be answered (the write found no invited row). */
const unanswerable = async (tx: DbOrTx, chatId: string, userId: string) => {
  const [row] = await tx.select({ status: chatParticipants.status }).from(chatParticipants).where(mine(chatId, userId));
  if (row) return new AppError('INVITE_ALREADY_ANSWERED', 'You already accepted this invitation', { chatId, status: 'accepted' });
  return new AppError('INVITE_NOT_FOUND', 'You have no invitation to this chat', { chatId });
};

export async function acceptChatInvitation(input: { caller: TCaller; id: string }) {
  const me = input.caller.userId;
  const chatId = await withTransaction(async (tx) => {
    const chat = await requireChat(tx, input.id);
    const [row] = await tx.select({ status: chatParticipants.status }).from(chatParticipants).where(mine(chat.id, me));
    if (row?.status === 'invited') await assertCanReach(tx, me, chat.createdBy, 'join a chat its creator keeps you out of');
    const accepted = await tx
      .update(chatParticipants)
      .set({ status: 'member', joinedAt: now(), lastReadSeq: sql`(select ${chats.lastSeq} from ${chats} where ${chats.id} = ${chat.id})` })
      .where(and(mine(chat.id, me), eq(chatParticipants.status, 'invited')))
      .returning({ userId: chatParticipants.userId });
    if (accepted.length === 0) throw await unanswerable(tx, chat.id, me);
    return chat.id;
  });
  const [chat] = await loadChatSummaries(await getDb(), [chatId], me);
  return { chatId, chat: chat! };
}

export async function declineChatInvitation(input: { caller: TCaller; id: string }) {
  const me = input.caller.userId;
  return withTransaction(async (tx) => {
    const chat = await requireChat(tx, input.id);
    const declined = await tx
      .delete(chatParticipants)
      .where(and(mine(chat.id, me), eq(chatParticipants.status, 'invited')))
      .returning({ userId: chatParticipants.userId });
    if (declined.length === 0) throw await unanswerable(tx, chat.id, me);
    return { chatId: chat.id, declined: true as const };
  });
}
