/**
 * Moderation (user): blocks, mutes and reports through the real handlers, every status of the
 * specification's plain meanings (400, 401, 404, 409, 429), the variant routes, and parallel
 * duplicates storing one row.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DELETE as unblockVariant, GET as listBlocksRoute, POST as blockVariant } from '@/app/api/moderation/blocks/route';
import { GET as listMutesRoute } from '@/app/api/moderation/mutes/route';
import { GET as listReportsRoute, POST as reportRoute } from '@/app/api/moderation/reports/route';
import { POST as createPostRoute } from '@/app/api/posts/route';
import { GET as blockStatus, POST as blockRoute } from '@/app/api/users/[userId]/block/route';
import { POST as followRoute } from '@/app/api/users/[userId]/follow/route';
import { GET as muteStatus, POST as muteRoute } from '@/app/api/users/[userId]/mute/route';
import { getDb, rowsOf } from '@/db/client';
import { blocks, eventLog, follows, mutes, reports, type TUserRow } from '@/db/schema';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});
afterEach(() => resetClock());

const block = async (me: TUserRow, userId: string, body: Record<string, unknown>) =>
  call(blockRoute, `/api/users/${userId}/block`, { method: 'POST', token: await tokenFor(me), params: { userId }, body });
const mute = async (me: TUserRow, userId: string, body: Record<string, unknown>) =>
  call(muteRoute, `/api/users/${userId}/mute`, { method: 'POST', token: await tokenFor(me), params: { userId }, body });
/** Files a report; with a fresh limiter unless `limited` (reports are 5 a minute, and tests file more). */
const report = async (me: TUserRow, body: Record<string, unknown>, limited = false) => {
  if (!limited) setLimiter(createMemoryLimiter());
  return call(reportRoute, '/api/moderation/reports', { method: 'POST', token: await tokenFor(me), body });
};
const newPost = async (author: TUserRow, content = 'A post someone may find objectionable') => {
  const res = await call(createPostRoute, '/api/posts', { method: 'POST', token: await tokenFor(author), body: { content } });
  expect(res.status).toBe(201);
  return res.body.post.id as string;
};
const blockRows = async (a: string, b: string) =>
  (await getDb()).select().from(blocks).where(and(eq(blocks.blockerId, a), eq(blocks.blockedId, b)));
const REASON = 'This account keeps posting the same link everywhere';

describe('blocks', () => {
  it('blocks, reports the status both ways, refuses a second block (409), unblocks, and refuses unblocking twice (404)', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    const first = await block(a, b.id, { action: 'block', reason: 'rude' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, block: { blockerId: a.id, blockedId: b.id, reason: 'rude' } });
    expect(typeof first.body.message).toBe('string');

    const mine = await call(blockStatus, `/api/users/${b.id}/block`, { token: await tokenFor(a), params: { userId: b.id } });
    expect(mine.body).toMatchObject({ isBlocked: true, isBlockedBy: false, block: { id: first.body.block.id, reason: 'rude' } });
    const theirs = await call(blockStatus, `/api/users/${a.id}/block`, { token: await tokenFor(b), params: { userId: a.id } });
    expect(theirs.body).toMatchObject({ isBlocked: false, isBlockedBy: true, block: null });

    const again = await block(a, b.id, { action: 'block' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('ALREADY_BLOCKED');

    const un = await block(a, b.id, { action: 'unblock' });
    expect(un.status).toBe(200);
    expect(un.body.block.id).toBe(first.body.block.id);
    expect(await blockRows(a.id, b.id)).toHaveLength(0);
    const unAgain = await block(a, b.id, { action: 'unblock' });
    expect(unAgain.status).toBe(404);
    expect(unAgain.body.error.code).toBe('NOT_BLOCKED');

    // And back: block → unblock → block.
    expect((await block(a, b.id, { action: 'BLOCK' })).status).toBe(200);
    expect(await blockRows(a.id, b.id)).toHaveLength(1);
  });

  it('refuses bad input, unknown users, oneself and missing tokens', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    expect((await block(a, b.id, { action: 'ban' })).status).toBe(400);
    expect((await block(a, b.id, {})).status).toBe(400);
    const long = await block(a, b.id, { action: 'block', reason: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect((await block(a, b.id, { action: 'block', reason: 'x'.repeat(500) })).status).toBe(200);
    const unknown = await block(a, 'no-such-user', { action: 'block' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('USER_NOT_FOUND');
    const self = await block(a, a.id, { action: 'block' });
    expect(self.status).toBe(400);
    expect(self.body.error.code).toBe('CANNOT_TARGET_SELF');
    const anon = await call(blockRoute, `/api/users/${b.id}/block`, { method: 'POST', params: { userId: b.id }, body: { action: 'block' } });
    expect(anon.status).toBe(401);
    expect((await blockRows(a.id, a.id)).length).toBe(0);
  });

  it('removes follows both ways in the same transaction, and writes the visibility signal', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    const db = await getDb();
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const res = await call(followRoute, `/api/users/${y.id}/follow`, { method: 'POST', token: await tokenFor(x), params: { userId: y.id } });
      expect(res.status).toBe(201);
    }
    expect((await block(b, a.id, { action: 'block' })).status).toBe(200);
    const left = await db.select().from(follows).where(sql`(${follows.followerId} = ${a.id} and ${follows.followingId} = ${b.id}) or (${follows.followerId} = ${b.id} and ${follows.followingId} = ${a.id})`);
    expect(left).toHaveLength(0);
    const signals = rowsOf<{ data: { userIds: string[] } }>(
      await db.execute(sql`select data from ${eventLog} where channel = 'moderation' and type = 'visibility_changed' and data->'userIds' ? ${a.id}`),
    );
    expect(signals.length).toBeGreaterThanOrEqual(1);
    expect(signals[0]!.data.userIds.sort()).toEqual([a.id, b.id].sort());
  });

  it('stores one block when ten arrive at once (the others are 409)', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    const token = await tokenFor(a);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(blockRoute, `/api/users/${b.id}/block`, { method: 'POST', token, params: { userId: b.id }, body: { action: 'block' } }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    expect(await blockRows(a.id, b.id)).toHaveLength(1);
  });

  it('the variant routes block and unblock (userId in the body or the query), and list with pagination', async () => {
    const a = await seedUser();
    const others = [await seedUser(), await seedUser(), await seedUser()];
    const token = await tokenFor(a);
    for (const o of others) {
      const res = await call(blockVariant, '/api/moderation/blocks', { method: 'POST', token, body: { userId: o.id, reason: 'variant' } });
      expect(res.status).toBe(200);
    }
    const again = await call(blockVariant, '/api/moderation/blocks', { method: 'POST', token, body: { userId: others[0]!.id } });
    expect(again.status).toBe(409);

    const page = await call(listBlocksRoute, '/api/moderation/blocks', { token, query: { limit: '2', offset: '0' } });
    expect(page.status).toBe(200);
    expect(page.body.blocks).toHaveLength(2);
    expect(page.body.pagination).toEqual({ limit: 2, offset: 0, total: 3 });
    expect(page.body.blocks[0]).toMatchObject({ reason: 'variant', blocked: { id: expect.any(String), username: expect.any(String) } });
    const rest = await call(listBlocksRoute, '/api/moderation/blocks', { token, query: { limit: '2', offset: '2' } });
    expect(rest.body.blocks).toHaveLength(1);
    const ids = [...page.body.blocks, ...rest.body.blocks].map((x: { blocked: { id: string } }) => x.blocked.id).sort();
    expect(ids).toEqual(others.map((o) => o.id).sort());
    expect((await call(listBlocksRoute, '/api/moderation/blocks', { token, query: { limit: '101' } })).status).toBe(400);

    const byBody = await call(unblockVariant, '/api/moderation/blocks', { method: 'DELETE', token, body: { userId: others[0]!.id } });
    expect(byBody.status).toBe(200);
    const byQuery = await call(unblockVariant, '/api/moderation/blocks', { method: 'DELETE', token, query: { userId: others[1]!.id } });
    expect(byQuery.status).toBe(200);
    const none = await call(unblockVariant, '/api/moderation/blocks', { method: 'DELETE', token, body: {} });
    expect(none.status).toBe(400);
    const notBlocked = await call(unblockVariant, '/api/moderation/blocks', { method: 'DELETE', token, body: { userId: others[0]!.id } });
    expect(notBlocked.status).toBe(404);
    const after = await call(listBlocksRoute, '/api/moderation/blocks', { token });
    expect(after.body.pagination.total).toBe(1);
  });

  it('the 11th block or unblock in a minute is refused (429)', async () => {
    const a = await seedUser();
    const token = await tokenFor(a);
    const targets = await Promise.all(Array.from({ length: 11 }, () => seedUser()));
    const statuses: number[] = [];
    for (const t of targets) {
      statuses.push((await call(blockRoute, `/api/users/${t.id}/block`, { method: 'POST', token, params: { userId: t.id }, body: { action: 'block' } })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('mutes', () => {
  it('mutes silently, refuses a second mute (409), reports the status, lists, unmutes and refuses unmuting twice (404)', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    const res = await mute(a, b.id, { action: 'mute', reason: 'too loud' });
    expect(res.status).toBe(200);
    expect(res.body.mute).toMatchObject({ muterId: a.id, mutedId: b.id, reason: 'too loud' });
    const again = await mute(a, b.id, { action: 'mute' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('ALREADY_MUTED');

    const status = await call(muteStatus, `/api/users/${b.id}/mute`, { token: await tokenFor(a), params: { userId: b.id } });
    expect(status.body).toMatchObject({ isMuted: true, mute: { reason: 'too loud' } });
    // The muted user is never told.
    const theirs = await call(muteStatus, `/api/users/${a.id}/mute`, { token: await tokenFor(b), params: { userId: a.id } });
    expect(theirs.body).toMatchObject({ isMuted: false, mute: null });
    const block = await call(blockStatus, `/api/users/${a.id}/block`, { token: await tokenFor(b), params: { userId: a.id } });
    expect(block.body.isBlockedBy).toBe(false);

    const list = await call(listMutesRoute, '/api/moderation/mutes', { token: await tokenFor(a) });
    expect(list.body.mutes).toHaveLength(1);
    expect(list.body.mutes[0]).toMatchObject({ reason: 'too loud', muted: { id: b.id, username: b.username } });
    expect(list.body.pagination).toEqual({ limit: 20, offset: 0, total: 1 });

    expect((await mute(a, b.id, { action: 'unmute' })).status).toBe(200);
    const twice = await mute(a, b.id, { action: 'unmute' });
    expect(twice.status).toBe(404);
    expect(twice.body.error.code).toBe('NOT_MUTED');
    expect(await (await getDb()).select().from(mutes).where(eq(mutes.muterId, a.id))).toHaveLength(0);
  });

  it('refuses bad actions, long reasons, oneself and unknown users', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    expect((await mute(a, b.id, { action: 'block' })).status).toBe(400);
    expect((await mute(a, b.id, { action: 'mute', reason: 'y'.repeat(501) })).status).toBe(400);
    expect((await mute(a, a.id, { action: 'mute' })).body.error.code).toBe('CANNOT_TARGET_SELF');
    expect((await mute(a, 'nobody-at-all', { action: 'mute' })).status).toBe(404);
  });
});

describe('reports', () => {
  it('files a user report and a post report with the priority of their category', async () => {
    const [reporter, target] = [await seedUser(), await seedUser()];
    const user = await report(reporter, { reportType: 'user', reportedUserId: target.id, category: 'spam', reason: REASON });
    expect(user.status).toBe(201);
    expect(user.body.report).toMatchObject({
      reporterId: reporter.id,
      reportedUserId: target.id,
      reportedPostId: null,
      reportType: 'user',
      category: 'spam',
      status: 'pending',
      priority: 'low',
      source: 'user',
    });
    const postId = await newPost(target);
    const post = await report(reporter, {
      reportType: 'post',
      reportedPostId: postId,
      category: 'hate_speech',
      reason: 'This post attacks people for who they are',
      evidence: 'https://example.com/screenshot.png',
    });
    expect(post.status).toBe(201);
    expect(post.body.report).toMatchObject({ reportType: 'post', reportedPostId: postId, reportedUserId: target.id, priority: 'high', evidence: 'https://example.com/screenshot.png' });
    for (const [category, priority] of [
      ['violence', 'high'],
      ['self_harm', 'high'],
      ['harassment', 'medium'],
      ['misinformation', 'medium'],
      ['other', 'medium'],
    ] as const) {
      const r = await report(reporter, { reportType: 'user', reportedUserId: target.id, category, reason: REASON });
      expect(r.status).toBe(201);
      expect(r.body.report.priority).toBe(priority);
    }
  });

  it('validates per report type, the reason length, the category and the evidence URL', async () => {
    const [reporter, target] = [await seedUser(), await seedUser()];
    const ok = { reportType: 'user', reportedUserId: target.id, category: 'spam', reason: REASON };
    const cases: Record<string, unknown>[] = [
      { ...ok, reportedUserId: undefined },
      { reportType: 'post', category: 'spam', reason: REASON },
      { ...ok, reason: '123456789' },
      { ...ok, reason: 'x'.repeat(2001) },
      { ...ok, category: 'rude' },
      { ...ok, reportType: 'comment' },
      { ...ok, evidence: 'javascript:alert(1)' },
      { ...ok, evidence: 'ftp://example.com/file' },
      { ...ok, evidence: 'not a url' },
    ];
    for (const body of cases) {
      const res = await report(reporter, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await report(reporter, { ...ok, reason: '1234567890' })).status).toBe(201);
    expect((await report(reporter, { ...ok, category: 'other', reason: 'x'.repeat(2000) })).status).toBe(201);
    const unknownUser = await report(reporter, { ...ok, reportedUserId: 'nobody-here' });
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.body.error.code).toBe('USER_NOT_FOUND');
    const unknownPost = await report(reporter, { reportType: 'post', reportedPostId: 'no-such-post', category: 'spam', reason: REASON });
    expect(unknownPost.status).toBe(404);
    expect(unknownPost.body.error.code).toBe('POST_NOT_FOUND');
    const self = await report(reporter, { ...ok, reportedUserId: reporter.id });
    expect(self.body.error.code).toBe('CANNOT_TARGET_SELF');
    const ownPost = await report(reporter, { reportType: 'post', reportedPostId: await newPost(reporter), category: 'spam', reason: REASON });
    expect(ownPost.body.error.code).toBe('CANNOT_TARGET_SELF');
    const anon = await call(reportRoute, '/api/moderation/reports', { method: 'POST', body: ok });
    expect(anon.status).toBe(401);
  });

  it('refuses the same reporter, target and category within 24 hours (409), not another category, and again after 24 hours', async () => {
    const [reporter, target] = [await seedUser(), await seedUser()];
    const t0 = new Date('2026-11-20T12:00:00Z');
    setFixedTime(t0);
    const body = { reportType: 'user', reportedUserId: target.id, category: 'harassment', reason: REASON };
    const first = await report(reporter, body);
    expect(first.status).toBe(201);
    setFixedTime(new Date(t0.getTime() + 23 * 3600_000));
    const dup = await report(reporter, body);
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'DUPLICATE_REPORT', details: { reportId: first.body.report.id } });
    expect((await report(reporter, { ...body, category: 'impersonation' })).status).toBe(201);
    // Someone else may report the same thing.
    expect((await report(await seedUser(), body)).status).toBe(201);
    setFixedTime(new Date(t0.getTime() + 24 * 3600_000 + 1000));
    expect((await report(reporter, body)).status).toBe(201);
  });

  it('stores one report when ten identical ones arrive at once', async () => {
    const [reporter, target] = [await seedUser(), await seedUser()];
    const postId = await newPost(target);
    const token = await tokenFor(reporter);
    const body = { reportType: 'post', reportedPostId: postId, category: 'misinformation', reason: REASON };
    // The report rule allows 5 a minute; the parallel copies must be refused as duplicates, not by the limiter.
    setLimiter(createMemoryLimiter());
    const results = await Promise.all(Array.from({ length: 5 }, () => call(reportRoute, '/api/moderation/reports', { method: 'POST', token, body })));
    setLimiter(createMemoryLimiter());
    const more = await Promise.all(Array.from({ length: 5 }, () => call(reportRoute, '/api/moderation/reports', { method: 'POST', token, body })));
    const all = [...results, ...more];
    expect(all.filter((r) => r.status === 201)).toHaveLength(1);
    expect(all.filter((r) => r.status === 409)).toHaveLength(9);
    const stored = await (await getDb()).select().from(reports).where(and(eq(reports.reporterId, reporter.id), eq(reports.reportedPostId, postId)));
    expect(stored).toHaveLength(1);
  });

  it('the sixth report in a minute is refused (429)', async () => {
    const reporter = await seedUser();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await report(reporter, { reportType: 'user', reportedUserId: (await seedUser()).id, category: 'spam', reason: REASON }, true)).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it("lists the reporter's own reports with filters, each with the reported user", async () => {
    const [reporter, other, target] = [await seedUser(), await seedUser(), await seedUser()];
    const postId = await newPost(target);
    await report(reporter, { reportType: 'user', reportedUserId: target.id, category: 'spam', reason: REASON });
    await report(reporter, { reportType: 'post', reportedPostId: postId, category: 'violence', reason: REASON });
    await report(other, { reportType: 'user', reportedUserId: target.id, category: 'spam', reason: REASON });
    const token = await tokenFor(reporter);
    const all = await call(listReportsRoute, '/api/moderation/reports', { token });
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ limit: 50, offset: 0, total: 2 });
    expect(all.body.reports.every((r: { reporterId: string }) => r.reporterId === reporter.id)).toBe(true);
    expect(all.body.reports[0].reportedUser).toEqual({ id: target.id, username: target.username, displayName: target.displayName });
    const posts = await call(listReportsRoute, '/api/moderation/reports', { token, query: { reportType: 'post' } });
    expect(posts.body.reports).toHaveLength(1);
    expect(posts.body.reports[0].category).toBe('violence');
    const spam = await call(listReportsRoute, '/api/moderation/reports', { token, query: { category: 'spam', status: 'pending' } });
    expect(spam.body.reports).toHaveLength(1);
    const resolved = await call(listReportsRoute, '/api/moderation/reports', { token, query: { status: 'resolved' } });
    expect(resolved.body.pagination.total).toBe(0);
    expect((await call(listReportsRoute, '/api/moderation/reports', { token, query: { status: 'open' } })).status).toBe(400);
    expect((await call(listReportsRoute, '/api/moderation/reports', { token, query: { limit: '101' } })).status).toBe(400);
    expect((await call(listReportsRoute, '/api/moderation/reports', {})).status).toBe(401);
  });
});
