/**
 * Group chat consent (issue 29, items 4 and 12), against a production server on each database:
 * adding a player to a group chat invites them. Until they accept, the chat is in their list only
 * as an invitation (`membership: "invited"`, no last message, no unread count), reading and
 * sending are refused, and no message reaches them, neither as a notification nor as an unread
 * count; nobody else can accept for them. Once they accept, messages reach them; one who declines
 * is out of the chat and hears nothing more of it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectOk, expectRefused, newPlayer, targets, type TPlayer, type TTarget } from './harness';

type TNotification = { id: string; title: string; message: string };

const notificationsOf = async (t: TTarget, p: TPlayer) => {
  const res = expectOk(await call(t, '/api/notifications?limit=100', { token: p.token }));
  return res.notifications as TNotification[];
};

const mentions = (list: TNotification[], text: string) => list.filter((n) => `${n.title} ${n.message}`.includes(text));

describe.each(targets())('group chat consent ($name)', (t) => {
  let owner: TPlayer;
  let invitee: TPlayer;
  let decliner: TPlayer;
  let stranger: TPlayer;

  beforeAll(async () => {
    owner = await newPlayer(t, 'chat-owner');
    invitee = await newPlayer(t, 'chat-invitee');
    decliner = await newPlayer(t, 'chat-decliner');
    stranger = await newPlayer(t, 'chat-stranger');
  });

  it('makes adding a player an invitation: nothing of the chat reaches them before they accept, and messages do after', async () => {
    const chat = expectOk(
      await call(t, '/api/chats', { token: owner.token, body: { name: 'Spam corner', participantIds: [invitee.id, decliner.id] } }),
      201,
    ).chat;
    const afterInvite = await notificationsOf(t, invitee);
    const unreadBefore = expectOk(await call(t, '/api/chats/unread-count', { token: invitee.token })).total as number;
    for (const text of ['buy my course', 'last chance', 'click here']) {
      expectOk(await call(t, `/api/chats/${chat.id}/message`, { token: owner.token, body: { content: text } }), 201);
    }

    // The invitation is listed as one, without a preview or an unread count.
    const listed = (expectOk(await call(t, '/api/chats', { token: invitee.token })).chats as any[]).find((c) => c.id === chat.id);
    expect(listed, 'the invitation is in the list').toBeDefined();
    expect(listed.membership).toBe('invited');
    expect(listed.lastMessage).toBeNull();
    expect(listed.unreadCount).toBe(0);
    expect(listed.invitedBy?.id).toBe(owner.id);
    // No message reaches them: no unread count, no notification, no reading, no sending.
    const unread = expectOk(await call(t, '/api/chats/unread-count', { token: invitee.token }));
    expect(unread.total).toBe(unreadBefore);
    expect(unread.chats.map((c: { chatId: string }) => c.chatId)).not.toContain(chat.id);
    const notes = await notificationsOf(t, invitee);
    expect(notes.length).toBe(afterInvite.length);
    expect(mentions(notes, 'buy my course')).toEqual([]);
    expectRefused(await call(t, `/api/chats/${chat.id}`, { token: invitee.token }), 403, 'NOT_CHAT_MEMBER');
    const sent = await call(t, `/api/chats/${chat.id}/message`, { token: invitee.token, body: { content: 'hi' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(403);

    // Nobody can answer the invitation for them.
    for (const answer of ['accept', 'decline']) {
      const res = await call(t, `/api/chats/${chat.id}/invitation/${answer}`, { token: stranger.token, body: {} });
      expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const ownerView = expectOk(await call(t, `/api/chats/${chat.id}`, { token: owner.token }));
    expect(ownerView.chat.participants.map((p: { id: string }) => p.id)).not.toContain(stranger.id);
    expect(ownerView.messages.map((m: { senderId: string }) => m.senderId)).not.toContain(invitee.id);

    // Accepted: from now on the chat is theirs and its messages reach them.
    expectOk(await call(t, `/api/chats/${chat.id}/invitation/accept`, { token: invitee.token, body: {} }));
    expectOk(await call(t, `/api/chats/${chat.id}/message`, { token: owner.token, body: { content: 'welcome aboard' } }), 201);
    const read = expectOk(await call(t, `/api/chats/${chat.id}`, { token: invitee.token }));
    expect(read.chat.membership).toBe('member');
    expect(read.messages.map((m: { content: string }) => m.content)).toContain('welcome aboard');
  });

  it('lets an invitee decline: the chat leaves their list and nothing of it reaches them', async () => {
    const chat = expectOk(await call(t, '/api/chats', { token: owner.token, body: { name: 'Second try', participantIds: [decliner.id] } }), 201).chat;
    expectOk(await call(t, `/api/chats/${chat.id}/invitation/decline`, { token: decliner.token, body: {} }));
    const before = await notificationsOf(t, decliner);
    expectOk(await call(t, `/api/chats/${chat.id}/message`, { token: owner.token, body: { content: 'are you sure?' } }), 201);

    const chats = expectOk(await call(t, '/api/chats', { token: decliner.token })).chats as { id: string }[];
    expect(chats.map((c) => c.id)).not.toContain(chat.id);
    expectRefused(await call(t, `/api/chats/${chat.id}`, { token: decliner.token }), 403, 'NOT_CHAT_MEMBER');
    expect((await notificationsOf(t, decliner)).length).toBe(before.length);
    // Answered once: accepting after declining does not let them in.
    const late = await call(t, `/api/chats/${chat.id}/invitation/accept`, { token: decliner.token, body: {} });
    expect(late.status, JSON.stringify(late.body)).toBeGreaterThanOrEqual(400);
    expectRefused(await call(t, `/api/chats/${chat.id}`, { token: decliner.token }), 403, 'NOT_CHAT_MEMBER');
  });
});
