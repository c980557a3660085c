/**
 * Group membership: joining (open groups directly, invite-only ones with a pending invite, which
 * joining accepts), leaving (not the owner), accepting and declining an invite (once, only the
 * invitee: anyone else's invite is INVITE_NOT_FOUND), and inviting (the game tick). Each change
 * locks the group row, keeps member_count in the same transaction, and joins or leaves the group's
 * chat with it (lib/chats/service/shared.ts).
 */
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { withTransaction, getDb, type DbOrTx } from '@/db/client';
import { groupInvites, groupMembers, groups, type TGroupInviteRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { addChatMember, removeChatMember } from '@/lib/chats/service/shared';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { assertCanReach, isBlockedBetween } from '@/lib/moderation/reach';
import { notify } from '@/lib/notifications/service';
import { lockGroup, requireGroupDto } from '../queries';
import { readInvite } from './read-groups';

const addMember = async (tx: DbOrTx, group: { id: string; chatId: string }, userId: string, role: 'owner' | 'member' = 'member') => {
  const [row] = await tx.insert(groupMembers).values({ groupId: group.id, userId, role, joinedAt: now() }).onConflictDoNothing().returning();
  if (!row) return false;
  await tx.update(groups).set({ memberCount: sql`${groups.memberCount} + 1` }).where(eq(groups.id, group.id));
  await addChatMember(tx, group.chatId, userId, role);
  return true;
};

/** Answers an invite inside a transaction that holds the group's lock. */
const answerInvite = async (tx: DbOrTx, invite: TGroupInviteRow, status: 'accepted' | 'declined') => {
  await tx.update(groupInvites).set({ status, respondedAt: now() }).where(eq(groupInvites.id, invite.id));
};

export async function joinGroup(input: { caller: TCaller; groupId: string }) {
  const me = input.caller.userId;
  await withTransaction(async (tx) => {
    const group = await lockGroup(tx, input.groupId);
    const [member] = await tx.select().from(groupMembers).where(and(eq(groupMembers.groupId, group.id), eq(groupMembers.userId, me)));
    if (member) throw new AppError('ALREADY_MEMBER', 'You are already a member of this group', { groupId: group.id });
    await assertCanReach(tx, me, group.ownerId, 'join a group its owner keeps you out of');
    const [invite] = await tx
      .select()
      .from(groupInvites)
      .where(and(eq(groupInvites.groupId, group.id), eq(groupInvites.userId, me), eq(groupInvites.status, 'pending')));
    if (group.visibility === 'invite' && !invite) throw new AppError('INVITE_REQUIRED', 'This group is invite only', { groupId: group.id });
    if (invite) await answerInvite(tx, invite, 'accepted');
    await addMember(tx, group, me);
  });
  return { group: await requireGroupDto(await getDb(), input.groupId, me) };
}

export async function leaveGroup(input: { caller: TCaller; groupId: string }) {
  const me = input.caller.userId;
  return withTransaction(async (tx) => {
    const group = await lockGroup(tx, input.groupId);
    const [row] = await tx
      .delete(groupMembers)
      .where(and(eq(groupMembers.groupId, group.id), eq(groupMembers.userId, me), sql`${groupMembers.role} <> 'owner'`))
      .returning();
    if (!row) {
      if (group.ownerId === me) throw new AppError('FORBIDDEN', 'The owner cannot leave their group', { groupId: group.id });
      throw new AppError('NOT_GROUP_MEMBER', 'You are not a member of this group', { groupId: group.id });
    }
    await tx.update(groups).set({ memberCount: sql`${groups.memberCount} - 1` }).where(eq(groups.id, group.id));
    await removeChatMember(tx, group.chatId, me);
    return { groupId: group.id, left: true as const };
  });
}

/** The caller's own invite, locked with its group, or INVITE_NOT_FOUND (someone else's too). */
const respond = async (input: { caller: TCaller; inviteId: string }, status: 'accepted' | 'declined') => {
  const me = input.caller.userId;
  const db = await getDb();
  const [found] = await db.select().from(groupInvites).where(eq(groupInvites.id, input.inviteId));
  if (!found || found.userId !== me) throw new AppError('INVITE_NOT_FOUND', 'Invite not found', { inviteId: input.inviteId });
  await withTransaction(async (tx) => {
    const group = await lockGroup(tx, found.groupId);
    const [invite] = await tx.select().from(groupInvites).where(eq(groupInvites.id, found.id));
    if (invite!.status !== 'pending') {
      throw new AppError('INVITE_ALREADY_ANSWERED', `You already ${invite!.status} this invite`, { inviteId: invite!.id, status: invite!.status });
    }
    if (status === 'accepted') await assertCanReach(tx, me, group.ownerId, 'join a group its owner keeps you out of');
    await answerInvite(tx, invite!, status);
    if (status === 'accepted') await addMember(tx, group, me);
  });
  return { invite: await readInvite(db, found.id, me) };
};

export function acceptInvite(input: { caller: TCaller; inviteId: string }) {
  return respond(input, 'accepted');
}
export function declineInvite(input: { caller: TCaller; inviteId: string }) {
  return respond(input, 'declined');
}

/**
 * Invites `userId` to the group (the game tick, for players whose activity fits): nothing when
 * they are a member or were ever invited (a declined invite is not sent again), or when a block
 * stands between them and the inviter. Returns whether an invite was written.
 */
export async function inviteToGroup(tx: DbOrTx, input: { groupId: string; userId: string; invitedBy: string; reason: string }) {
  const [member] = await tx.select().from(groupMembers).where(and(eq(groupMembers.groupId, input.groupId), eq(groupMembers.userId, input.userId)));
  if (member) return false;
  if (await isBlockedBetween(tx, input.userId, input.invitedBy)) return false;
  const [invite] = await tx
    .insert(groupInvites)
    .values({ groupId: input.groupId, userId: input.userId, invitedBy: input.invitedBy, reason: input.reason, status: 'pending', createdAt: now() })
    .onConflictDoNothing()
    .returning();
  if (!invite) return false;
  const [group] = await tx.select({ name: groups.name }).from(groups).where(eq(groups.id, input.groupId));
  await notify(tx, [{ userId: input.userId, type: 'system', actorId: input.invitedBy, title: `You are invited to ${group!.name}`, message: input.reason }]);
  return true;
}

/** Seeds a membership (the world seed): the owner and the founding members, with the chat. */
export function seedGroupMember(tx: DbOrTx, group: { id: string; chatId: string }, userId: string, role: 'owner' | 'member') {
  return addMember(tx, group, userId, role);
}
