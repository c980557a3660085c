/**
 * Leaving a chat: the caller's membership ends (the chat and its history stay for the others) and
 * their open streams stop delivering it. A direct chat can be reopened with POST /api/chats/dm.
 * A group's community chat is left by leaving the group (lib/groups), which keeps the two in step.
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { withTransaction } from '@/db/client';
import { groups } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { requireChat, requireMember } from '../queries';
import { removeChatMember } from './shared';

export async function leaveChat(input: { caller: TCaller; id: string }) {
  return withTransaction(async (tx) => {
    const chat = await requireChat(tx, input.id);
    await requireMember(tx, chat.id, input.caller.userId);
    const [group] = await tx.select({ id: groups.id }).from(groups).where(eq(groups.chatId, chat.id));
    if (group) throw new AppError('FORBIDDEN', "This is a group's chat: leave the group to leave it", { groupId: group.id });
    await removeChatMember(tx, chat.id, input.caller.userId);
    return { chatId: chat.id, left: true as const };
  });
}
