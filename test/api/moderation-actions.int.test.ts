/**
 * Moderation that fits the offence (issue 35) through the real handlers: remove and restore a post
 * and a comment (409 twice, 403 for a plain user, the author notified, the audit trail, a removed
 * comment's text served to moderators only), warnings, temporary bans that liftExpiredBans lifts
 * at their end and not before (and that stop binding at their end even before the tick), a claim
 * without a resolution, and the reporter told the outcome of their report.
 */
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as removeCommentRoute } from '@/app/api/admin/comments/[id]/remove/route';
import { POST as restoreCommentRoute } from '@/app/api/admin/comments/[id]/restore/route';
import { GET as actionsRoute } from '@/app/api/admin/moderation/actions/route';
import { GET as reasonsRoute } from '@/app/api/admin/moderation/reasons/route';
import { POST as removePostRoute } from '@/app/api/admin/posts/[id]/remove/route';
import { POST as restorePostRoute } from '@/app/api/admin/posts/[id]/restore/route';
import { POST as reportActionRoute } from '@/app/api/admin/reports/[reportId]/route';
import { POST as banRoute } from '@/app/api/admin/users/[userId]/ban/route';
import { POST as warnRoute } from '@/app/api/admin/users/[userId]/warn/route';
import { GET as commentsRoute } from '@/app/api/posts/[id]/comments/route';
import { POST as createPostRoute } from '@/app/api/posts/route';
import { getDb } from '@/db/client';
import { comments, moderationActions, notifications, posts, reportActions, reports, userBans, users, type TUserRow } from '@/db/schema';
import { liftExpiredBans } from '@/lib/admin/service/ban-user';
import { callerOfUser } from '@/lib/auth/caller';
import { now, resetClock, setFixedTime } from '@/lib/clock/clock';
import { addComment } from '@/lib/comments/service/add-comment';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { createPost } from '@/lib/posts/service/create-post';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';

let admin: TUserRow;
let moderator: TUserRow;
let player: TUserRow;

beforeAll(async () => {
  admin = await seedUser({ isAdmin: true });
  const m = await seedUser();
  moderator = (await (await getDb()).update(users).set({ isModerator: true }).where(eq(users.id, m.id)).returning())[0]!;
  player = await seedUser();
});
beforeEach(() => setLimiter(createMemoryLimiter()));
afterEach(() => resetClock());

const post = (who: TUserRow, handler: any, path: string, params: Record<string, string>, body?: unknown) =>
  tokenFor(who).then((token) => call(handler, path, { method: 'POST', token, params, body }));

const newPost = async (author: TUserRow, content = 'A post a moderator may remove') =>
  (await createPost({ caller: callerOfUser(author), content, type: 'post' })).post.id as string;

const moderationNotes = async (userId: string, kind: 'moderation' | 'report_outcome') =>
  (await getDb())
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.kind, kind)));

const trailOf = async (who: TUserRow, query: Record<string, string | number>) =>
  call(actionsRoute, '/api/admin/moderation/actions', { token: await tokenFor(who), query });

describe('removing and restoring a post', () => {
  it('removes with a reason, 409 twice, restores, 409 twice; the author is told both; the trail has both rows', async () => {
    const author = await seedUser();
    const postId = await newPost(author);
    const path = `/api/admin/posts/${postId}/remove`;

    const removed = await post(admin, removePostRoute, path, { id: postId }, { reason: 'Spam' });
    expect(removed.status).toBe(200);
    expect(removed.body.post).toMatchObject({ id: postId, authorId: author.id, removed: { reason: 'Spam' } });
    const [row] = await (await getDb()).select().from(posts).where(eq(posts.id, postId));
    expect(row).toMatchObject({ removedById: admin.id, removedReason: 'Spam' });
    expect(row!.removedAt).not.toBeNull();
    expect((await post(admin, removePostRoute, path, { id: postId }, { reason: 'Spam' })).status).toBe(409);

    const notes = await moderationNotes(author.id, 'moderation');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ type: 'system', postId, actorId: null });
    expect(notes[0]!.message).toContain('Spam');

    const restorePath = `/api/admin/posts/${postId}/restore`;
    const restored = await post(admin, restorePostRoute, restorePath, { id: postId });
    expect(restored.status).toBe(200);
    expect(restored.body.post.removed).toBeNull();
    const [after] = await (await getDb()).select().from(posts).where(eq(posts.id, postId));
    expect(after).toMatchObject({ removedAt: null, removedById: null, removedReason: null });
    expect((await post(admin, restorePostRoute, restorePath, { id: postId })).status).toBe(409);
    expect(await moderationNotes(author.id, 'moderation')).toHaveLength(2);

    const trail = await trailOf(admin, { targetUserId: author.id });
    expect(trail.status).toBe(200);
    expect(trail.body.actions.map((a: { action: string }) => a.action)).toEqual(['restore_post', 'remove_post']);
    expect(trail.body.actions[1]).toMatchObject({ postId, reason: 'Spam', actor: { id: admin.id }, targetUser: { id: author.id } });
  });

  it('403 for a plain user, 401 without a token; a moderator may remove; an unknown post is 404', async () => {
    const author = await seedUser();
    const postId = await newPost(author);
    const path = `/api/admin/posts/${postId}/remove`;
    expect((await post(player, removePostRoute, path, { id: postId }, { reason: 'Spam' })).status).toBe(403);
    expect((await call(removePostRoute, path, { method: 'POST', params: { id: postId }, body: { reason: 'Spam' } })).status).toBe(401);
    expect((await call(actionsRoute, '/api/admin/moderation/actions', { token: await tokenFor(player) })).status).toBe(403);
    const [untouched] = await (await getDb()).select().from(posts).where(eq(posts.id, postId));
    expect(untouched!.removedAt).toBeNull();

    expect((await post(moderator, removePostRoute, path, { id: postId }, { reason: 'Off-topic' })).status).toBe(200);
    expect((await post(admin, removePostRoute, '/api/admin/posts/nope/remove', { id: 'nope' }, { reason: 'Spam' })).status).toBe(404);
    // A reason is required to remove.
    const other = await newPost(author);
    expect((await post(admin, removePostRoute, `/api/admin/posts/${other}/remove`, { id: other }, {})).status).toBe(400);
  });
});

describe('removing and restoring a comment', () => {
  it("serves a removed comment's text to moderators only; others see the reason in its place", async () => {
    const author = await seedUser();
    const reader = await seedUser();
    const postId = await newPost(player, 'A post with a comment to remove');
    const commentId = (await addComment({ caller: callerOfUser(author), postId, content: 'A comment that breaks the rules' })).comment.id;
    const path = `/api/admin/comments/${commentId}/remove`;

    expect((await post(player, removeCommentRoute, path, { id: commentId }, { reason: 'Harassment' })).status).toBe(403);
    const removed = await post(moderator, removeCommentRoute, path, { id: commentId }, { reason: 'Harassment' });
    expect(removed.status).toBe(200);
    expect(removed.body.comment).toMatchObject({ id: commentId, postId, authorId: author.id, removed: { reason: 'Harassment' } });
    expect((await post(admin, removeCommentRoute, path, { id: commentId }, { reason: 'Harassment' })).status).toBe(409);

    const listAs = async (who: TUserRow | null) =>
      (await call(commentsRoute, `/api/posts/${postId}/comments`, { token: who ? await tokenFor(who) : undefined, params: { id: postId } })).body.comments.find(
        (c: { id: string }) => c.id === commentId,
      );
    for (const who of [reader, author, null]) {
      const c = await listAs(who);
      expect(c).toMatchObject({ content: '', removed: { reason: 'Harassment' }, deleted: false });
      expect(JSON.stringify(c)).not.toContain('breaks the rules');
    }
    expect(await listAs(admin)).toMatchObject({ content: 'A comment that breaks the rules', removed: { reason: 'Harassment' } });

    const notes = await moderationNotes(author.id, 'moderation');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ commentId, postId });
    expect(notes[0]!.message).toContain('Harassment');

    const restorePath = `/api/admin/comments/${commentId}/restore`;
    expect((await post(moderator, restoreCommentRoute, restorePath, { id: commentId })).status).toBe(200);
    expect((await post(moderator, restoreCommentRoute, restorePath, { id: commentId })).status).toBe(409);
    expect(await listAs(reader)).toMatchObject({ content: 'A comment that breaks the rules', removed: null });
    const [row] = await (await getDb()).select().from(comments).where(eq(comments.id, commentId));
    expect(row).toMatchObject({ removedAt: null, removedReason: null });

    const trail = await trailOf(moderator, { targetUserId: author.id });
    expect(trail.body.actions.map((a: { action: string; commentId: string }) => [a.action, a.commentId])).toEqual([
      ['restore_comment', commentId],
      ['remove_comment', commentId],
    ]);
  });
});

describe('warnings and the trail', () => {
  it('a warning is a trail row and a notification; the trail pages by cursor without overlap and filters by action', async () => {
    const target = await seedUser();
    const res = await post(moderator, warnRoute, `/api/admin/users/${target.id}/warn`, { userId: target.id }, { reason: 'Misinformation' });
    expect(res.status).toBe(200);
    expect((await post(moderator, warnRoute, `/api/admin/users/${moderator.id}/warn`, { userId: moderator.id }, { reason: 'Spam' })).status).toBe(400);
    expect((await post(player, warnRoute, `/api/admin/users/${target.id}/warn`, { userId: target.id }, { reason: 'Spam' })).status).toBe(403);
    const [note] = await moderationNotes(target.id, 'moderation');
    expect(note!.message).toContain('Misinformation');
    for (let i = 0; i < 3; i += 1) {
      setFixedTime(new Date(now().getTime() + 1000));
      await post(admin, warnRoute, `/api/admin/users/${target.id}/warn`, { userId: target.id }, { reason: `Warning ${i}` });
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await trailOf(admin, { targetUserId: target.id, action: 'warn', limit: 3, ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      seen.push(...page.body.actions.map((a: { reason: string }) => a.reason));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['Warning 2', 'Warning 1', 'Warning 0', 'Misinformation']);
    expect((await trailOf(admin, { targetUserId: target.id, action: 'ban' })).body.actions).toEqual([]);
    const rows = await (await getDb()).select().from(moderationActions).where(eq(moderationActions.targetUserId, target.id));
    expect(rows).toHaveLength(4);
  });

  it('lists the canned reasons', async () => {
    const res = await call(reasonsRoute, '/api/admin/moderation/reasons', { token: await tokenFor(moderator) });
    expect(res.status).toBe(200);
    expect(res.body.reasons.map((r: { code: string }) => r.code)).toEqual(['spam', 'harassment', 'off_topic', 'misinformation', 'hate_speech', 'impersonation', 'other']);
  });
});

describe('temporary bans', () => {
  it('a 24 h ban binds until its end; liftExpiredBans lifts it at its end, not before, with its rows', async () => {
    const start = new Date(Date.UTC(2031, 0, 1, 12));
    setFixedTime(start);
    const target = await seedUser();
    const res = await post(admin, banRoute, `/api/admin/users/${target.id}/ban`, { userId: target.id }, { reason: 'Spam', durationHours: 24 });
    expect(res.status).toBe(200);
    const end = new Date(start.getTime() + 24 * 3_600_000);
    expect(res.body.user).toMatchObject({ isBanned: true, bannedUntil: end.toISOString() });
    expect((await post(moderator, banRoute, `/api/admin/users/${target.id}/ban`, { userId: target.id }, { durationHours: 1 })).status).toBe(403);

    const db = await getDb();
    const write = async () => call(createPostRoute, '/api/posts', { method: 'POST', token: await tokenFor(target), body: { content: 'Am I still banned?' } });
    expect((await write()).status).toBe(403);

    expect(await liftExpiredBans(db, new Date(end.getTime() - 1000))).toBeGreaterThanOrEqual(0);
    const [still] = await db.select().from(users).where(eq(users.id, target.id));
    expect(still).toMatchObject({ isBanned: true });
    expect(still!.bannedUntil?.toISOString()).toBe(end.toISOString());

    // Past its end, the ban no longer binds even before the tick lifts it.
    setFixedTime(new Date(end.getTime() + 1000));
    expect((await write()).status).toBe(201);

    expect(await liftExpiredBans(db, end)).toBeGreaterThanOrEqual(1);
    const [lifted] = await db.select().from(users).where(eq(users.id, target.id));
    expect(lifted).toMatchObject({ isBanned: false, bannedUntil: null });
    const history = await db.select().from(userBans).where(eq(userBans.userId, target.id));
    expect(history.map((h) => [h.action, h.actorId]).sort()).toEqual([
      ['ban', admin.id],
      ['unban', admin.id],
    ]);
    expect(history.find((h) => h.action === 'ban')!.endsAt?.toISOString()).toBe(end.toISOString());
    const trail = await db.select().from(moderationActions).where(eq(moderationActions.targetUserId, target.id));
    expect(trail.map((t) => t.action).sort()).toEqual(['ban', 'unban']);
    // A second run finds nothing more for this user.
    await liftExpiredBans(db, end);
    expect(await db.select().from(userBans).where(eq(userBans.userId, target.id))).toHaveLength(2);
  });

  it('refuses an end in the past, or both until and durationHours', async () => {
    const target = await seedUser();
    const path = `/api/admin/users/${target.id}/ban`;
    expect((await post(admin, banRoute, path, { userId: target.id }, { until: new Date(now().getTime() - 60_000).toISOString() })).status).toBe(400);
    expect((await post(admin, banRoute, path, { userId: target.id }, { until: new Date(now().getTime() + 60_000).toISOString(), durationHours: 1 })).status).toBe(400);
    const ok = await post(admin, banRoute, path, { userId: target.id }, { until: new Date(now().getTime() + 3_600_000).toISOString() });
    expect(ok.status).toBe(200);
    expect(ok.body.user.bannedUntil).not.toBeNull();
  });
});

describe('reports: a claim without a resolution, and the reporter told the outcome', () => {
  const fileReport = async (reporter: TUserRow, reported: TUserRow) => {
    const postId = await newPost(reported, 'A post someone reported');
    const [r] = await (await getDb())
      .insert(reports)
      .values({
        reporterId: reporter.id,
        reportedUserId: reported.id,
        reportedPostId: postId,
        reportType: 'post',
        category: 'spam',
        reason: 'This post is an advert for a scam',
        priority: 'low',
        createdAt: now(),
        updatedAt: now(),
      })
      .returning();
    return r!;
  };
  const act = async (who: TUserRow, reportId: string, body: Record<string, unknown>) =>
    post(who, reportActionRoute, `/api/admin/reports/${reportId}`, { reportId }, body);

  it('review needs no resolution; resolve still does; resolving tells the reporter once, and the reported user nothing', async () => {
    const reporter = await seedUser();
    const reported = await seedUser();
    const r = await fileReport(reporter, reported);
    const claimed = await act(moderator, r.id, { action: 'review' });
    expect(claimed.status).toBe(200);
    expect(claimed.body.report).toMatchObject({ status: 'reviewing', resolution: null });
    const [trail] = await (await getDb()).select().from(reportActions).where(eq(reportActions.reportId, r.id));
    expect(trail).toMatchObject({ action: 'review', note: null, toStatus: 'reviewing' });
    expect(await moderationNotes(reporter.id, 'report_outcome')).toHaveLength(0);

    expect((await act(moderator, r.id, { action: 'resolve' })).status).toBe(400);
    expect((await act(moderator, r.id, { action: 'escalate' })).status).toBe(400);

    // Removing the reported post from the report, then resolving it.
    const removed = await post(moderator, removePostRoute, `/api/admin/posts/${r.reportedPostId}/remove`, { id: r.reportedPostId! }, { reason: 'Spam', reportId: r.id });
    expect(removed.status).toBe(200);
    const resolved = await act(moderator, r.id, { action: 'resolve', resolution: 'Removed the advert' });
    expect(resolved.status).toBe(200);
    const told = await moderationNotes(reporter.id, 'report_outcome');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ type: 'system', actorId: null });
    expect(told[0]!.message).not.toContain(reported.username);
    expect(told[0]!.message).not.toContain('Removed the advert');
    const toReported = await (await getDb()).select().from(notifications).where(eq(notifications.userId, reported.id));
    expect(toReported.some((n) => n.kind === 'report_outcome')).toBe(false);
    expect(toReported.map((n) => `${n.title} ${n.message}`).join(' ')).not.toContain(reporter.username);

    const [trailRow] = await (await getDb()).select().from(moderationActions).where(eq(moderationActions.postId, r.reportedPostId!));
    expect(trailRow).toMatchObject({ action: 'remove_post', reportId: r.id });
  });

  it('a dismissal tells the reporter too', async () => {
    const reporter = await seedUser();
    const reported = await seedUser();
    const r = await fileReport(reporter, reported);
    expect((await act(admin, r.id, { action: 'dismiss', resolution: 'Not a violation' })).status).toBe(200);
    const told = await moderationNotes(reporter.id, 'report_outcome');
    expect(told).toHaveLength(1);
    expect(told[0]!.title).toMatch(/reviewed/i);
  });

  it('ban_user with durationHours bans until then', async () => {
    const reporter = await seedUser();
    const reported = await seedUser();
    const r = await fileReport(reporter, reported);
    const res = await act(admin, r.id, { action: 'ban_user', resolution: 'Scam adverts', durationHours: 168 });
    expect(res.status).toBe(200);
    const [u] = await (await getDb()).select().from(users).where(eq(users.id, reported.id));
    expect(u!.isBanned).toBe(true);
    expect(u!.bannedUntil!.getTime() - now().getTime()).toBeGreaterThan(167 * 3_600_000);
    expect((await act(admin, r.id, { action: 'escalate', resolution: 'x', durationHours: 2 })).status).toBe(400);
  });
});
