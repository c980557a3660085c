/**
 * Chats and groups through the real handlers: direct chats (one per pair, also when both ask at
 * once), group chats and their invitations (nothing of the chat reaches an invitee before they
 * accept; answered once), messages with their keyset cursor, unread counts, the quality checks,
 * leaving, blocks, and live delivery on `chat:{chatId}` to members only (a member who leaves
 * stops receiving, on an open stream too). Groups: discovery, joining open and invite-only
 * groups, invites answered once, leaving.
 */
import { and, eq, sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { POST as acceptInvitationRoute } from '@/app/api/chats/[id]/invitation/accept/route';
import { POST as declineInvitationRoute } from '@/app/api/chats/[id]/invitation/decline/route';
import { GET as getChatRoute } from '@/app/api/chats/[id]/route';
import { POST as sendRoute } from '@/app/api/chats/[id]/message/route';
import { DELETE as leaveRoute } from '@/app/api/chats/[id]/participants/me/route';
import { DELETE as leaveVariantRoute } from '@/app/api/chats/[id]/participants/route';
import { POST as dmRoute } from '@/app/api/chats/dm/route';
import { GET as listChatsRoute, POST as createChatRoute } from '@/app/api/chats/route';
import { GET as unreadRoute } from '@/app/api/chats/unread-count/route';
import { DELETE as leaveGroupRoute, POST as joinGroupRoute } from '@/app/api/groups/[groupId]/members/route';
import { GET as getGroupRoute } from '@/app/api/groups/[groupId]/route';
import { POST as acceptRoute } from '@/app/api/groups/invites/[inviteId]/accept/route';
import { POST as declineRoute } from '@/app/api/groups/invites/[inviteId]/decline/route';
import { GET as invitesRoute } from '@/app/api/groups/invites/route';
import { GET as groupsRoute } from '@/app/api/groups/route';
import { GET as sseRoute } from '@/app/api/sse/events/route';
import { GET as myGroupsRoute } from '@/app/api/user-groups/route';
import { POST as blockRoute } from '@/app/api/users/[userId]/block/route';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { chatMessages, chatParticipants, chats, groupMembers, groups, notifications, type TUserRow } from '@/db/schema';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { inviteToGroup } from '@/lib/groups/service/membership';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { ensureRealtime } from '@/lib/realtime';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';
import { DELIVERY_WAIT, readFrames, type TFrame } from '@/test/sse';

beforeAll(async () => {
  await seedWorld(await getDb());
});
beforeEach(() => setLimiter(createMemoryLimiter()));
afterEach(() => resetClock());

const as = async (u: TUserRow | null) => (u ? { token: await tokenFor(u) } : {});
const dm = async (me: TUserRow, participantId: string) => call(dmRoute, '/api/chats/dm', { method: 'POST', ...(await as(me)), body: { participantId } });
const send = async (me: TUserRow, id: string, content: string) =>
  call(sendRoute, `/api/chats/${id}/message`, { method: 'POST', ...(await as(me)), params: { id }, body: { content } });
const open = async (me: TUserRow | null, id: string, query: Record<string, string> = {}) =>
  call(getChatRoute, `/api/chats/${id}?${new URLSearchParams(query)}`, { ...(await as(me)), params: { id } });
const unread = async (me: TUserRow) => call(unreadRoute, '/api/chats/unread-count', await as(me));
const block = async (me: TUserRow, userId: string, action: 'block' | 'unblock') =>
  call(blockRoute, `/api/users/${userId}/block`, { method: 'POST', ...(await as(me)), params: { userId }, body: { action } });
const createGroupChat = async (me: TUserRow, participantIds: string[], name?: string) =>
  call(createChatRoute, '/api/chats', { method: 'POST', ...(await as(me)), body: { ...(name ? { name } : {}), isGroup: true, participantIds } });
const accept = async (me: TUserRow | null, id: string) =>
  call(acceptInvitationRoute, `/api/chats/${id}/invitation/accept`, { method: 'POST', ...(await as(me)), params: { id } });
const decline = async (me: TUserRow | null, id: string) =>
  call(declineInvitationRoute, `/api/chats/${id}/invitation/decline`, { method: 'POST', ...(await as(me)), params: { id } });
/** A group chat of `owner` whose invitees all accepted: every one of them a member. */
const groupChatOfMembers = async (owner: TUserRow, others: TUserRow[]) => {
  const id = (await createGroupChat(owner, others.map((u) => u.id))).body.chat.id as string;
  for (const u of others) expect((await accept(u, id)).status).toBe(200);
  return id;
};

describe('direct chats', () => {
  it('opens one chat per pair, returns it again, and refuses oneself, unknown users and no token', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const first = await dm(a, b.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, created: true, chat: { isGroup: false, name: `@${b.username}`, otherUser: { id: b.id }, participantCount: 2, unreadCount: 0, lastMessage: null } });
    const again = await dm(b, a.id);
    expect(again.body).toMatchObject({ created: false, chat: { id: first.body.chat.id, name: `@${a.username}` } });
    expect((await dm(a, a.id)).body.error.code).toBe('CANNOT_TARGET_SELF');
    expect((await dm(a, 'no-such-user')).status).toBe(404);
    expect((await call(dmRoute, '/api/chats/dm', { method: 'POST', body: { participantId: b.id } })).status).toBe(401);
    expect((await dm(a, '')).status).toBe(400);
  });

  it('gives one chat when both ask at once', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? dm(a, b.id) : dm(b, a.id))));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((r) => r.body.chat.id)).size).toBe(1);
    expect(answers.filter((r) => r.body.created)).toHaveLength(1);
    const rows = await (await getDb()).select().from(chats).where(eq(chats.dmKey, [a.id, b.id].sort().join(':')));
    expect(rows).toHaveLength(1);
  });

  it('sends, lists newest activity first with the last message and unread count, pages by cursor, and marks read on opening', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const c = await seedUser();
    const ab = (await dm(a, b.id)).body.chat.id as string;
    const ac = (await dm(a, c.id)).body.chat.id as string;
    for (let i = 1; i <= 5; i++) {
      setFixedTime(new Date(Date.UTC(2030, 0, 1, 0, 0, i * 20)));
      const r = await send(b, ab, `message ${i}`);
      expect(r.status).toBe(201);
      expect(r.body.message).toMatchObject({ chatId: ab, senderId: b.id, content: `message ${i}`, sender: { username: b.username } });
    }
    setFixedTime(new Date(Date.UTC(2030, 0, 1, 0, 5)));
    await send(c, ac, 'hello from c');

    const list = await call(listChatsRoute, '/api/chats', await as(a));
    expect(list.body.chats.map((x: { id: string }) => x.id)).toEqual([ac, ab]);
    expect(list.body.chats[1]).toMatchObject({ unreadCount: 5, lastMessage: { content: 'message 5' } });
    expect((await unread(a)).body).toEqual({ success: true, total: 6, chats: expect.arrayContaining([{ chatId: ab, unreadCount: 5 }, { chatId: ac, unreadCount: 1 }]) });

    const page1 = await open(a, ab, { limit: '2' });
    expect(page1.status).toBe(200);
    expect(page1.body.messages.map((m: { content: string }) => m.content)).toEqual(['message 5', 'message 4']);
    // The chat as it was when opened (5 unread); opening marked them read.
    expect(page1.body).toMatchObject({ hasMore: true, chat: { unreadCount: 5 } });
    expect((await unread(a)).body.chats).toEqual([{ chatId: ac, unreadCount: 1 }]);
    // A message arriving between pages does not shift the next page.
    await send(b, ab, 'message 6');
    const page2 = await open(a, ab, { limit: '2', cursor: page1.body.nextCursor });
    expect(page2.body.messages.map((m: { content: string }) => m.content)).toEqual(['message 3', 'message 2']);
    const page3 = await open(a, ab, { limit: '2', cursor: page2.body.nextCursor });
    expect(page3.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(page3.body.messages.map((m: { content: string }) => m.content)).toEqual(['message 1']);
    expect((await unread(a)).body.chats).toEqual([{ chatId: ab, unreadCount: 1 }, { chatId: ac, unreadCount: 1 }].sort((x, y) => x.chatId.localeCompare(y.chatId)));
    expect((await open(a, ab, { cursor: 'bad' })).body.error.code).toBe('INVALID_PARAMETER');
    expect((await open(a, ab, { limit: '0' })).status).toBe(400);
  });

  it('is for members only: others get 403, unknown chats 404', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const stranger = await seedUser();
    const id = (await dm(a, b.id)).body.chat.id as string;
    expect((await open(stranger, id)).body.error.code).toBe('NOT_CHAT_MEMBER');
    expect((await open(stranger, id)).status).toBe(403);
    expect((await send(stranger, id, 'let me in')).status).toBe(403);
    expect((await open(a, 'no-such-chat')).status).toBe(404);
    expect((await open(null, id)).status).toBe(401);
  });

  it('refuses empty, too long, repeated and flooding messages with clear codes', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const id = (await dm(a, b.id)).body.chat.id as string;
    expect((await send(a, id, '   ')).status).toBe(400);
    expect((await send(a, id, 'x'.repeat(2001))).status).toBe(400);
    expect((await send(a, id, 'x'.repeat(2000))).status).toBe(201);
    setFixedTime(new Date(Date.UTC(2030, 0, 2)));
    expect((await send(a, id, 'same again')).status).toBe(201);
    const dup = await send(a, id, 'same again');
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('DUPLICATE_MESSAGE');
    setFixedTime(new Date(Date.UTC(2030, 0, 2, 0, 1, 1)));
    expect((await send(a, id, 'same again')).status).toBe(201);
    // A burst: 8 in 10 seconds pass, the 9th is a flood.
    for (let i = 0; i < 7; i++) expect((await send(a, id, `burst ${i}`)).status).toBe(201);
    const flood = await send(a, id, 'burst 8');
    expect(flood.status).toBe(429);
    expect(flood.body.error.code).toBe('MESSAGE_FLOOD');
    setFixedTime(new Date(Date.UTC(2030, 0, 2, 0, 1, 12)));
    expect((await send(a, id, 'calm now')).status).toBe(201);
    // Refused sends stored nothing.
    const rows = await (await getDb()).select().from(chatMessages).where(eq(chatMessages.chatId, id));
    // Refused sends took no seq: the stored ones are numbered 1..n without a gap.
    expect(rows.map((r) => Number(r.seq)).sort((x, y) => x - y)).toEqual(rows.map((_, i) => i + 1));
    expect(new Set(rows.map((r) => r.seq)).size).toBe(rows.length);
    expect(rows.filter((r) => r.content === 'same again')).toHaveLength(2);
  });

  it('refuses a DM and its messages across a block, either way, and allows them again after unblocking', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const id = (await dm(a, b.id)).body.chat.id as string;
    expect((await block(b, a.id, 'block')).status).toBe(200);
    expect((await dm(a, b.id)).body.error.code).toBe('USER_BLOCKED');
    expect((await send(a, id, 'are you there?')).body.error.code).toBe('USER_BLOCKED');
    expect((await send(b, id, 'I am not talking to you')).status).toBe(403);
    expect((await block(b, a.id, 'unblock')).status).toBe(200);
    expect((await send(a, id, 'are you there?')).status).toBe(201);
  });

  it('leaving keeps the chat for the other, who can write and bring the leaver back with the history', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const id = (await dm(a, b.id)).body.chat.id as string;
    await send(a, id, 'before leaving');
    const left = await call(leaveRoute, `/api/chats/${id}/participants/me`, { method: 'DELETE', ...(await as(b)), params: { id } });
    expect(left.body).toEqual({ success: true, chatId: id, left: true });
    expect((await open(b, id)).status).toBe(403);
    expect((await call(leaveVariantRoute, `/api/chats/${id}/participants`, { method: 'DELETE', ...(await as(b)), params: { id } })).status).toBe(403);
    expect((await call(listChatsRoute, '/api/chats', await as(b))).body.chats).toEqual([]);
    // The other still sees the chat and who it was with.
    const aList = await call(listChatsRoute, '/api/chats', await as(a));
    expect(aList.body.chats[0]).toMatchObject({ id, participantCount: 1, otherUser: { id: b.id }, name: `@${b.username}` });
    // Reopening brings the history back.
    const reopened = await dm(b, a.id);
    expect(reopened.body).toMatchObject({ created: false, chat: { id } });
    expect((await open(b, id)).body.messages.map((m: { content: string }) => m.content)).toEqual(['before leaving']);
    // The variant route leaves too.
    expect((await call(leaveVariantRoute, `/api/chats/${id}/participants`, { method: 'DELETE', ...(await as(a)), params: { id } })).status).toBe(200);
    // A message from the one who stayed brings the leaver back.
    await send(b, id, 'come back');
    expect((await open(a, id)).status).toBe(200);
  });

  it('notifies the other side once per unread stretch', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const id = (await dm(a, b.id)).body.chat.id as string;
    await send(a, id, 'one');
    await send(a, id, 'two');
    const db = await getDb();
    const mine = async () => db.select().from(notifications).where(eq(notifications.userId, b.id));
    expect(await mine()).toHaveLength(1);
    expect((await mine())[0]).toMatchObject({ type: 'system', actorId: a.id, title: `New message from @${a.username}`, message: 'one' });
    await open(b, id);
    await send(a, id, 'three');
    expect(await mine()).toHaveLength(2);
  });
});

describe('group chats', () => {
  it('creates a group chat with the creator as owner, and refuses unknown people, oneself and blocked people', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const c = await seedUser();
    const res = await call(createChatRoute, '/api/chats', { method: 'POST', ...(await as(a)), body: { name: 'Desk', isGroup: true, participantIds: [b.id, c.id] } });
    expect(res.status).toBe(201);
    expect(res.body.chat).toMatchObject({ name: 'Desk', isGroup: true, participantCount: 3, membership: 'member', invitedBy: null });
    const byId = new Map(res.body.chat.participants.map((p: { id: string }) => [p.id, p]));
    expect(byId.get(a.id)).toMatchObject({ role: 'owner', membership: 'member' });
    // The others are invited, not added.
    expect(byId.get(b.id)).toMatchObject({ role: 'member', membership: 'invited' });
    expect(byId.get(c.id)).toMatchObject({ role: 'member', membership: 'invited' });
    const create = async (body: Record<string, unknown>) => call(createChatRoute, '/api/chats', { method: 'POST', ...(await as(a)), body });
    expect((await create({ isGroup: true, participantIds: ['ghost'] })).status).toBe(404);
    expect((await create({ isGroup: true, participantIds: [a.id] })).body.error.code).toBe('CANNOT_TARGET_SELF');
    expect((await create({ isGroup: true, participantIds: [] })).status).toBe(400);
    await block(c, a.id, 'block');
    expect((await create({ isGroup: true, participantIds: [b.id, c.id] })).body.error.code).toBe('USER_BLOCKED');
    // isGroup false with one participant is the direct chat.
    const direct = await create({ isGroup: false, participantIds: [b.id] });
    expect(direct.body.chat).toMatchObject({ isGroup: false, otherUser: { id: b.id } });
  });

  it('hides a blocked member’s messages from the blocker, and keeps the order of parallel sends by seq', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const c = await seedUser();
    const id = await groupChatOfMembers(a, [b, c]);
    await Promise.all(Array.from({ length: 10 }, (_, i) => send([a, b, c][i % 3]!, id, `parallel ${i}`)));
    const rows = await (await getDb()).select().from(chatMessages).where(eq(chatMessages.chatId, id));
    expect(rows.map((r) => Number(r.seq)).sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    // Later seq, never an earlier time.
    const bySeq = [...rows].sort((x, y) => Number(x.seq) - Number(y.seq));
    for (let i = 1; i < bySeq.length; i++) expect(bySeq[i]!.createdAt.getTime()).toBeGreaterThanOrEqual(bySeq[i - 1]!.createdAt.getTime());
    await block(a, c.id, 'block');
    const seen = (await open(a, id, { limit: '50' })).body.messages as { senderId: string }[];
    expect(seen.some((m) => m.senderId === c.id)).toBe(false);
    expect(seen.length).toBeGreaterThan(0);
  });
});

describe('group chat invitations', () => {
  const participantRow = async (chatId: string, userId: string) =>
    (await (await getDb()).select().from(chatParticipants).where(and(eq(chatParticipants.chatId, chatId), eq(chatParticipants.userId, userId))))[0];
  const notificationsOf = async (userId: string) => (await getDb()).select().from(notifications).where(eq(notifications.userId, userId));

  it('an invitee sees the invitation in their list and nothing of the chat: no preview, unread count, read, send or notification', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const c = await seedUser();
    setFixedTime(new Date(Date.UTC(2030, 1, 1, 9)));
    const id = (await createGroupChat(a, [b.id, c.id], 'Desk')).body.chat.id as string;
    const invitedAt = new Date(Date.UTC(2030, 1, 1, 9)).toISOString();
    await accept(c, id);
    setFixedTime(new Date(Date.UTC(2030, 1, 1, 10)));
    expect((await send(a, id, 'secret plan')).status).toBe(201);
    expect((await send(c, id, 'count me in')).status).toBe(201);

    const list = await call(listChatsRoute, '/api/chats', await as(b));
    expect(list.body.total).toBe(1);
    expect(list.body.chats).toHaveLength(1);
    expect(list.body.chats[0]).toMatchObject({ id, name: 'Desk', isGroup: true, membership: 'invited', invitedBy: { id: a.id }, lastMessage: null, unreadCount: 0, lastActivityAt: invitedAt });
    expect(JSON.stringify(list.body)).not.toMatch(/secret plan|count me in/);
    expect((await unread(b)).body).toEqual({ success: true, total: 0, chats: [] });
    const read = await open(b, id);
    expect(read.status).toBe(403);
    expect(read.body.error).toMatchObject({ code: 'NOT_CHAT_MEMBER', details: { chatId: id, invitation: true } });
    expect((await open(b, id, { cursor: 'c2VxOjEw' })).status).toBe(403);
    expect((await send(b, id, 'hello?')).body.error.code).toBe('NOT_CHAT_MEMBER');
    expect(await notificationsOf(b.id)).toEqual([]);
    // The members read and are notified as before: c (accepted) got a's message, a got c's.
    expect((await notificationsOf(c.id)).map((n) => n.message)).toEqual([`@${a.username}: secret plan`]);
    expect((await notificationsOf(a.id)).map((n) => n.message)).toEqual([`@${c.username}: count me in`]);
    expect((await open(c, id)).body.messages.map((m: { content: string }) => m.content)).toEqual(['count me in', 'secret plan']);
    const aView = (await call(listChatsRoute, '/api/chats', await as(a))).body.chats[0];
    expect(aView).toMatchObject({ id, membership: 'member', invitedBy: null, lastMessage: { content: 'count me in' }, unreadCount: 1 });
    expect(aView.participants.map((p: { id: string; membership: string }) => [p.id, p.membership]).sort()).toEqual(
      [
        [a.id, 'member'],
        [b.id, 'invited'],
        [c.id, 'member'],
      ].sort(),
    );
    // Nothing was written for b: still invited, no read mark moved.
    expect(await participantRow(id, b.id)).toMatchObject({ status: 'invited', lastReadSeq: 0 });
  });

  it('after accepting, the invitee reads the history, nothing of it unread, and later messages notify them and count', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const id = (await createGroupChat(a, [b.id])).body.chat.id as string;
    await send(a, id, 'before you came');
    const accepted = await accept(b, id);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ success: true, chatId: id, chat: { id, membership: 'member', invitedBy: null, unreadCount: 0, lastMessage: { content: 'before you came' } } });
    expect(await participantRow(id, b.id)).toMatchObject({ status: 'member', lastReadSeq: 1 });
    expect((await open(b, id)).body.messages.map((m: { content: string }) => m.content)).toEqual(['before you came']);
    expect(await notificationsOf(b.id)).toEqual([]);
    await send(a, id, 'welcome');
    expect((await notificationsOf(b.id)).map((n) => n.message)).toEqual([`@${a.username}: welcome`]);
    expect((await unread(b)).body).toEqual({ success: true, total: 1, chats: [{ chatId: id, unreadCount: 1 }] });
    expect((await send(b, id, 'thanks')).status).toBe(201);
  });

  it('declining removes the invitee: the chat leaves their list and they can neither read nor accept it afterwards', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const c = await seedUser();
    const id = (await createGroupChat(a, [b.id, c.id])).body.chat.id as string;
    const declined = await decline(b, id);
    expect(declined.status).toBe(200);
    expect(declined.body).toEqual({ success: true, chatId: id, declined: true });
    expect(await participantRow(id, b.id)).toBeUndefined();
    expect((await call(listChatsRoute, '/api/chats', await as(b))).body).toMatchObject({ chats: [], total: 0 });
    expect((await open(b, id)).body.error).toMatchObject({ code: 'NOT_CHAT_MEMBER', details: { chatId: id } });
    expect((await accept(b, id)).body.error.code).toBe('INVITE_NOT_FOUND');
    expect((await decline(b, id)).status).toBe(404);
    await send(a, id, 'after b declined');
    expect(await notificationsOf(b.id)).toEqual([]);
    // The others are unaffected: c is still invited, a sees who is left.
    expect(await participantRow(id, c.id)).toMatchObject({ status: 'invited' });
    expect((await open(a, id)).body.chat.participants.map((p: { id: string }) => p.id).sort()).toEqual([a.id, c.id].sort());
  });

  it('is answered once, by the invitee only', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const stranger = await seedUser();
    const id = (await createGroupChat(a, [b.id])).body.chat.id as string;
    expect((await accept(stranger, id)).body.error.code).toBe('INVITE_NOT_FOUND');
    expect((await decline(stranger, id)).body.error.code).toBe('INVITE_NOT_FOUND');
    expect((await accept(b, 'no-such-chat')).body.error.code).toBe('CHAT_NOT_FOUND');
    expect((await accept(null, id)).status).toBe(401);
    expect(await participantRow(id, b.id)).toMatchObject({ status: 'invited' });
    // Accepted once, even when asked in parallel.
    const answers = await Promise.all(Array.from({ length: 4 }, () => accept(b, id)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409).map((r) => r.body.error.code)).toEqual(Array(3).fill('INVITE_ALREADY_ANSWERED'));
    expect(await participantRow(id, b.id)).toMatchObject({ status: 'member' });
    // A decline after it is refused and removes nothing.
    expect((await decline(b, id)).status).toBe(409);
    expect(await participantRow(id, b.id)).toMatchObject({ status: 'member' });
    expect((await accept(a, id)).body.error.code).toBe('INVITE_ALREADY_ANSWERED');
  });

  it('an invitee who blocked the creator since cannot accept; direct chats have no invitation', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const id = (await createGroupChat(a, [b.id])).body.chat.id as string;
    await block(b, a.id, 'block');
    expect((await accept(b, id)).body.error.code).toBe('USER_BLOCKED');
    expect(await participantRow(id, b.id)).toMatchObject({ status: 'invited' });
    const c = await seedUser();
    const direct = await dm(a, c.id);
    expect(direct.body.chat).toMatchObject({ membership: 'member', invitedBy: null });
    expect(direct.body.chat.participants.every((p: { membership: string }) => p.membership === 'member')).toBe(true);
    expect((await accept(c, direct.body.chat.id)).body.error.code).toBe('INVITE_ALREADY_ANSWERED');
  });
});

// Live delivery.

const streams: { close: () => Promise<unknown> }[] = [];

const openStream = async (u: TUserRow | null, channels: string) => {
  const url = new URL(`http://localhost:3000/api/sse/events?channels=${encodeURIComponent(channels)}`);
  const headers = new Headers({ host: 'localhost:3000', 'x-client-socket-address': '203.0.113.7' });
  if (u) headers.set('authorization', `Bearer ${await tokenFor(u)}`);
  const res = await sseRoute(new NextRequest(url, { headers }), { params: Promise.resolve({}) });
  if (res.status !== 200) return { status: res.status, body: await res.json(), frames: [] as TFrame[], messages: () => [] as any[], close: async () => {} };
  const { frames, close } = readFrames(res.body!);
  const s = {
    status: 200,
    body: null,
    frames,
    messages: () => frames.filter((f) => f.event === 'chat_message').map((f) => f.data),
    close,
  };
  streams.push(s);
  return s;
};

describe('live delivery on chat:{chatId}', () => {
  beforeAll(async () => {
    await ensureRealtime();
  });
  afterEach(async () => {
    await Promise.all(streams.splice(0).map((s) => s.close()));
  });

  it('delivers chat_message with exactly the specification’s fields to members; anonymous is 401, non-members 403', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const stranger = await seedUser();
    const id = (await dm(a, b.id)).body.chat.id as string;
    const anon = await openStream(null, `chat:${id}`);
    expect(anon.status).toBe(401);
    const other = await openStream(stranger, `chat:${id}`);
    expect(other.status).toBe(403);
    const live = await openStream(b, `chat:${id}`);
    await vi.waitFor(() => expect(live.frames.length).toBeGreaterThanOrEqual(1), DELIVERY_WAIT);
    const sent = await send(a, id, 'live hello');
    await vi.waitFor(() => expect(live.messages()).toHaveLength(1), DELIVERY_WAIT);
    const m = live.messages()[0];
    expect(m.type).toBe('chat_message');
    expect(Object.keys(m.data).sort()).toEqual(['chatId', 'content', 'messageId', 'senderId', 'timestamp']);
    expect(m.data).toMatchObject({ chatId: id, messageId: sent.body.message.id, senderId: a.id, content: 'live hello' });
  });

  it('one stream follows several chats (one membership read); naming a chat one is not in refuses the stream', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const c = await seedUser();
    const ab = (await dm(a, b.id)).body.chat.id as string;
    const ac = (await dm(a, c.id)).body.chat.id as string;
    const bc = (await dm(b, c.id)).body.chat.id as string;
    const refused = await openStream(a, `feed,chat:${ab},chat:${bc}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.channels).toEqual([`chat:${bc}`]);
    const both = await openStream(a, `feed,chat:${ab},chat:${ac}`);
    await vi.waitFor(() => expect(both.frames.length).toBeGreaterThanOrEqual(1), DELIVERY_WAIT);
    await send(b, ab, 'from b');
    await send(c, ac, 'from c');
    await vi.waitFor(() => expect(both.messages().map((m) => m.data.content).sort()).toEqual(['from b', 'from c']), DELIVERY_WAIT);
  });

  it('an invitee cannot follow the chat live until they accept', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const id = (await createGroupChat(a, [b.id])).body.chat.id as string;
    const early = await openStream(b, `chat:${id}`);
    expect(early.status).toBe(403);
    expect(early.body.error.details.channels).toEqual([`chat:${id}`]);
    expect((await accept(b, id)).status).toBe(200);
    const live = await openStream(b, `chat:${id}`);
    expect(live.status).toBe(200);
    await vi.waitFor(() => expect(live.frames.length).toBeGreaterThanOrEqual(1), DELIVERY_WAIT);
    await send(a, id, 'now you hear me');
    await vi.waitFor(() => expect(live.messages().map((m) => m.data.content)).toEqual(['now you hear me']), DELIVERY_WAIT);
  });

  it('a member who leaves stops receiving on the open stream; group chat streams skip a blocked sender', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const c = await seedUser();
    const id = await groupChatOfMembers(a, [b, c]);
    const bStream = await openStream(b, `chat:${id}`);
    const cStream = await openStream(c, `chat:${id}`);
    await vi.waitFor(() => expect(bStream.frames.length + cStream.frames.length).toBeGreaterThanOrEqual(2), DELIVERY_WAIT);
    await send(a, id, 'first');
    await vi.waitFor(() => expect(bStream.messages()).toHaveLength(1), DELIVERY_WAIT);
    expect((await call(leaveRoute, `/api/chats/${id}/participants/me`, { method: 'DELETE', ...(await as(b)), params: { id } })).status).toBe(200);
    await block(c, a.id, 'block');
    await send(a, id, 'second');
    await send(c, id, 'third');
    await vi.waitFor(() => expect(cStream.messages().map((m) => m.data.content)).toEqual(['first', 'third']), DELIVERY_WAIT);
    // b's stream got nothing after leaving, although it is still open.
    await new Promise((r) => setTimeout(r, 200));
    expect(bStream.messages().map((m) => m.data.content)).toEqual(['first']);
  });
});

describe('groups', () => {
  const groupIdOf = async (visibility: 'open' | 'invite') => {
    const [g] = await (await getDb()).select().from(groups).where(eq(groups.visibility, visibility)).orderBy(groups.id).limit(1);
    return g!;
  };

  it('lists the seeded groups with member counts, and the caller’s own', async () => {
    const u = await seedUser();
    const res = await call(groupsRoute, '/api/groups?limit=100');
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThanOrEqual(12);
    expect(res.body.groups[0]).toMatchObject({ memberCount: expect.any(Number), isMember: false, owner: { isActor: true } });
    const counts = await (await getDb()).execute(sql`select g.id, g.member_count, (select count(*) from group_members m where m.group_id = g.id) as n from groups g`);
    for (const r of rowsOf<{ member_count: number; n: string }>(counts)) expect(Number(r.n)).toBe(Number(r.member_count));
    const search = await call(groupsRoute, '/api/groups?search=Calibration');
    expect(search.body.groups.map((g: { name: string }) => g.name)).toEqual(['Calibration Club']);
    expect((await call(myGroupsRoute, '/api/user-groups', await as(u))).body).toEqual({ success: true, groups: [], total: 0 });
    expect((await call(myGroupsRoute, '/api/user-groups')).status).toBe(401);
  });

  it('joins an open group and its chat, refuses a second join, shows messages to members only, and leaves both', async () => {
    const u = await seedUser();
    const g = await groupIdOf('open');
    const params = { groupId: g.id };
    const joined = await call(joinGroupRoute, `/api/groups/${g.id}/members`, { method: 'POST', ...(await as(u)), params });
    expect(joined.status).toBe(200);
    expect(joined.body.group).toMatchObject({ id: g.id, isMember: true, memberCount: g.memberCount + 1 });
    expect((await call(joinGroupRoute, `/api/groups/${g.id}/members`, { method: 'POST', ...(await as(u)), params })).body.error.code).toBe('ALREADY_MEMBER');
    expect((await send(u, g.chatId, 'hello group')).status).toBe(201);
    const detail = await call(getGroupRoute, `/api/groups/${g.id}`, { ...(await as(u)), params });
    expect(detail.body.recentMessages.map((m: { content: string }) => m.content)).toContain('hello group');
    expect(detail.body.members[0].role).toBe('owner');
    const outsider = await call(getGroupRoute, `/api/groups/${g.id}`, { params });
    expect(outsider.body.recentMessages).toEqual([]);
    expect((await call(myGroupsRoute, '/api/user-groups', await as(u))).body.groups.map((x: { id: string }) => x.id)).toEqual([g.id]);
    // A group's chat is left by leaving the group.
    expect((await call(leaveRoute, `/api/chats/${g.chatId}/participants/me`, { method: 'DELETE', ...(await as(u)), params: { id: g.chatId } })).status).toBe(403);
    const left = await call(leaveGroupRoute, `/api/groups/${g.id}/members`, { method: 'DELETE', ...(await as(u)), params });
    expect(left.body).toEqual({ success: true, groupId: g.id, left: true });
    expect((await open(u, g.chatId)).status).toBe(403);
    expect((await call(leaveGroupRoute, `/api/groups/${g.id}/members`, { method: 'DELETE', ...(await as(u)), params })).body.error.code).toBe('NOT_GROUP_MEMBER');
    expect((await call(getGroupRoute, '/api/groups/nope', { params: { groupId: 'nope' } })).status).toBe(404);
  });

  it('an invite-only group needs an invite; an invite is answered once, by its invitee only', async () => {
    const u = await seedUser();
    const other = await seedUser();
    const g = await groupIdOf('invite');
    const params = { groupId: g.id };
    const refused = await call(joinGroupRoute, `/api/groups/${g.id}/members`, { method: 'POST', ...(await as(u)), params });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INVITE_REQUIRED');
    const written = await withTransaction((tx) => inviteToGroup(tx, { groupId: g.id, userId: u.id, invitedBy: g.ownerId, reason: 'You follow the S tier closely' }));
    expect(written).toBe(true);
    expect(await withTransaction((tx) => inviteToGroup(tx, { groupId: g.id, userId: u.id, invitedBy: g.ownerId, reason: 'again' }))).toBe(false);
    const invites = await call(invitesRoute, '/api/groups/invites', await as(u));
    expect(invites.body.invites).toHaveLength(1);
    const invite = invites.body.invites[0];
    expect(invite).toMatchObject({ status: 'pending', group: { id: g.id, hasPendingInvite: true }, invitedBy: { id: g.ownerId } });
    const inviteId = invite.id as string;
    expect((await call(acceptRoute, `/api/groups/invites/${inviteId}/accept`, { method: 'POST', ...(await as(other)), params: { inviteId } })).body.error.code).toBe('INVITE_NOT_FOUND');
    // Accepted once, even when asked in parallel.
    const answers = await Promise.all(Array.from({ length: 4 }, async () => call(acceptRoute, `/api/groups/invites/${inviteId}/accept`, { method: 'POST', ...(await as(u)), params: { inviteId } })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409).map((r) => r.body.error.code)).toEqual(Array(3).fill('INVITE_ALREADY_ANSWERED'));
    expect(answers.find((r) => r.status === 200)!.body.invite).toMatchObject({ status: 'accepted', group: { isMember: true } });
    expect((await call(declineRoute, `/api/groups/invites/${inviteId}/decline`, { method: 'POST', ...(await as(u)), params: { inviteId } })).status).toBe(409);
    const members = await (await getDb()).select().from(groupMembers).where(and(eq(groupMembers.groupId, g.id), eq(groupMembers.userId, u.id)));
    expect(members).toHaveLength(1);
    expect((await send(u, g.chatId, 'thanks for the invite')).status).toBe(201);
    expect((await call(invitesRoute, '/api/groups/invites', await as(u))).body.invites).toEqual([]);
  });

  it('a declined invite is not sent again', async () => {
    const u = await seedUser();
    const g = await groupIdOf('invite');
    await withTransaction((tx) => inviteToGroup(tx, { groupId: g.id, userId: u.id, invitedBy: g.ownerId, reason: 'fits' }));
    const inviteId = (await call(invitesRoute, '/api/groups/invites', await as(u))).body.invites[0].id as string;
    const declined = await call(declineRoute, `/api/groups/invites/${inviteId}/decline`, { method: 'POST', ...(await as(u)), params: { inviteId } });
    expect(declined.body.invite).toMatchObject({ status: 'declined', group: { isMember: false } });
    expect(await withTransaction((tx) => inviteToGroup(tx, { groupId: g.id, userId: u.id, invitedBy: g.ownerId, reason: 'again' }))).toBe(false);
    expect((await call(invitesRoute, '/api/groups/invites', await as(u))).body.invites).toEqual([]);
  });
});

describe('the tick keeps groups alive', () => {
  it('invites a player who traded a ticker this week to its group once, and NPC members talk in the chats', async () => {
    const { runGroupStep, resetGroupInviteSchedule } = await import('@/lib/game/steps/groups');
    const { createRng } = await import('@/lib/game/rng');
    const db = await getDb();
    const trader = await seedUser({ balance: '1000' });
    const [org] = rowsOf<{ id: string; ticker: string }>(await db.execute(sql`select id, ticker from organizations order by ticker limit 1`));
    await db.execute(sql`
      insert into perp_positions (id, user_id, ticker, side, size, units, leverage, entry_price, margin, collateral, open_fee, liquidation_price, status, opened_at, updated_at)
      select ${crypto.randomUUID()}, ${trader.id}, ${org!.ticker}, 'long', 100, 10, 2, 10, 50, 50, 0.1, 5, 'closed', now(), now()`);
    resetGroupInviteSchedule();
    const ctx = (seed: string) => ({ at: new Date(), rng: createRng(seed), deadline: performance.now() + 10_000, newEvents: [] });
    const first = await runGroupStep(ctx('groups-a'));
    expect(first.invites).toBeGreaterThanOrEqual(1);
    const invites = await call(invitesRoute, '/api/groups/invites', await as(trader));
    expect(invites.body.invites.map((i: { group: { organization: { ticker: string } | null }; reason: string }) => [i.group.organization?.ticker, i.reason])).toEqual([
      [org!.ticker, `You traded $${org!.ticker} this week`],
    ]);
    // Within the hour nobody is invited again; after it, the same player is not invited twice.
    expect((await runGroupStep(ctx('groups-b'))).invites).toBe(0);
    resetGroupInviteSchedule();
    await runGroupStep(ctx('groups-c'));
    expect((await call(invitesRoute, '/api/groups/invites', await as(trader))).body.invites).toHaveLength(1);
    // Over enough ticks NPC members speak in group chats (a real message through the chat service).
    let spoken = 0;
    for (let i = 0; i < 20; i++) spoken += (await runGroupStep(ctx(`chatter-${i}`))).messages;
    expect(spoken).toBeGreaterThanOrEqual(1);
    const [said] = rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from chat_messages m join users u on u.id = m.sender_id where u.is_actor`));
    expect(Number(said!.n)).toBeGreaterThanOrEqual(spoken);
  });
});
