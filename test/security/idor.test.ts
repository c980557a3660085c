/**
 * Another player's objects by id (issue 29, item 12: the attacks that held, kept held), against a
 * production server on each database: a chat one is not in (read, send, leave), another
 * player's wallet (balance and history over REST and A2A), their points (read, and a transfer
 * naming them as the sender), their notifications (list, mark read by id). Every attempt is
 * refused, and the owner reads back the same state as before.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { a2a, adminToken, call, expectOk, expectRefused, newPlayer, targets, type TPlayer } from './harness';

describe.each(targets())('IDOR across chats, wallets, points and notifications ($name)', (t) => {
  let victim: TPlayer;
  let friend: TPlayer;
  let attacker: TPlayer;

  beforeAll(async () => {
    victim = await newPlayer(t, 'idor-victim');
    friend = await newPlayer(t, 'idor-friend');
    attacker = await newPlayer(t, 'idor-attacker');
  });

  it("refuses reading, writing to and leaving a chat one is not in; the members' messages are unchanged", async () => {
    const chat = expectOk(await call(t, '/api/chats/dm', { token: victim.token, body: { participantId: friend.id } })).chat;
    expectOk(await call(t, `/api/chats/${chat.id}/message`, { token: victim.token, body: { content: 'between us' } }), 201);

    expectRefused(await call(t, `/api/chats/${chat.id}`, { token: attacker.token }), 403, 'NOT_CHAT_MEMBER');
    expectRefused(await call(t, `/api/chats/${chat.id}/message`, { token: attacker.token, body: { content: 'let me in' } }), 403, 'NOT_CHAT_MEMBER');
    expectRefused(await call(t, `/api/chats/${chat.id}/participants/me`, { method: 'DELETE', token: attacker.token }), 403, 'NOT_CHAT_MEMBER');
    const attackersChats = expectOk(await call(t, '/api/chats', { token: attacker.token })).chats as { id: string }[];
    expect(attackersChats.map((c) => c.id)).not.toContain(chat.id);
    const unread = expectOk(await call(t, '/api/chats/unread-count', { token: attacker.token }));
    expect(unread.chats.map((c: { chatId: string }) => c.chatId)).not.toContain(chat.id);

    const seen = expectOk(await call(t, `/api/chats/${chat.id}`, { token: friend.token }));
    expect(seen.messages.map((m: { content: string }) => m.content)).toEqual(['between us']);
    expect(seen.chat.participants.map((p: { id: string }) => p.id).sort()).toEqual([victim.id, friend.id].sort());
  });

  it("refuses another player's wallet: balance and history over REST and A2A; their balance is unchanged", async () => {
    const before = expectOk(await call(t, `/api/users/${victim.id}/balance`, { token: victim.token }));
    expectRefused(await call(t, `/api/users/${victim.id}/balance`, { token: attacker.token }), 403);
    for (const method of ['a2a.getBalance', 'a2a.getUserWallet']) {
      const answer = await a2a(t, attacker.token, method, { userId: victim.id });
      expect(answer.result, `${method} answered ${JSON.stringify(answer)}`).toBeUndefined();
      expect(answer.error).toBeDefined();
    }
    const after = expectOk(await call(t, `/api/users/${victim.id}/balance`, { token: victim.token }));
    expect(after.balance).toBe(before.balance);
    expect(after.transactions.length).toBe(before.transactions.length);
  });

  it("refuses another player's points: their history, and a transfer that names them as the sender; both sides keep their points", async () => {
    const award = await call(t, '/api/users/points/award', { token: await adminToken(), body: { userId: victim.id, amount: 100, reason: 'security suite' } });
    expectOk(award);
    const pointsOf = async (p: TPlayer) => expectOk(await call(t, `/api/users/${p.id}/points?limit=5`, { token: p.token })).points as number;
    const victimBefore = await pointsOf(victim);
    const attackerBefore = await pointsOf(attacker);
    expect(victimBefore).toBeGreaterThanOrEqual(100);

    expectRefused(await call(t, `/api/users/${victim.id}/points`, { token: attacker.token }), 403);
    const stolen = await call(t, '/api/points/transfer', { token: attacker.token, body: { fromUserId: victim.id, toUserId: attacker.id, amount: 50 } });
    expect(stolen.status, JSON.stringify(stolen.body)).toBeGreaterThanOrEqual(400);
    expect(stolen.status).toBeLessThan(500);
    // The caller is always the sender: with none of their own, the attacker moves nothing.
    const own = await call(t, '/api/points/transfer', { token: attacker.token, body: { toUserId: victim.id, amount: 50 } });
    expectRefused(own, 400, 'INSUFFICIENT_POINTS');

    expect(await pointsOf(victim)).toBe(victimBefore);
    expect(await pointsOf(attacker)).toBe(attackerBefore);
  });

  it("refuses another player's notifications: not listed, and marking them read by id changes nothing", async () => {
    expectOk(await call(t, `/api/users/${victim.id}/follow`, { token: friend.token, body: {} }), 201);
    const mine = expectOk(await call(t, '/api/notifications?unread=true', { token: victim.token }));
    const target = (mine.notifications as { id: string; read: boolean }[])[0];
    expect(target, 'the follow notified the victim').toBeDefined();

    const listed = expectOk(await call(t, '/api/notifications', { token: attacker.token })).notifications as { id: string }[];
    expect(listed.map((n) => n.id)).not.toContain(target!.id);
    const attempts = [
      await call(t, '/api/notifications', { method: 'PATCH', token: attacker.token, body: { notificationIds: [target!.id], read: true } }),
      await call(t, '/api/notifications/mark-read', { token: attacker.token, body: { notificationIds: [target!.id] } }),
    ];
    for (const res of attempts) {
      // Refused outright, or answered for the attacker's own notifications only: none updated.
      if (res.status < 300) expect(res.body.updated, JSON.stringify(res.body)).toBe(0);
      else expect(res.status).toBeLessThan(500);
    }
    const after = expectOk(await call(t, '/api/notifications?unread=true', { token: victim.token }));
    expect(after.unreadCount).toBe(mine.unreadCount);
    expect((after.notifications as { id: string }[]).map((n) => n.id)).toContain(target!.id);
  });
});
