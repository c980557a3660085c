/**
 * The admin routes (lib/admin) against a real database: who may call what (401, 403, moderators
 * on the queue only), the report queue's filters, sorts and pages, every action and every
 * refused transition, the audit trail, report and system statistics, bans (a banned user's
 * writes answer 403 USER_BANNED and their posts leave the feed; unban restores both), roles,
 * user management and the trade feed. Reports are inserted directly: this file tests the queue,
 * not the players' report form.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as reportDetailRoute, POST as reportActionRoute } from '@/app/api/admin/reports/[reportId]/route';
import { GET as reportsRoute } from '@/app/api/admin/reports/route';
import { GET as perpsListRoute } from '@/app/api/markets/perps/route';
import { GET as reportStatsRoute } from '@/app/api/admin/reports/stats/route';
import { GET as statsRoute } from '@/app/api/admin/stats/route';
import { GET as adminTradesRoute } from '@/app/api/admin/trades/route';
import { POST as banRoute } from '@/app/api/admin/users/[userId]/ban/route';
import { POST as roleRoute } from '@/app/api/admin/users/[userId]/role/route';
import { GET as usersRoute } from '@/app/api/admin/users/route';
import { GET as listPostsRoute, POST as createPostRoute } from '@/app/api/posts/route';
import { GET as tradesRoute } from '@/app/api/trades/route';
import { GET as meRoute } from '@/app/api/users/me/route';
import { getDb } from '@/db/client';
import { reportActions, reports, userBans, users, type TReportRow, type TUserRow } from '@/db/schema';
import { callerOfUser } from '@/lib/auth/caller';
import { now, resetClock, setFixedTime } from '@/lib/clock/clock';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { createMarket } from '@/lib/markets/service/create-market';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { createPost } from '@/lib/posts/service/create-post';
import { readAccountNumbers } from '@/lib/equity/service';
import { seedPool, seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';
import { spyOnStatements } from '../db-spies';

let admin: TUserRow;
let admin2: TUserRow;
let moderator: TUserRow;
let player: TUserRow;

const tokens = new Map<string, string>();
const tokenOf = async (u: TUserRow) => {
  let t = tokens.get(u.id);
  if (!t) tokens.set(u.id, (t = await tokenFor(u)));
  return t;
};

const seedModerator = async () => {
  const u = await seedUser();
  const [row] = await (await getDb()).update(users).set({ isModerator: true }).where(eq(users.id, u.id)).returning();
  return row!;
};

beforeAll(async () => {
  admin = await seedUser({ isAdmin: true, username: `admin_${Date.now() % 100000}` });
  admin2 = await seedUser({ isAdmin: true });
  moderator = await seedModerator();
  player = await seedUser();
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

type TReportInsert = Partial<typeof reports.$inferInsert>;
const SECOND = 1000;
let reportClock = Date.now() - 3_600_000;

/** A report row as the players' form or the detector would file it; distinct creation times. */
const insertReport = async (opts: TReportInsert & { reportedUserId: string }): Promise<TReportRow> => {
  reportClock += SECOND;
  const at = new Date(reportClock);
  const [r] = await (await getDb())
    .insert(reports)
    .values({
      reporterId: opts.source === 'system' ? null : (opts.reporterId ?? player.id),
      reportType: opts.reportedPostId ? 'post' : 'user',
      category: 'spam',
      reason: 'This account keeps posting the same link everywhere',
      status: 'pending',
      priority: 'low',
      createdAt: at,
      updatedAt: at,
      ...opts,
    })
    .returning();
  return r!;
};

const act = async (who: TUserRow, reportId: string, action: string, resolution = 'Checked the reported content') =>
  call(reportActionRoute, `/api/admin/reports/${reportId}`, { method: 'POST', token: await tokenOf(who), params: { reportId }, body: { action, resolution } });

const queue = async (who: TUserRow, query: Record<string, string | number>) => call(reportsRoute, '/api/admin/reports', { token: await tokenOf(who), query });
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe('who may call the admin routes', () => {
  type TRouteCase = { name: string; handler: any; path: string; method?: string; params?: Record<string, string>; body?: unknown; moderatorOk: boolean };
  const cases = (reportId: string, userId: string): TRouteCase[] => [
    { name: 'queue', handler: reportsRoute, path: '/api/admin/reports', moderatorOk: true },
    { name: 'report stats', handler: reportStatsRoute, path: '/api/admin/reports/stats', moderatorOk: true },
    { name: 'detail', handler: reportDetailRoute, path: `/api/admin/reports/${reportId}`, params: { reportId }, moderatorOk: true },
    {
      name: 'action',
      handler: reportActionRoute,
      path: `/api/admin/reports/${reportId}`,
      method: 'POST',
      params: { reportId },
      body: { action: 'escalate', resolution: 'Needs a second look' },
      moderatorOk: true,
    },
    { name: 'stats', handler: statsRoute, path: '/api/admin/stats', moderatorOk: false },
    { name: 'trades', handler: adminTradesRoute, path: '/api/admin/trades', moderatorOk: false },
    { name: 'users', handler: usersRoute, path: '/api/admin/users', moderatorOk: false },
    { name: 'ban', handler: banRoute, path: `/api/admin/users/${userId}/ban`, method: 'POST', params: { userId }, body: { action: 'unban' }, moderatorOk: false },
    { name: 'role', handler: roleRoute, path: `/api/admin/users/${userId}/role`, method: 'POST', params: { userId }, body: { role: 'user' }, moderatorOk: false },
  ];

  it('401 without a token and 403 for a plain user on every route; moderators get the queue and 403 on the rest; administrators everything', async () => {
    const target = await seedUser();
    const report = await insertReport({ reportedUserId: target.id });
    for (const c of cases(report.id, target.id)) {
      const opts = { method: c.method ?? 'GET', params: c.params, body: c.body };
      const anonymous = await call(c.handler, c.path, opts);
      expect(anonymous.status, `${c.name} anonymous`).toBe(401);
      expect(anonymous.body.error.code).toBe('UNAUTHORIZED');
      const plain = await call(c.handler, c.path, { ...opts, token: await tokenOf(player) });
      expect(plain.status, `${c.name} player`).toBe(403);
      expect(plain.body.error.code).toBe('FORBIDDEN');
      const mod = await call(c.handler, c.path, { ...opts, token: await tokenOf(moderator) });
      expect(mod.status, `${c.name} moderator`).toBe(c.moderatorOk ? 200 : 403);
      const adm = await call(c.handler, c.path, { ...opts, token: await tokenOf(admin) });
      expect(adm.status, `${c.name} admin`).toBe(200);
    }
  });

  it('authorisation before validation: a player (or a moderator on an admin route) gets 403 whatever the params, query or body, and nothing changes; an administrator gets the 400', async () => {
    const target = await seedUser();
    const report = await insertReport({ reportedUserId: target.id });
    type TMalformed = { name: string; handler: any; path: string; method?: string; params?: Record<string, string>; body?: unknown; query?: Record<string, string | number>; moderatorOk?: boolean };
    const malformed: TMalformed[] = [
      { name: 'ban: unknown body field', handler: banRoute, path: `/api/admin/users/${target.id}/ban`, params: { userId: target.id }, body: { action: 'ban', isAdmin: true, reason: 1 } },
      { name: 'ban: body of the wrong type', handler: banRoute, path: `/api/admin/users/${target.id}/ban`, params: { userId: target.id }, body: [] },
      { name: 'role: bad role', handler: roleRoute, path: `/api/admin/users/${target.id}/role`, params: { userId: target.id }, body: { role: 'root' } },
      { name: 'role: NUL in the path', handler: roleRoute, path: `/api/admin/users/x/role`, params: { userId: 'x\u0000' }, body: { role: 'user' } },
      { name: 'action: bad action', handler: reportActionRoute, path: `/api/admin/reports/${report.id}`, params: { reportId: report.id }, body: { action: 'obliterate' }, moderatorOk: true },
      { name: 'users: bad query', handler: usersRoute, path: '/api/admin/users', method: 'GET', query: { sortBy: 'nonsense', limit: -1 } },
    ];
    const before = await (await getDb()).select().from(users).where(eq(users.id, target.id));
    for (const c of malformed) {
      const opts = { method: c.method ?? 'POST', params: c.params, body: c.body, query: c.query };
      const plain = await call(c.handler, c.path, { ...opts, token: await tokenOf(player) });
      expect(plain.status, `${c.name} as a player: ${JSON.stringify(plain.body)}`).toBe(403);
      expect(plain.body.error.code).toBe('FORBIDDEN');
      expect(JSON.stringify(plain.body), 'nothing of the schema leaks').not.toMatch(/issues|sortBy|role|action/);
      if (!c.moderatorOk) expect((await call(c.handler, c.path, { ...opts, token: await tokenOf(moderator) })).status, `${c.name} as a moderator`).toBe(403);
      const adm = await call(c.handler, c.path, { ...opts, token: await tokenOf(admin) });
      expect(adm.status, `${c.name} as an administrator`).toBe(400);
    }
    expect(await (await getDb()).select().from(users).where(eq(users.id, target.id))).toEqual(before);
    expect(await (await getDb()).select().from(reportActions).where(eq(reportActions.reportId, report.id))).toHaveLength(0);
  });

  it('ban_user is for administrators only: a moderator gets 403 and nothing changes', async () => {
    const target = await seedUser();
    const report = await insertReport({ reportedUserId: target.id });
    const res = await act(moderator, report.id, 'ban_user', 'Spam account');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    const db = await getDb();
    const [u] = await db.select().from(users).where(eq(users.id, target.id));
    expect(u!.isBanned).toBe(false);
    expect(await db.select().from(reportActions).where(eq(reportActions.reportId, report.id))).toHaveLength(0);
  });
});

describe('GET /api/admin/reports', () => {
  let subject: TUserRow;
  let reporterB: TUserRow;
  let postId: string;
  let rows: TReportRow[];

  beforeAll(async () => {
    subject = await seedUser({ displayName: 'Queue Subject' });
    reporterB = await seedUser();
    postId = (await createPost({ caller: callerOfUser(subject), content: 'A post that someone will report', type: 'post' })).post.id;
    rows = [];
    rows.push(await insertReport({ reportedUserId: subject.id, priority: 'low', category: 'spam' }));
    rows.push(await insertReport({ reportedUserId: subject.id, priority: 'critical', category: 'violence', status: 'reviewing' }));
    rows.push(await insertReport({ reportedUserId: subject.id, reportedPostId: postId, priority: 'high', category: 'hate_speech', reporterId: reporterB.id }));
    rows.push(await insertReport({ reportedUserId: subject.id, priority: 'medium', category: 'other', source: 'system', details: { rule: 'test' } }));
    rows.push(await insertReport({ reportedUserId: subject.id, priority: 'medium', category: 'harassment', status: 'resolved', resolvedById: admin.id, resolution: 'Done' }));
    // updated_at in the reverse order of creation, so the two sorts differ.
    const db = await getDb();
    for (const [i, r] of rows.entries()) {
      await db.update(reports).set({ updatedAt: new Date(reportClock + (rows.length - i) * SECOND) }).where(eq(reports.id, r.id));
    }
  });

  it('answers ZAdminReport rows: reporter, reported user with ban state, reported post, resolver, related count', async () => {
    const res = await queue(moderator, { reportedUserId: subject.id, sortOrder: 'asc' });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ limit: 50, offset: 0, total: 5 });
    expect(ids(res.body.reports)).toEqual(ids(rows));
    const [first, , postReport, system, resolved] = res.body.reports;
    expect(first).toMatchObject({
      reporter: { id: player.id, username: player.username },
      reportedUser: { id: subject.id, username: subject.username, displayName: 'Queue Subject', isBanned: false },
      reportedPost: null,
      resolvedBy: null,
      source: 'user',
      // The other four reports name the same user.
      relatedCount: 4,
    });
    expect(postReport).toMatchObject({
      reportType: 'post',
      reporter: { id: reporterB.id },
      reportedPost: { id: postId, content: 'A post that someone will report', authorId: subject.id, visible: true },
      // No other report names this post.
      relatedCount: 0,
    });
    expect(system).toMatchObject({ source: 'system', reporterId: null, reporter: null });
    expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: admin.id, username: admin.username }, resolution: 'Done' });
  });

  it('filters by status, category, priority, reportType, reporterId, reportedUserId, reportedPostId and source', async () => {
    const expectOnly = async (query: Record<string, string>, expected: TReportRow[]) => {
      const res = await queue(moderator, { reportedUserId: subject.id, sortOrder: 'asc', ...query });
      expect(res.status, JSON.stringify(query)).toBe(200);
      expect(ids(res.body.reports), JSON.stringify(query)).toEqual(ids(expected));
      expect(res.body.pagination.total).toBe(expected.length);
    };
    await expectOnly({ status: 'reviewing' }, [rows[1]!]);
    await expectOnly({ status: 'pending' }, [rows[0]!, rows[2]!, rows[3]!]);
    await expectOnly({ category: 'hate_speech' }, [rows[2]!]);
    await expectOnly({ priority: 'medium' }, [rows[3]!, rows[4]!]);
    await expectOnly({ reportType: 'post' }, [rows[2]!]);
    await expectOnly({ reportType: 'user' }, [rows[0]!, rows[1]!, rows[3]!, rows[4]!]);
    await expectOnly({ reporterId: reporterB.id }, [rows[2]!]);
    await expectOnly({ reportedPostId: postId }, [rows[2]!]);
    await expectOnly({ source: 'system' }, [rows[3]!]);
    await expectOnly({ source: 'user' }, [rows[0]!, rows[1]!, rows[2]!, rows[4]!]);
    // Each filter alone: every row matches it.
    for (const [k, v] of [['status', 'pending'], ['category', 'spam'], ['priority', 'low'], ['reportType', 'post'], ['source', 'system']] as const) {
      const res = await queue(moderator, { [k]: v, limit: 100 });
      expect(res.body.reports.length).toBeGreaterThan(0);
      expect(res.body.reports.every((r: Record<string, string>) => r[k] === v)).toBe(true);
    }
    expect((await queue(moderator, { status: 'closed' })).status).toBe(400);
    expect((await queue(moderator, { sortBy: 'severity' })).status).toBe(400);
  });

  it('sorts by created, updated and priority (critical > high > medium > low), both ways, and pages', async () => {
    const order = async (sortBy: string, sortOrder: string) =>
      ids((await queue(moderator, { reportedUserId: subject.id, sortBy, sortOrder })).body.reports);
    expect(await order('created', 'asc')).toEqual(ids(rows));
    expect(await order('created', 'desc')).toEqual(ids(rows).reverse());
    expect(await order('updated', 'asc')).toEqual(ids(rows).reverse());
    expect(await order('updated', 'desc')).toEqual(ids(rows));
    // Ties on priority (the two mediums) follow creation time in the same direction.
    expect(await order('priority', 'desc')).toEqual([rows[1]!.id, rows[2]!.id, rows[4]!.id, rows[3]!.id, rows[0]!.id]);
    expect(await order('priority', 'asc')).toEqual([rows[0]!.id, rows[3]!.id, rows[4]!.id, rows[2]!.id, rows[1]!.id]);
    // Newest first by default.
    expect(ids((await queue(moderator, { reportedUserId: subject.id })).body.reports)).toEqual(ids(rows).reverse());
    const page = await queue(moderator, { reportedUserId: subject.id, sortOrder: 'asc', limit: 2, offset: 1 });
    expect(ids(page.body.reports)).toEqual([rows[1]!.id, rows[2]!.id]);
    expect(page.body.pagination).toEqual({ limit: 2, offset: 1, total: 5 });
  });

  it('reads a page of 20 in the same number of statements as a page of 2', async () => {
    const many = await seedUser();
    for (let i = 0; i < 20; i++) await insertReport({ reportedUserId: many.id, reporterId: i % 2 ? player.id : reporterB.id });
    const token = await tokenOf(moderator);
    const count = async (limit: number) => {
      const spies = await spyOnStatements();
      const res = await call(reportsRoute, '/api/admin/reports', { token, query: { reportedUserId: many.id, limit } });
      expect(res.body.reports).toHaveLength(limit);
      const n = spies.execCalls().length + spies.selectCalls().length;
      spies.restore();
      return n;
    };
    const small = await count(2);
    expect(await count(20)).toBe(small);
  });
});

describe('POST /api/admin/reports/{reportId} and the detail', () => {
  it('review, resolve, dismiss, escalate: each move allowed moves, every other one answers 409 INVALID_REPORT_STATE', async () => {
    const target = await seedUser();
    const a = await insertReport({ reportedUserId: target.id });

    const reviewed = await act(moderator, a.id, 'review', 'Looking into it');
    expect(reviewed.status).toBe(200);
    expect(reviewed.body.report).toMatchObject({ id: a.id, status: 'reviewing', priority: 'low', resolution: null, resolvedBy: null });
    expect(reviewed.body.message).toMatch(/review/i);
    const again = await act(moderator, a.id, 'review');
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_REPORT_STATE');

    const resolved = await act(moderator, a.id, 'resolve', 'Removed the spam links');
    expect(resolved.status).toBe(200);
    expect(resolved.body.report).toMatchObject({ status: 'resolved', resolution: 'Removed the spam links', resolvedBy: { id: moderator.id } });
    expect(resolved.body.report.resolvedAt).not.toBeNull();
    for (const action of ['review', 'resolve', 'dismiss']) {
      const refused = await act(moderator, a.id, action);
      expect(refused.status, action).toBe(409);
      expect(refused.body.error.code).toBe('INVALID_REPORT_STATE');
    }
    // Escalate works in any state and leaves the status.
    const escalated = await act(admin, a.id, 'escalate', 'Repeat offender');
    expect(escalated.status).toBe(200);
    expect(escalated.body.report).toMatchObject({ status: 'resolved', priority: 'critical', resolution: 'Removed the spam links' });

    // Dismiss straight from pending; then nothing but escalate moves it.
    const b = await insertReport({ reportedUserId: target.id, priority: 'medium' });
    const dismissed = await act(admin, b.id, 'dismiss', 'Not a violation');
    expect(dismissed.body.report).toMatchObject({ status: 'dismissed', resolution: 'Not a violation', resolvedBy: { id: admin.id } });
    for (const action of ['review', 'resolve', 'dismiss']) expect((await act(admin, b.id, action)).status, action).toBe(409);
    // Resolve straight from pending.
    const c = await insertReport({ reportedUserId: target.id });
    expect((await act(moderator, c.id, 'resolve', 'Warned the user')).body.report.status).toBe('resolved');
    // Escalating a pending report keeps it pending.
    const d = await insertReport({ reportedUserId: target.id });
    expect((await act(moderator, d.id, 'escalate', 'Looks serious')).body.report).toMatchObject({ status: 'pending', priority: 'critical' });

    const missing = await act(moderator, 'no-such-report', 'resolve');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('REPORT_NOT_FOUND');
    const badBody = await call(reportActionRoute, `/api/admin/reports/${c.id}`, {
      method: 'POST',
      token: await tokenOf(admin),
      params: { reportId: c.id },
      body: { action: 'resolve', resolution: '' },
    });
    expect(badBody.status).toBe(400);
    const badAction = await call(reportActionRoute, `/api/admin/reports/${c.id}`, {
      method: 'POST',
      token: await tokenOf(admin),
      params: { reportId: c.id },
      body: { action: 'unban_user', resolution: 'x' },
    });
    expect(badAction.status).toBe(400);
  });

  it('the detail shows the report, its details, related reports, the audit trail and the reported user\'s recent posts', async () => {
    const target = await seedUser();
    const postIds: string[] = [];
    const base = Date.now();
    try {
      for (let i = 0; i < 6; i++) {
        setFixedTime(new Date(base + i * SECOND)); // distinct times: the order is under test
        postIds.push((await createPost({ caller: callerOfUser(target), content: `Recent post number ${i}`, type: 'post' })).post.id);
      }
    } finally {
      resetClock();
    }
    // What the self-dealing detector stores (lib/admin/detector), the shape the detail declares.
    const details = {
      rule: 'wash_pair',
      key: `${target.id}|other`,
      accounts: [target.id, 'other'],
      evidence: { marketIds: ['m1'], tradeIds: ['t1'], sums: { pairedTrades: { [target.id]: 4, other: 4 }, gainAtReferencePrice: { [target.id]: '12.5', other: '-12.5' }, volume: '100' } },
    };
    const a = await insertReport({ reportedUserId: target.id, source: 'system', category: 'other', details });
    const b = await insertReport({ reportedUserId: target.id });
    const p = await insertReport({ reportedUserId: target.id, reportedPostId: postIds[0]! });
    const p2 = await insertReport({ reportedUserId: target.id, reportedPostId: postIds[0]!, reporterId: moderator.id });
    await act(moderator, a.id, 'review', 'Claiming this one');
    await new Promise((r) => setTimeout(r, 5));
    await act(admin, a.id, 'escalate', 'Large sums involved');
    await new Promise((r) => setTimeout(r, 5));
    await act(admin, a.id, 'resolve', 'Confirmed and handled');

    const res = await call(reportDetailRoute, `/api/admin/reports/${a.id}`, { token: await tokenOf(moderator), params: { reportId: a.id } });
    expect(res.status).toBe(200);
    expect(res.body.report).toMatchObject({ id: a.id, status: 'resolved', priority: 'critical', details });
    expect(res.body.report.relatedCount).toBe(3);
    expect(ids(res.body.relatedReports).sort()).toEqual([b.id, p.id, p2.id].sort());
    expect(res.body.actions.map((x: any) => [x.action, x.actor.id, x.note, x.fromStatus, x.toStatus, x.fromPriority, x.toPriority])).toEqual([
      ['review', moderator.id, 'Claiming this one', 'pending', 'reviewing', 'low', 'low'],
      ['escalate', admin.id, 'Large sums involved', 'reviewing', 'reviewing', 'low', 'critical'],
      ['resolve', admin.id, 'Confirmed and handled', 'reviewing', 'resolved', 'critical', 'critical'],
    ]);
    expect(res.body.recentPosts.map((x: any) => x.id)).toEqual(postIds.slice(1).reverse());
    expect(res.body.recentPosts[0]).toMatchObject({ authorId: target.id, visible: true });

    // A post report's related reports are the other reports of the same post.
    const postDetail = await call(reportDetailRoute, `/api/admin/reports/${p.id}`, { token: await tokenOf(admin), params: { reportId: p.id } });
    expect(ids(postDetail.body.relatedReports)).toEqual([p2.id]);
    expect(postDetail.body.report.details).toBeNull();
    expect(postDetail.body.actions).toEqual([]);

    const missing = await call(reportDetailRoute, '/api/admin/reports/nope', { token: await tokenOf(admin), params: { reportId: 'nope' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('REPORT_NOT_FOUND');
  });

  it('ban_user bans the reported user at once (status unchanged), records the ban with the report, and refuses an administrator', async () => {
    const target = await seedUser();
    const report = await insertReport({ reportedUserId: target.id, status: 'reviewing', priority: 'high' });
    const res = await act(admin, report.id, 'ban_user', 'Spam ring, banned');
    expect(res.status).toBe(200);
    expect(res.body.report).toMatchObject({ status: 'reviewing', priority: 'high', reportedUser: { id: target.id, isBanned: true } });
    const db = await getDb();
    const bans = await db.select().from(userBans).where(eq(userBans.userId, target.id));
    expect(bans).toEqual([expect.objectContaining({ action: 'ban', actorId: admin.id, reportId: report.id, reason: 'Spam ring, banned' })]);
    const [trail] = await db.select().from(reportActions).where(eq(reportActions.reportId, report.id));
    expect(trail).toMatchObject({ action: 'ban_user', actorId: admin.id, fromStatus: 'reviewing', toStatus: 'reviewing', note: 'Spam ring, banned' });
    // The banned user's writes are refused.
    const write = await call(createPostRoute, '/api/posts', { method: 'POST', token: await tokenOf(target), body: { content: 'Am I still here?' } });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('USER_BANNED');
    // Banning again through another report writes no second ban row.
    const report2 = await insertReport({ reportedUserId: target.id });
    expect((await act(admin, report2.id, 'ban_user', 'Again')).status).toBe(200);
    expect(await db.select().from(userBans).where(eq(userBans.userId, target.id))).toHaveLength(1);

    const aboutAdmin = await insertReport({ reportedUserId: admin2.id });
    const refused = await act(admin, aboutAdmin.id, 'ban_user', 'Nope');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    const aboutSelf = await insertReport({ reportedUserId: admin.id });
    expect((await act(admin, aboutSelf.id, 'ban_user', 'Nope')).status).toBe(403);
    const [still] = await db.select().from(users).where(eq(users.id, admin2.id));
    expect(still!.isBanned).toBe(false);
    expect(await db.select().from(reportActions).where(eq(reportActions.reportId, aboutAdmin.id))).toHaveLength(0);
  });

  it('two moderators resolving and dismissing the same report at once: one wins, the other answers 409', async () => {
    const target = await seedUser();
    const report = await insertReport({ reportedUserId: target.id });
    const [x, y] = await Promise.all([act(moderator, report.id, 'resolve', 'Resolved it'), act(admin, report.id, 'dismiss', 'Dismissed it')]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    const trail = await (await getDb()).select().from(reportActions).where(eq(reportActions.reportId, report.id));
    expect(trail).toHaveLength(1);
  });
});

describe('GET /api/admin/reports/stats', () => {
  it('answers the totals, every category and priority, the top reported users and reporters, and the last 7 days', async () => {
    const before = (await call(reportStatsRoute, '/api/admin/reports/stats', { token: await tokenOf(moderator) })).body;
    const loud = await seedUser();
    const reported = await seedUser();
    // More reports than anyone else got or filed in this file, so both lead their lists.
    for (let i = 0; i < 40; i++) await insertReport({ reportedUserId: reported.id, reporterId: loud.id, category: 'misinformation', priority: 'medium' });
    const old = await insertReport({ reportedUserId: reported.id, reporterId: loud.id, category: 'misinformation', priority: 'medium' });
    await (await getDb()).update(reports).set({ createdAt: new Date(now().getTime() - 8 * 86_400_000) }).where(eq(reports.id, old.id));
    const r = await insertReport({ reportedUserId: reported.id, reporterId: loud.id, category: 'impersonation', priority: 'high' });
    await act(admin, r.id, 'resolve', 'Handled');

    const res = await call(reportStatsRoute, '/api/admin/reports/stats', { token: await tokenOf(moderator) });
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s.totals.total).toBe(before.totals.total + 42);
    expect(s.totals.total).toBe(s.totals.pending + s.totals.reviewing + s.totals.resolved + s.totals.dismissed);
    expect(s.totals.pending).toBe(before.totals.pending + 41);
    expect(s.totals.resolved).toBe(before.totals.resolved + 1);
    expect(s.byCategory.map((c: any) => c.category)).toEqual([
      'spam',
      'harassment',
      'hate_speech',
      'violence',
      'misinformation',
      'inappropriate',
      'impersonation',
      'self_harm',
      'other',
    ]);
    const cat = (body: any, c: string) => body.byCategory.find((x: any) => x.category === c).count;
    expect(cat(s, 'misinformation')).toBe(cat(before, 'misinformation') + 41);
    expect(s.byPriority.map((p: any) => p.priority)).toEqual(['low', 'medium', 'high', 'critical']);
    expect(s.byPriority.reduce((n: number, p: any) => n + p.count, 0)).toBe(s.totals.total);
    expect(s.topReportedUsers[0]).toEqual({ user: { id: reported.id, username: reported.username }, reportCount: 42 });
    expect(s.topReporters[0]).toEqual({ user: { id: loud.id, username: loud.username }, reportCount: 42 });
    expect(s.topReportedUsers.length).toBeLessThanOrEqual(10);
    expect(s.recentActivity.last7Days).toBe(before.recentActivity.last7Days + 41);
    expect(s.recentActivity.resolved7Days).toBe(before.recentActivity.resolved7Days + 1);
  });
});

describe('bans', () => {
  it('a banned user cannot write (403 USER_BANNED), their post leaves the feed, /api/users/me still answers; unban restores both', async () => {
    const target = await seedUser();
    const reader = await seedUser();
    const created = await call(createPostRoute, '/api/posts', { method: 'POST', token: await tokenOf(target), body: { content: 'Before the ban' } });
    expect(created.status).toBe(201);
    const postId = created.body.post.id as string;
    const feedHas = async () => {
      const anon = await call(listPostsRoute, '/api/posts', { query: { userId: target.id } });
      const other = await call(listPostsRoute, '/api/posts', { token: await tokenOf(reader), query: { limit: 100 } });
      return [ids(anon.body.posts).includes(postId), ids(other.body.posts).includes(postId)];
    };
    expect(await feedHas()).toEqual([true, true]);

    const ban = await call(banRoute, `/api/admin/users/${target.id}/ban`, {
      method: 'POST',
      token: await tokenOf(admin),
      params: { userId: target.id },
      body: { reason: 'Spamming' },
    });
    expect(ban.status).toBe(200);
    expect(ban.body.user).toEqual({ id: target.id, username: target.username, isBanned: true, bannedUntil: null });
    const refused = await call(createPostRoute, '/api/posts', { method: 'POST', token: await tokenOf(target), body: { content: 'After the ban' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('USER_BANNED');
    expect(await feedHas()).toEqual([false, false]);
    const me = await call(meRoute, '/api/users/me', { token: await tokenOf(target) });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: target.id, isBanned: true });

    // Banning again changes nothing and writes no second row.
    const again = await call(banRoute, `/api/admin/users/${target.id}/ban`, { method: 'POST', token: await tokenOf(admin2), params: { userId: target.id }, body: {} });
    expect(again.status).toBe(200);
    expect(again.body.user.isBanned).toBe(true);
    expect(again.body.message).toMatch(/already/);
    const db = await getDb();
    expect(await db.select().from(userBans).where(eq(userBans.userId, target.id))).toHaveLength(1);

    const unban = await call(banRoute, `/api/admin/users/${target.id}/ban`, { method: 'POST', token: await tokenOf(admin), params: { userId: target.id }, body: { action: 'unban', reason: 'Appeal accepted' } });
    expect(unban.status).toBe(200);
    expect(unban.body.user.isBanned).toBe(false);
    expect(await feedHas()).toEqual([true, true]);
    expect((await call(createPostRoute, '/api/posts', { method: 'POST', token: await tokenOf(target), body: { content: 'Back again' } })).status).toBe(201);
    const history = await db.select().from(userBans).where(eq(userBans.userId, target.id));
    expect(history.map((h) => [h.action, h.reason]).sort()).toEqual([
      ['ban', 'Spamming'],
      ['unban', 'Appeal accepted'],
    ]);
  });

  it('refuses oneself (400 CANNOT_TARGET_SELF), another administrator (403), an unknown user (404) and a bad action (400)', async () => {
    const ban = async (who: TUserRow, userId: string, body: unknown = {}) =>
      call(banRoute, `/api/admin/users/${userId}/ban`, { method: 'POST', token: await tokenOf(who), params: { userId }, body });
    const self = await ban(admin, admin.id);
    expect(self.status).toBe(400);
    expect(self.body.error.code).toBe('CANNOT_TARGET_SELF');
    const other = await ban(admin, admin2.id);
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('FORBIDDEN');
    const unknown = await ban(admin, 'no-such-user');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('USER_NOT_FOUND');
    expect((await ban(admin, player.id, { action: 'suspend' })).status).toBe(400);
    expect((await ban(admin, player.id, { reason: 'x'.repeat(501) })).status).toBe(400);
    const [p] = await (await getDb()).select().from(users).where(eq(users.id, player.id));
    expect(p!.isBanned).toBe(false);
  });

  it('bans an NPC actor too', async () => {
    const npc = await seedUser({ isActor: true });
    const res = await call(banRoute, `/api/admin/users/${npc.id}/ban`, { method: 'POST', token: await tokenOf(admin), params: { userId: npc.id }, body: { action: 'ban' } });
    expect(res.status).toBe(200);
    expect(res.body.user.isBanned).toBe(true);
  });
});

describe('POST /api/admin/users/{userId}/role', () => {
  it('promotes to moderator (who can then work the queue but not ban), to administrator, and back to user; never oneself', async () => {
    const u = await seedUser();
    const setRole = async (role: string, target = u) =>
      call(roleRoute, `/api/admin/users/${target.id}/role`, { method: 'POST', token: await tokenOf(admin), params: { userId: target.id }, body: { role } });
    expect((await queue(u, {})).status).toBe(403);

    const promoted = await setRole('moderator');
    expect(promoted.status).toBe(200);
    expect(promoted.body.user).toEqual({ id: u.id, username: u.username, role: 'moderator' });
    expect((await queue(u, {})).status).toBe(200);
    const target = await seedUser();
    const report = await insertReport({ reportedUserId: target.id });
    expect((await act(u, report.id, 'review')).status).toBe(200);
    expect((await act(u, report.id, 'ban_user')).status).toBe(403);
    expect((await call(usersRoute, '/api/admin/users', { token: await tokenOf(u) })).status).toBe(403);

    expect((await setRole('admin')).body.user.role).toBe('admin');
    expect((await call(usersRoute, '/api/admin/users', { token: await tokenOf(u) })).status).toBe(200);
    const [row] = await (await getDb()).select().from(users).where(eq(users.id, u.id));
    expect(row).toMatchObject({ isAdmin: true, isModerator: false });

    expect((await setRole('user')).body.user.role).toBe('user');
    expect((await queue(u, {})).status).toBe(403);

    const self = await call(roleRoute, `/api/admin/users/${admin.id}/role`, { method: 'POST', token: await tokenOf(admin), params: { userId: admin.id }, body: { role: 'user' } });
    expect(self.status).toBe(400);
    expect(self.body.error.code).toBe('CANNOT_TARGET_SELF');
    const unknown = await call(roleRoute, '/api/admin/users/nope/role', { method: 'POST', token: await tokenOf(admin), params: { userId: 'nope' }, body: { role: 'moderator' } });
    expect(unknown.status).toBe(404);
    expect((await setRole('owner')).status).toBe(400);
  });
});

describe('GET /api/admin/stats', () => {
  it('counts users, activity, trades, volume, open interest and reports, and a zero-filled series by day', async () => {
    const token = await tokenOf(admin);
    const before = (await call(statsRoute, '/api/admin/stats', { token })).body;
    const trader = await seedUser({ balance: '5000' });
    const quiet = await seedUser();
    await (await getDb()).update(users).set({ isAgent: true }).where(eq(users.id, quiet.id));
    const market = await createMarket({ caller: null, text: 'Will the admin stats add up?', resolutionDate: new Date(now().getTime() + 7 * 86_400_000) });
    await buyShares({ caller: callerOfUser(trader), marketId: market.id, outcome: 'YES', amount: '100' });
    await buyShares({ caller: callerOfUser(trader), marketId: market.id, outcome: 'NO', amount: '50' });
    await createPost({ caller: callerOfUser(trader), content: 'I just traded', type: 'post' });
    // Filed now (the helper's own clock starts an hour back, which is yesterday just after midnight).
    await insertReport({ reportedUserId: trader.id, reporterId: quiet.id, createdAt: now(), updatedAt: now() });

    const res = await call(statsRoute, '/api/admin/stats', { token, query: { days: 7 } });
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s.users.total).toBe(before.users.total + 2);
    expect(s.users.players).toBe(before.users.players + 1);
    expect(s.users.agents).toBe(before.users.agents + 1);
    expect(s.users.total).toBe(s.users.players + s.users.actors + s.users.agents);
    expect(s.users.new24h).toBe(before.users.new24h + 2);
    expect(s.users.active24h).toBe(before.users.active24h + 1);
    expect(s.users.active7d).toBeGreaterThanOrEqual(s.users.active24h);
    expect(s.trading.trades).toBe(before.trading.trades + 2);
    expect(s.trading.trades24h).toBe(before.trading.trades24h + 2);
    expect(s.trading.volume).toBeCloseTo(before.trading.volume + 150, 6);
    expect(s.trading.volume24h).toBeCloseTo(before.trading.volume24h + 150, 6);
    expect(s.trading.predictionOpenInterest).toBeCloseTo(before.trading.predictionOpenInterest + 150, 6);
    expect(s.trading.openInterest).toBeCloseTo(s.trading.perpOpenInterest + s.trading.predictionOpenInterest, 6);
    // The perps part is what the tickers show: open positions valued at the mark.
    const tickers = (await call(perpsListRoute, '/api/markets/perps')).body.markets as { openInterest: number }[];
    expect(s.trading.perpOpenInterest).toBeCloseTo(tickers.reduce((a, t) => a + t.openInterest, 0), 2);
    expect(s.trading.activeMarkets).toBe(before.trading.activeMarkets + 1);
    expect(s.reports.total).toBe(before.reports.total + 1);
    expect(s.reports.pending).toBe(before.reports.pending + 1);

    expect(s.byDay).toHaveLength(7);
    const today = now().toISOString().slice(0, 10);
    expect(s.byDay[6].date).toBe(today);
    expect(s.byDay.map((d: any) => d.date)).toEqual([...s.byDay.map((d: any) => d.date)].sort());
    const todayBefore = before.byDay[before.byDay.length - 1];
    expect(s.byDay[6]).toMatchObject({ trades: todayBefore.trades + 2, posts: todayBefore.posts + 1, reports: todayBefore.reports + 1, signups: todayBefore.signups + 2 });
    expect(s.byDay[6].volume).toBeCloseTo(todayBefore.volume + 150, 6);
    expect(s.byDay[6].activeUsers).toBe(todayBefore.activeUsers + 1);
    expect(s.byDay[0]).toMatchObject({ trades: 0, posts: 0, signups: 0 });
    expect((await call(statsRoute, '/api/admin/stats', { token, query: { days: 91 } })).status).toBe(400);
    expect((await call(statsRoute, '/api/admin/stats', { token })).body.byDay).toHaveLength(30);
  });
});

describe('GET /api/admin/users', () => {
  let tag: string;
  let alice: TUserRow;
  let bob: TUserRow;
  let carol: TUserRow;

  beforeAll(async () => {
    tag = `zq${Math.floor(Math.random() * 1e6)}`;
    alice = await seedUser({ username: `${tag}_alice`, displayName: 'Alice Wonder', balance: '300' });
    bob = await seedUser({ username: `${tag}bob`, displayName: `${tag} Bob 100%`, balance: '2000' });
    carol = await seedUser({ username: `${tag}_carol`, displayName: 'Carol', balance: '50' });
    const market = await createMarket({ caller: null, text: `Users list question ${tag}`, resolutionDate: new Date(now().getTime() + 86_400_000) });
    for (let i = 0; i < 3; i++) await buyShares({ caller: callerOfUser(carol), marketId: market.id, outcome: 'YES', amount: '5' });
    await buyShares({ caller: callerOfUser(alice), marketId: market.id, outcome: 'NO', amount: '5' });
    await insertReport({ reportedUserId: bob.id });
    await insertReport({ reportedUserId: bob.id, status: 'resolved' });
    await (await getDb()).update(users).set({ isModerator: true }).where(eq(users.id, carol.id));
  });

  const list = async (query: Record<string, string | number>) => {
    const res = await call(usersRoute, '/api/admin/users', { token: await tokenOf(admin), query });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { users: any[]; pagination: { total: number; limit: number; offset: number } };
  };

  it('answers each user with role, balance and PnL as decimal strings, trade and report counts', async () => {
    // Usernames sort byte by byte ("_" before letters), the same on every database.
    const res = await list({ search: tag, sortBy: 'username', sortOrder: 'asc' });
    expect(res.users.map((u) => u.id)).toEqual([alice.id, carol.id, bob.id]);
    expect(res.pagination).toEqual({ limit: 50, offset: 0, total: 3 });
    const [a, c, b] = res.users;
    expect(a).toMatchObject({ username: alice.username, displayName: 'Alice Wonder', role: 'user', isActor: false, isAgent: false, isBanned: false, tradeCount: 1, reportCount: 0, openReportCount: 0 });
    expect(a.balance).toBe('295');
    // The one P&L (lib/equity): her $5 buy is marked at the price it moved to, less its fee.
    const numbers = (await readAccountNumbers(alice.id))!;
    expect(a).toMatchObject({ lifetimePnL: numbers.pnl, equity: numbers.equity });
    expect(numbers.pnl).not.toBe('0');
    expect(Math.abs(Number(numbers.pnl))).toBeLessThan(1);
    expect(b).toMatchObject({ balance: '2000', tradeCount: 0, reportCount: 2, openReportCount: 1 });
    expect(c).toMatchObject({ role: 'moderator', balance: '35', tradeCount: 3 });
  });

  it('searches usernames and display names case-insensitively, with LIKE wildcards taken literally', async () => {
    expect((await list({ search: `${tag.toUpperCase()}_A` })).users.map((u) => u.id)).toEqual([alice.id]);
    expect((await list({ search: 'alice wonder' })).users.map((u) => u.id)).toContain(alice.id);
    // "_" is a literal underscore: "<tag>_" matches alice and carol, not bob.
    expect((await list({ search: `${tag}_` })).users.map((u) => u.id).sort()).toEqual([alice.id, carol.id].sort());
    expect((await list({ search: `${tag} Bob 100%` })).users.map((u) => u.id)).toEqual([bob.id]);
    expect((await list({ search: `${tag}%` })).users).toEqual([]);
  });

  it('filters players, actors, agents, banned, staff and reported', async () => {
    const npc = await seedUser({ isActor: true, username: `${tag}npc` });
    const agent = await seedUser({ username: `${tag}agent` });
    const banned = await seedUser({ username: `${tag}banned`, isBanned: true });
    await (await getDb()).update(users).set({ isAgent: true }).where(eq(users.id, agent.id));
    const only = async (filter: string) => (await list({ search: tag, filter, sortBy: 'username', sortOrder: 'asc' })).users.map((u) => u.id);
    expect(await only('actors')).toEqual([npc.id]);
    expect(await only('agents')).toEqual([agent.id]);
    expect(await only('banned')).toEqual([banned.id]);
    expect(await only('staff')).toEqual([carol.id]);
    expect(await only('reported')).toEqual([bob.id]);
    expect(await only('players')).toEqual([alice.id, carol.id, banned.id, bob.id]);
    expect((await only('all')).length).toBe(6);
    const staff = await list({ filter: 'staff', limit: 100 });
    expect(staff.users.every((u) => u.role !== 'user')).toBe(true);
    expect(staff.users.map((u) => u.id)).toEqual(expect.arrayContaining([admin.id, moderator.id]));
  });

  it('sorts by balance, pnl, trades, reports, username and created, and pages; pool accounts are not listed', async () => {
    const order = async (sortBy: string, sortOrder: string) => (await list({ search: tag, sortBy, sortOrder, filter: 'players' })).users.map((u) => u.username);
    const byBalance = await order('balance', 'desc');
    expect(byBalance.indexOf(bob.username)).toBeLessThan(byBalance.indexOf(alice.username));
    expect(byBalance.indexOf(alice.username)).toBeLessThan(byBalance.indexOf(carol.username));
    const trades = await order('trades', 'desc');
    expect(trades[0]).toBe(carol.username);
    expect((await order('reports', 'desc'))[0]).toBe(bob.username);
    const names = await order('username', 'asc');
    expect(names).toEqual([...names].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1)));
    expect(await order('created', 'asc')).toEqual((await order('created', 'desc')).reverse());
    expect((await order('pnl', 'asc')).length).toBeGreaterThan(0);
    const page = await list({ search: tag, sortBy: 'username', sortOrder: 'asc', limit: 1, offset: 1, filter: 'players' });
    expect(page.users).toHaveLength(1);
    expect(page.pagination.total).toBeGreaterThan(1);

    const { pool } = await seedPool();
    const [account] = await (await getDb()).select().from(users).where(eq(users.id, pool.accountUserId));
    expect((await list({ search: account!.username })).users).toEqual([]);
  });
});

describe('GET /api/admin/trades', () => {
  it('answers what GET /api/trades answers for the same filters, banned traders included', async () => {
    const trader = await seedUser();
    const market = await createMarket({ caller: null, text: 'Admin trade feed question', resolutionDate: new Date(now().getTime() + 86_400_000) });
    await buyShares({ caller: callerOfUser(trader), marketId: market.id, outcome: 'YES', amount: '10' });
    await buyShares({ caller: callerOfUser(trader), marketId: market.id, outcome: 'NO', amount: '20' });
    await (await getDb()).update(users).set({ isBanned: true }).where(eq(users.id, trader.id));
    const query = { userId: trader.id, type: 'prediction' };
    const adminRes = await call(adminTradesRoute, '/api/admin/trades', { token: await tokenOf(admin), query });
    expect(adminRes.status).toBe(200);
    expect(adminRes.body.trades.map((t: any) => [t.side, t.amount])).toEqual([
      ['NO', 20],
      ['YES', 10],
    ]);
    expect(adminRes.body.pagination).toEqual({ limit: 50, offset: 0, total: 2 });
    const publicRes = await call(tradesRoute, '/api/trades', { token: await tokenOf(player), query });
    expect(adminRes.body.trades).toEqual(publicRes.body.trades);
    const byMarket = await call(adminTradesRoute, '/api/admin/trades', { token: await tokenOf(admin), query: { marketId: market.id, limit: 1 } });
    expect(byMarket.body.trades).toHaveLength(1);
    expect(byMarket.body.total).toBe(2);
    expect((await call(adminTradesRoute, '/api/admin/trades', { token: await tokenOf(admin), query: { type: 'futures' } })).status).toBe(400);
  });
});
