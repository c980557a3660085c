/**
 * Opening chats. A direct chat is one row per pair, ever: its `dm_key` (the two ids, sorted) is
 * unique, so when both ask at once one insert wins and the other reads it. Opening it again after
 * leaving rejoins it with its history. A group chat has the creator as owner and the participants
 * invited: each reads nothing of it, and is not notified of its messages, until they accept
 * (./invitation.ts); nobody in a block with the creator (either way) can be invited.
 */
import 'server-only';
import { eq, inArray } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { chats, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { assertCanReach } from '@/lib/moderation/reach';
import { findUserByIdentifier } from '@/lib/users/queries';
import { loadChatSummaries } from '../queries';
import { addChatMember } from './shared';

export function dmKeyOf(a: string, b: string) {
  return (a < b ? `${a}:${b}` : `${b}:${a}`);
}

export async function openDirectChat(input: { caller: TCaller; participantId: string }) {
  const me = input.caller.userId;
  const db = await getDb();
  const other = await findUserByIdentifier(db, input.participantId);
  if (!other || other.isPoolAccount) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: input.participantId });
  if (other.id === me) throw new AppError('CANNOT_TARGET_SELF', 'You cannot open a chat with yourself');
  const { chatId, created } = await withTransaction(async (tx) => {
    await assertCanReach(tx, me, other.id, 'message this user');
    const at = now();
    const key = dmKeyOf(me, other.id);
    const [inserted] = await tx
      .insert(chats)
      .values({ isGroup: false, dmKey: key, createdBy: me, lastActivityAt: at, createdAt: at })
      .onConflictDoNothing()
      .returning({ id: chats.id });
    if (inserted) {
      await addChatMember(tx, inserted.id, me, 'owner');
      await addChatMember(tx, inserted.id, other.id, 'member');
      return { chatId: inserted.id, created: true };
    }
    // It exists (from before, or from the other side's request that just committed): rejoin it.
    const [existing] = await tx.select({ id: chats.id }).from(chats).where(eq(chats.dmKey, key));
    await addChatMember(tx, existing!.id, me, 'member');
    return { chatId: existing!.id, created: false };
  });
  const [chat] = await loadChatSummaries(db, [chatId], me);
  return { chat: chat!, created };
}

export async function createChat(input: { caller: TCaller; name?: string; isGroup: boolean; participantIds: string[] }) {
  const me = input.caller.userId;
  const wanted = [...new Set(input.participantIds)];
  if (wanted.includes(me)) throw new AppError('CANNOT_TARGET_SELF', 'You are in the chat already: leave yourself out of participantIds');
  if (!input.isGroup) {
    if (wanted.length !== 1) throw new AppError('VALIDATION_ERROR', 'A direct chat has exactly one other participant', { participantIds: input.participantIds });
    return (await openDirectChat({ caller: input.caller, participantId: wanted[0]! })).chat;
  }
  const db = await getDb();
  const found = await db
    .select({ id: users.id, displayName: users.displayName, isPoolAccount: users.isPoolAccount })
    .from(users)
    .where(inArray(users.id, wanted));
  const known = new Map(found.filter((u) => !u.isPoolAccount).map((u) => [u.id, u]));
  const missing = wanted.filter((id) => !known.has(id));
  if (missing.length) throw new AppError('USER_NOT_FOUND', 'Some participants do not exist', { userIds: missing });
  const chatId = await withTransaction(async (tx) => {
    for (const id of wanted) await assertCanReach(tx, me, id, 'add this user to a chat');
    const at = now();
    const name = input.name?.trim() || wanted.map((id) => known.get(id)!.displayName).slice(0, 4).join(', ').slice(0, 100);
    const [chat] = await tx.insert(chats).values({ name, isGroup: true, createdBy: me, lastActivityAt: at, createdAt: at }).returning({ id: chats.id });
    await addChatMember(tx, chat!.id, me, 'owner');
    for (const id of wanted) await addChatMember(tx, chat!.id, id, 'member', 'invited');
    return chat!.id;
  });
  const [chat] = await loadChatSummaries(db, [chatId], me);
  return chat!;
}
