/**
 * Membership writes shared by the chat services and lib/groups (joining a group joins its chat):
 * adding a member (or an invited participant), removing one with the internal `membership_changed`
 * signal that stops their open streams from delivering the chat from that point of the log, and
 * the opaque message cursor.
 */
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { chatParticipants, chats } from '@/db/schema';
import type { CHAT_PARTICIPANT_STATUSES } from '@/db/schema/chats-values';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { emitEvent } from '@/lib/events/outbox';

type TChatParticipantStatus = (typeof CHAT_PARTICIPANT_STATUSES)[number];

/**
 * Adds `userId` to the chat (nothing when already in it); a new member has read everything sent
 * before they joined. `status: 'invited'` adds someone who reads nothing of the chat until they
 * accept (lib/chats/service/invitation.ts). Returns whether they were added.
 */
export async function addChatMember(
  tx: DbOrTx,
  chatId: string,
  userId: string,
  role: 'owner' | 'member' = 'member',
  status: TChatParticipantStatus = 'member',) {
  const rows = await tx
    .insert(chatParticipants)
    .values({ chatId, userId, role, status, joinedAt: now(), lastReadSeq: sql`(select ${chats.lastSeq} from ${chats} where ${chats.id} = ${chatId})` })
    .onConflictDoNothing()
    .returning({ userId: chatParticipants.userId });
  return rows.length > 0;
}

/** Removes `userId` from the chat and tells their live streams; false when they were not a member. */
export async function removeChatMember(tx: DbOrTx, chatId: string, userId: string) {
  const rows = await tx
    .delete(chatParticipants)
    .where(and(eq(chatParticipants.chatId, chatId), eq(chatParticipants.userId, userId)))
    .returning({ userId: chatParticipants.userId });
  if (rows.length === 0) return false;
  await emitEvent(tx, 'chats', { type: 'membership_changed', data: { chatId, userIds: [userId] } });
  return true;
}

/** The cursor of the page older than the message with `seq`. */
export function encodeMessageCursor(seq: number) {
  return Buffer.from(`seq:${seq}`).toString('base64url');
}

export function decodeMessageCursor(cursor: string): number {
  const m = /^seq:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const seq = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(seq) || seq < 1) throw new AppError('INVALID_PARAMETER', 'Invalid cursor', { cursor: cursor.slice(0, 64) });
  return seq;
}
