/**
 * The reads every chat answer is built from: membership, chat summaries (name, participants, last
 * message, unread count) for a set of chats in four statements whatever their number, and pages
 * of messages by seq. Messages from people hidden from the reader (a block either way, their
 * mute, a banned sender: lib/moderation/visibility canSee) are left out of everything the reader
 * gets: the last message, the unread count and the pages. A reader who is only invited to a chat
 * gets none of its messages: its summary has no last message and no unread count, and
 * requireMember refuses them.
 */
import 'server-only';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { chatMessages, chatParticipants, chats, groups, users, type TChatRow } from '@/db/schema';
import { AppError } from '@/lib/errors/app-error';
import { canSee } from '@/lib/moderation/visibility';
import { toUserSummary, userSummaryOfRow } from '@/lib/users/dto';
import type { TChat, TChatMessage } from './dto';

/** Participants listed per chat at most (a large group says how many more in participantCount). */
export const PARTICIPANTS_SHOWN = 100;

const personColumns = {
  id: users.id,
  username: users.username,
  displayName: users.displayName,
  profileImageUrl: users.profileImageUrl,
  isActor: users.isActor,
};

type TMessageRaw = {
  id: string;
  chat_id: string;
  sender_id: string;
  content: string;
  seq: number | string;
  created_at: string | Date;
  username: string;
  display_name: string;
  profile_image_url: string | null;
  is_actor: boolean;
};

export function toMessageDto(r: TMessageRaw): TChatMessage {
  return {
  id: r.id,
  chatId: r.chat_id,
  senderId: r.sender_id,
  sender: userSummaryOfRow(r.sender_id, r, { reputation: false }),
  content: r.content,
  createdAt: new Date(r.created_at).toISOString(),
};
}

const messageSelect = sql`m.id, m.chat_id, m.sender_id, m.content, m.seq, m.created_at, u.username, u.display_name, u.profile_image_url, u.is_actor`;

/** The chat row, or CHAT_NOT_FOUND. */
export async function requireChat(db: DbOrTx, chatId: string): Promise<TChatRow> {
  const [chat] = await db.select().from(chats).where(eq(chats.id, chatId));
  if (!chat) throw new AppError('CHAT_NOT_FOUND', 'Chat not found', { chatId });
  return chat;
}

/** The caller's participant row as a member, or NOT_CHAT_MEMBER (also for an invitation not yet accepted). */
export async function requireMember(db: DbOrTx, chatId: string, userId: string) {
  const [row] = await db
    .select()
    .from(chatParticipants)
    .where(and(eq(chatParticipants.chatId, chatId), eq(chatParticipants.userId, userId)));
  if (row?.status === 'invited') {
    throw new AppError('NOT_CHAT_MEMBER', 'You are invited to this chat: accept the invitation to read it', { chatId, invitation: true });
  }
  if (!row) throw new AppError('NOT_CHAT_MEMBER', 'You are not a member of this chat', { chatId });
  return row;
}

/**
 * Messages of a chat the reader may see, newest first: `beforeSeq` (exclusive) pages back. Keyed
 * by seq, so a page never shifts when new messages arrive.
 */
export async function readMessages(db: DbOrTx, input: { chatId: string; readerId: string; limit: number; beforeSeq?: number }) {
  const rows = rowsOf<TMessageRaw>(
    await db.execute(sql`
      select ${messageSelect}
      from ${chatMessages} m join ${users} u on u.id = m.sender_id
      where m.chat_id = ${input.chatId}
        ${input.beforeSeq === undefined ? sql`` : sql`and m.seq < ${input.beforeSeq}`}
        and ${canSee(sql`m.sender_id`, input.readerId)}
      order by m.seq desc
      limit ${input.limit + 1}`),
  );
  return { rows: rows.slice(0, input.limit), hasMore: rows.length > input.limit, seqs: rows.slice(0, input.limit).map((r) => Number(r.seq)) };
}

/**
 * Chat summaries for `chatIds` as `readerId` sees them (order kept). For a chat the reader is only
 * invited to, no message is read at all: no last message, no unread count, and its activity time is
 * when they were invited.
 */
export async function loadChatSummaries(db: DbOrTx, chatIds: readonly string[], readerId: string): Promise<TChat[]> {
  if (chatIds.length === 0) return [];
  const ids = [...chatIds];
  const idList = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const [chatRows, participantRows, lastRows, unreadRows] = await Promise.all([
    db
      .select({ chat: chats, groupId: groups.id })
      .from(chats)
      .leftJoin(groups, eq(groups.chatId, chats.id))
      .where(inArray(chats.id, ids)),
    db
      .select({ chatId: chatParticipants.chatId, role: chatParticipants.role, status: chatParticipants.status, joinedAt: chatParticipants.joinedAt, ...personColumns })
      .from(chatParticipants)
      .innerJoin(users, eq(users.id, chatParticipants.userId))
      .where(inArray(chatParticipants.chatId, ids))
      .orderBy(asc(chatParticipants.chatId), asc(chatParticipants.joinedAt), asc(users.id)),
    // The newest message each reader may see, per chat: one index probe per chat (none for an invitation).
    db.execute(sql`
      select ${messageSelect}
      from unnest(array[${idList}]::text[]) as c(id)
      cross join lateral (
        select m.* from ${chatMessages} m
        where m.chat_id = c.id and ${canSee(sql`m.sender_id`, readerId)}
          and not exists (select 1 from ${chatParticipants} i where i.chat_id = c.id and i.user_id = ${readerId} and i.status = 'invited')
        order by m.seq desc limit 1
      ) m
      join ${users} u on u.id = m.sender_id`),
    db.execute(sql`
      select p.chat_id, count(m.id) as n
      from ${chatParticipants} p
      join ${chatMessages} m on m.chat_id = p.chat_id and m.seq > p.last_read_seq and m.sender_id <> p.user_id
      where p.user_id = ${readerId} and p.status = 'member' and p.chat_id in (${idList}) and ${canSee(sql`m.sender_id`, readerId)}
      group by p.chat_id`),
  ]);
  const byChat = new Map(chatRows.map((r) => [r.chat.id, r]));
  const people = new Map<string, (typeof participantRows)[number][]>();
  for (const p of participantRows) people.set(p.chatId, [...(people.get(p.chatId) ?? []), p]);
  const last = new Map(rowsOf<TMessageRaw>(lastRows).map((r) => [r.chat_id, toMessageDto(r)]));
  const unread = new Map(rowsOf<{ chat_id: string; n: string | number }>(unreadRows).map((r) => [r.chat_id, Number(r.n)]));
  // A direct chat the other person left still shows them: they are named by its dm_key.
  const otherIdOf = (chat: TChatRow) => chat.dmKey?.split(':').find((x) => x !== readerId) ?? null;
  const statusOf = (chatId: string) => (people.get(chatId) ?? []).find((p) => p.id === readerId)?.status ?? 'member';
  // An invitation names who invited the reader: the chat's creator, who may have left it since.
  const inviters = chatRows
    .filter((r) => statusOf(r.chat.id) === 'invited' && !(people.get(r.chat.id) ?? []).some((p) => p.id === r.chat.createdBy))
    .map((r) => r.chat.createdBy);
  const missing = chatRows
    .filter((r) => !r.chat.isGroup && !(people.get(r.chat.id) ?? []).some((p) => p.id !== readerId))
    .map((r) => otherIdOf(r.chat))
    .filter((x): x is string => !!x);
  const lookups = [...new Set([...missing, ...inviters])];
  const gone = new Map(
    lookups.length ? (await db.select(personColumns).from(users).where(inArray(users.id, lookups))).map((u) => [u.id, u]) : [],
  );
  return ids.flatMap((id) => {
    const row = byChat.get(id);
    if (!row) return [];
    const { chat } = row;
    const members = people.get(id) ?? [];
    const person = (p: (typeof members)[number]) => toUserSummary(p, { reputation: false });
    const member = chat.isGroup ? undefined : members.find((p) => p.id !== readerId);
    const other = member ? person(member) : chat.isGroup ? null : (gone.get(otherIdOf(chat) ?? '') ?? null);
    const mine = members.find((p) => p.id === readerId);
    const isInvited = mine?.status === 'invited';
    const creator = members.find((p) => p.id === chat.createdBy);
    const inviter = !isInvited ? null : creator ? person(creator) : (gone.get(chat.createdBy) ?? null);
    return [
      {
        id: chat.id,
        name: chat.isGroup ? chat.name || 'Group chat' : other ? other.displayName || `@${other.username}` : 'Direct chat',
        isGroup: chat.isGroup,
        groupId: row.groupId ?? null,
        otherUser: other,
        participants: members
          .slice(0, PARTICIPANTS_SHOWN)
          .map((p) => ({ ...person(p), role: p.role, joinedAt: p.joinedAt.toISOString(), membership: p.status })),
        participantCount: members.length,
        lastMessage: isInvited ? null : (last.get(id) ?? null),
        unreadCount: isInvited ? 0 : (unread.get(id) ?? 0),
        lastActivityAt: (isInvited ? mine!.joinedAt : chat.lastActivityAt).toISOString(),
        createdAt: chat.createdAt.toISOString(),
        membership: isInvited ? ('invited' as const) : ('member' as const),
        invitedBy: inviter,
      },
    ];
  });
}
