/**
 * Reading groups: discovery (every group, largest first, searchable), the caller's groups, their
 * pending invites, and one group with its members and, for members, its recent messages.
 */
import 'server-only';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { getDb, rowsOf, type DbOrTx } from '@/db/client';
import { containsPattern } from '@/db/like';
import { groupInvites, groupMembers, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { readMessages, toMessageDto } from '@/lib/chats/queries';
import { AppError } from '@/lib/errors/app-error';
import { toUserSummary } from '@/lib/users/dto';
import type { TGroupInvite } from '../dto';
import { countGroups, requireGroupDto, selectGroups } from '../queries';

const RECENT_MESSAGES = 20;
const MEMBERS_SHOWN = 100;

export async function listGroups(input: { caller: TCaller | null; search?: string; limit: number; offset: number }) {
  const db = await getDb();
  const where = input.search ? sql`(g.name ilike ${containsPattern(input.search)} or g.description ilike ${containsPattern(input.search)})` : sql`true`;
  const readerId = input.caller?.userId ?? null;
  const [list, total] = await Promise.all([selectGroups(db, { readerId, where, limit: input.limit, offset: input.offset }), countGroups(db, { readerId, where })]);
  return { groups: list, total };
}

export async function listMyGroups(input: { caller: TCaller }) {
  const me = input.caller.userId;
  const groups = await selectGroups(await getDb(), {
    readerId: me,
    where: sql`exists (select 1 from ${groupMembers} m where m.group_id = g.id and m.user_id = ${me})`,
    orderBy: sql`g.name, g.id`,
  });
  return { groups, total: groups.length };
}

const invitesOf = async (db: DbOrTx, me: string, where: ReturnType<typeof and>): Promise<TGroupInvite[]> => {
  const rows = await db
    .select({ invite: groupInvites, by: { id: users.id, username: users.username, displayName: users.displayName, profileImageUrl: users.profileImageUrl, isActor: users.isActor } })
    .from(groupInvites)
    .innerJoin(users, eq(users.id, groupInvites.invitedBy))
    .where(where)
    .orderBy(desc(groupInvites.createdAt), desc(groupInvites.id));
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.map((r) => r.invite.groupId))];
  const groups = await selectGroups(db, { readerId: me, where: sql`g.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})` });
  const byId = new Map(groups.map((g) => [g.id, g]));
  return rows.flatMap((r) => {
    const group = byId.get(r.invite.groupId);
    if (!group) return [];
    return [
      {
        id: r.invite.id,
        group,
        invitedBy: toUserSummary(r.by, { reputation: false }),
        reason: r.invite.reason,
        status: r.invite.status,
        createdAt: r.invite.createdAt.toISOString(),
        respondedAt: r.invite.respondedAt?.toISOString() ?? null,
      },
    ];
  });
};

export async function listMyInvites(input: { caller: TCaller }) {
  const me = input.caller.userId;
  return { invites: await invitesOf(await getDb(), me, and(eq(groupInvites.userId, me), eq(groupInvites.status, 'pending'))) };
}

/** One invite of `me` as the API shows it. */
export async function readInvite(db: DbOrTx, inviteId: string, me: string) {
  const [invite] = await invitesOf(db, me, and(eq(groupInvites.id, inviteId), eq(groupInvites.userId, me)));
  if (!invite) throw new AppError('INVITE_NOT_FOUND', 'Invite not found', { inviteId });
  return invite;
}

export async function getGroup(input: { caller: TCaller | null; groupId: string }) {
  const db = await getDb();
  const me = input.caller?.userId ?? null;
  const group = await requireGroupDto(db, input.groupId, me);
  const members = await db
    .select({ role: groupMembers.role, joinedAt: groupMembers.joinedAt, id: users.id, username: users.username, displayName: users.displayName, profileImageUrl: users.profileImageUrl, isActor: users.isActor })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(eq(groupMembers.groupId, group.id))
    .orderBy(sql`${groupMembers.role} = 'owner' desc`, asc(groupMembers.joinedAt), asc(users.id))
    .limit(MEMBERS_SHOWN);
  const recent = group.isMember && me ? await readMessages(db, { chatId: group.chatId, readerId: me, limit: RECENT_MESSAGES }) : null;
  return {
    group,
    members: members.map((m) => ({ ...toUserSummary(m, { reputation: false }), role: m.role, joinedAt: m.joinedAt.toISOString() })),
    recentMessages: recent ? recent.rows.map(toMessageDto) : [],
  };
}

/** Member user ids of a group (the tick's NPC chatter picks its speaker from them). */
export async function groupMemberIds(db: DbOrTx, groupId: string) {
  return rowsOf<{ user_id: string }>(await db.execute(sql`select user_id from ${groupMembers} where group_id = ${groupId} order by user_id`)).map((r) => r.user_id);
}
