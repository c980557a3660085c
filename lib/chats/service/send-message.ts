/**
 * Sending a message: one transaction of three statements (a fourth for a notification):
 *
 *   1. lock: the chat row, only for a member, takes the next seq (messages are numbered in the
 *      order their transactions commit, and a message's time is never before the previous
 *      one's: a send that read the clock first may take the lock second);
 *   2. context, read after the lock so it sees every earlier send: the sender's recent messages
 *      in this chat (the same text twice in a row within a minute: DUPLICATE_MESSAGE; more than
 *      FLOOD_LIMIT in FLOOD_WINDOW_MS: MESSAGE_FLOOD), the sender as the answer shows them,
 *      whether the chat is a group's community chat, the members for whom this message starts an
 *      unread stretch, and in a direct chat whether a block stands between the two
 *      (lib/moderation/visibility blockBetween: USER_BLOCKED);
 *   3. write: the message, the sender's read mark, the other person back in a direct chat they
 *      had left, and the `chat_message` event on `chat:{chatId}` (the outbox), in one statement.
 *
 * Members of a direct or player group chat for whom the message starts an unread stretch get one
 * notification (not one per message); a group's community chat is busy, its unread badge is
 * enough. Someone only invited to the chat is not a member: nothing of it reaches them. A refused send rolls back and leaves nothing, not even its seq. The builders are
 * exported for the benchmark's reference (bench/chats.ts), which issues the same statements.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { rowsOf, withTransaction } from '@/db/client';
import { chatMessages, chatParticipants, chats, groups, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { outboxCtes, outboxNotified } from '@/lib/events/outbox';
import { blockBetween } from '@/lib/moderation/visibility';
import { notify } from '@/lib/notifications/service';
import { userSummaryOfRow } from '@/lib/users/dto';
import type { TChatMessage } from '../dto';
import { requireChat } from '../queries';

export const DUPLICATE_WINDOW_MS = 60_000;
export const FLOOD_LIMIT = 8;
export const FLOOD_WINDOW_MS = 10_000;

const preview = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s);

/** Statement 1: the chat row locked for a member; no row when the chat is unknown or the caller is not a member (an invitation is not). */
export function buildSendLockStatement(chatId: string, senderId: string, at: Date) {
  return sql`
  update ${chats} c set last_seq = c.last_seq + 1, last_activity_at = greatest(c.last_activity_at, ${at.toISOString()}::timestamptz)
  where c.id = ${chatId}
    and exists (select 1 from ${chatParticipants} p where p.chat_id = c.id and p.user_id = ${senderId} and p.status = 'member')
  returning c.last_seq as seq, c.last_activity_at as at, c.is_group, c.dm_key, c.name`;
}

/** Statement 2: what the rules and the answer need, read after the lock. */
export function buildSendContextStatement(input: { chatId: string; senderId: string; seq: number; at: Date; otherId: string | null }) {
  const since = new Date(input.at.getTime() - Math.max(DUPLICATE_WINDOW_MS, FLOOD_WINDOW_MS)).toISOString();
  return sql`
    select u.username, u.display_name, u.profile_image_url, u.is_actor,
      (select coalesce(json_agg(json_build_object('content', r.content, 'at', r.created_at) order by r.seq desc), '[]'::json)
        from (select m.content, m.created_at, m.seq from ${chatMessages} m
              where m.chat_id = ${input.chatId} and m.sender_id = ${input.senderId} and m.created_at > ${since}::timestamptz
              order by m.seq desc limit ${FLOOD_LIMIT}) r) as recent,
      exists (select 1 from ${groups} g where g.chat_id = ${input.chatId}) as is_community,
      (select coalesce(json_agg(p.user_id order by p.user_id), '[]'::json) from ${chatParticipants} p
        where p.chat_id = ${input.chatId} and p.user_id <> ${input.senderId} and p.status = 'member' and p.last_read_seq = ${input.seq - 1}) as fresh,
      ${
        input.otherId === null
          ? sql`false`
          : blockBetween(sql`${input.senderId}`, sql`${input.otherId}`)
      } as blocked
    from ${users} u where u.id = ${input.senderId}`;
}

/** Statement 3: the message, the read mark, a direct chat's other person back in it, and the event. */
export function buildSendWriteStatement(input: { messageId: string; chatId: string; senderId: string; content: string; seq: number; at: Date; otherId: string | null }) {
  const at = input.at.toISOString();
  const data = JSON.stringify({ chatId: input.chatId, messageId: input.messageId, senderId: input.senderId, content: input.content, timestamp: at });
  return sql`
    with msg as (
      insert into ${chatMessages} (id, chat_id, sender_id, content, seq, created_at)
      values (${input.messageId}, ${input.chatId}, ${input.senderId}, ${input.content}, ${input.seq}, ${at}::timestamptz)
      returning id
    ),
    read_mark as (
      update ${chatParticipants} set last_read_seq = ${input.seq} where chat_id = ${input.chatId} and user_id = ${input.senderId}
      returning user_id
    ),
    back as (
      insert into ${chatParticipants} (chat_id, user_id, role, last_read_seq, joined_at)
      select ${input.chatId}, ${input.otherId ?? ''}, 'member', ${input.seq - 1}, ${at}::timestamptz
      where ${sql.raw(input.otherId === null ? 'false' : 'true')}
      on conflict do nothing
      returning user_id
    ),
    ${outboxCtes('event', `chat:${input.chatId}`, 'chat_message', sql`select ${data}::jsonb as data from msg`)}
    select (select count(*) from msg) as written, (select count(*) from read_mark) as marked, (select count(*) from back) as rejoined, ${outboxNotified('event')} as notified`;
}

type TContext = {
  username: string;
  display_name: string;
  profile_image_url: string | null;
  is_actor: boolean;
  recent: { content: string; at: string }[] | string;
  is_community: boolean;
  fresh: string[] | string;
  blocked: boolean;
};

/** JSON columns arrive parsed from PostgreSQL and as text from PGlite. */
const parsed = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

export async function sendMessage(input: { caller: TCaller; id: string; content: string }): Promise<{ message: TChatMessage }> {
  const me = input.caller.userId;
  const content = input.content;
  const message = await withTransaction(async (tx) => {
    const [locked] = rowsOf<{ seq: number | string; at: string | Date; is_group: boolean; dm_key: string | null; name: string | null }>(
      await tx.execute(buildSendLockStatement(input.id, me, now())),
    );
    if (!locked) {
      await requireChat(tx, input.id);
      throw new AppError('NOT_CHAT_MEMBER', 'You are not a member of this chat', { chatId: input.id });
    }
    const seq = Number(locked.seq);
    const at = new Date(locked.at);
    const otherId = locked.is_group ? null : (locked.dm_key!.split(':').find((x) => x !== me) ?? null);
    const [ctx] = rowsOf<TContext>(await tx.execute(buildSendContextStatement({ chatId: input.id, senderId: me, seq, at, otherId })));
    const recent = parsed(ctx!.recent).map((m) => ({ content: m.content, at: new Date(m.at).getTime() }));
    if (recent[0] && recent[0].content === content && at.getTime() - recent[0].at < DUPLICATE_WINDOW_MS) {
      throw new AppError('DUPLICATE_MESSAGE', 'You just sent that message', { chatId: input.id });
    }
    const inWindow = recent.filter((m) => at.getTime() - m.at < FLOOD_WINDOW_MS);
    if (inWindow.length >= FLOOD_LIMIT) {
      const retryAt = new Date(inWindow.at(-1)!.at + FLOOD_WINDOW_MS);
      throw new AppError('MESSAGE_FLOOD', 'Too many messages in a few seconds: slow down', { chatId: input.id, retryAt: retryAt.toISOString() });
    }
    if (ctx!.blocked) throw new AppError('USER_BLOCKED', 'You cannot message this user: one of you has blocked the other', { userId: otherId });
    const messageId = crypto.randomUUID();
    await tx.execute(buildSendWriteStatement({ messageId, chatId: input.id, senderId: me, content, seq, at, otherId }));
    const fresh = parsed(ctx!.fresh);
    if (!ctx!.is_community && fresh.length) {
      const who = `@${ctx!.username}`;
      await notify(
        tx,
        fresh.map((userId) => ({
          userId,
          type: 'system' as const,
          actorId: me,
          title: locked.is_group ? `New message in ${locked.name ?? 'a group chat'}` : `New message from ${who}`,
          message: preview(`${locked.is_group ? `${who}: ` : ''}${content}`),
        })),
      );
    }
    return {
      id: messageId,
      chatId: input.id,
      senderId: me,
      sender: userSummaryOfRow(me, ctx!, { reputation: false }),
      content,
      createdAt: at.toISOString(),
    };
  });
  return { message };
}
