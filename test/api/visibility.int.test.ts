/**
 * Blocks and mutes hold on every surface (issue 14), through the real handlers, on PGlite and on
 * PostgreSQL: feeds (latest, following with reposts, a profile's posts, by tag), a single post,
 * comments and threads, likes and shares lists, notifications old and new, search, follower lists,
 * trending tags and posts, the refusals of follow, comment, reply, like and share (403
 * USER_BLOCKED, nothing written), mentions, banned authors, the NPCs of the game tick, and the
 * live feed over SSE. Blocks and mutes are made through the moderation routes, which remove
 * follows and announce the change to live streams as production does.
 */
import { and, eq, sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { POST as banRoute } from '@/app/api/admin/users/[userId]/ban/route';
import { POST as likeCommentRoute } from '@/app/api/comments/[id]/like/route';
import { POST as commentRepliesRoute } from '@/app/api/comments/[id]/replies/route';
import { GET as trendingPostsRoute } from '@/app/api/feed/widgets/trending-posts/route';
import { GET as notificationsRoute } from '@/app/api/notifications/route';
import { GET as listCommentsRoute, POST as commentRoute } from '@/app/api/posts/[id]/comments/route';
import { GET as interactionsRoute } from '@/app/api/posts/[id]/interactions/route';
import { POST as likePostRoute } from '@/app/api/posts/[id]/like/route';
import { POST as postReplyRoute } from '@/app/api/posts/[id]/reply/route';
import { GET as getPostRoute } from '@/app/api/posts/[id]/route';
import { POST as shareRoute } from '@/app/api/posts/[id]/share/route';
import { GET as listPostsRoute, POST as createPostRoute } from '@/app/api/posts/route';
import { GET as sseRoute } from '@/app/api/sse/events/route';
import { GET as sseStatsRoute } from '@/app/api/sse/stats/route';
import { GET as tagPostsRoute } from '@/app/api/trending/[tag]/route';
import { GET as trendingTagsRoute } from '@/app/api/trending/tags/route';
import { POST as blockRoute } from '@/app/api/users/[userId]/block/route';
import { POST as followRoute } from '@/app/api/users/[userId]/follow/route';
import { GET as followersRoute } from '@/app/api/users/[userId]/followers/route';
import { GET as followingRoute } from '@/app/api/users/[userId]/following/route';
import { POST as muteRoute } from '@/app/api/users/[userId]/mute/route';
import { GET as userPostsRoute } from '@/app/api/users/[userId]/posts/route';
import { GET as searchRoute } from '@/app/api/users/search/route';
import { getDb, rowsOf } from '@/db/client';
import { actors, blocks, comments, follows, notifications, postLikes, posts, shares, type TUserRow } from '@/db/schema';
import { resetClock } from '@/lib/clock/clock';
import { planNpcTick, runNpcActivity } from '@/lib/game/npc';
import { createRng } from '@/lib/game/rng';
import type { TTickContext } from '@/lib/game/types';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { ensureRealtime, pokeRealtime, stopRealtime } from '@/lib/realtime';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';
import { readFrames } from '@/test/sse';

beforeEach(() => {
  setLimiter(createMemoryLimiter());
  resetClock();
});

// ---------------------------------------------------------------------------------------------
// Helpers: every call goes through a route handler as the given user (null: signed out).

type TPost = { id: string; authorId: string; repost: { userId: string } | null };
type TComment = { id: string; authorId: string; parentCommentId: string | null };
type TNote = { id: string; type: string; actorId: string | null };

const as = async (u: TUserRow | null) => (u ? { token: await tokenFor(u) } : {});

const newPost = async (u: TUserRow, content: string) => {
  const res = await call(createPostRoute, '/api/posts', { method: 'POST', ...(await as(u)), body: { content } });
  expect(res.status).toBe(201);
  return res.body.post.id as string;
};
const newComment = async (u: TUserRow, postId: string, content: string, parentCommentId?: string) => {
  const res = await call(commentRoute, `/api/posts/${postId}/comments`, {
    method: 'POST',
    ...(await as(u)),
    params: { id: postId },
    body: { content, ...(parentCommentId ? { parentCommentId } : {}) },
  });
  expect(res.status).toBe(201);
  return res.body.comment.id as string;
};
const like = async (u: TUserRow, postId: string) => call(likePostRoute, `/api/posts/${postId}/like`, { method: 'POST', ...(await as(u)), params: { id: postId } });
const share = async (u: TUserRow, postId: string) => call(shareRoute, `/api/posts/${postId}/share`, { method: 'POST', ...(await as(u)), params: { id: postId }, body: {} });
const follow = async (u: TUserRow, other: TUserRow) =>
  call(followRoute, `/api/users/${other.id}/follow`, { method: 'POST', ...(await as(u)), params: { userId: other.id } });
const setBlock = async (u: TUserRow, other: TUserRow, action: 'block' | 'unblock') => {
  setLimiter(createMemoryLimiter());
  const res = await call(blockRoute, `/api/users/${other.id}/block`, { method: 'POST', ...(await as(u)), params: { userId: other.id }, body: { action } });
  expect(res.status).toBe(200);
};
const setMute = async (u: TUserRow, other: TUserRow, action: 'mute' | 'unmute') => {
  setLimiter(createMemoryLimiter());
  const res = await call(muteRoute, `/api/users/${other.id}/mute`, { method: 'POST', ...(await as(u)), params: { userId: other.id }, body: { action } });
  expect(res.status).toBe(200);
};

const latestFeed = async (u: TUserRow | null) =>
  (await call(listPostsRoute, '/api/posts', { ...(await as(u)), query: { limit: 100 } })).body.posts as TPost[];
const followingFeed = async (u: TUserRow) =>
  (await call(listPostsRoute, '/api/posts', { ...(await as(u)), query: { following: 'true', limit: 100 } })).body.posts as TPost[];
const profilePosts = async (u: TUserRow | null, of: TUserRow) =>
  (await call(userPostsRoute, `/api/users/${of.id}/posts`, { ...(await as(u)), params: { userId: of.id }, query: { limit: 100 } })).body as {
    posts: TPost[];
    pagination: { total: number };
  };
const readPost = async (u: TUserRow | null, postId: string) => call(getPostRoute, `/api/posts/${postId}`, { ...(await as(u)), params: { id: postId } });
const commentsOf = async (u: TUserRow | null, postId: string) => call(listCommentsRoute, `/api/posts/${postId}/comments`, { ...(await as(u)), params: { id: postId } });
const notesOf = async (u: TUserRow) =>
  (await call(notificationsRoute, '/api/notifications', { ...(await as(u)), query: { limit: 100 } })).body as { notifications: TNote[]; unreadCount: number };
const search = async (u: TUserRow, q: string) => (await call(searchRoute, '/api/users/search', { ...(await as(u)), query: { q } })).body.users as { id: string }[];
const followersOf = async (u: TUserRow, of: TUserRow) =>
  (await call(followersRoute, `/api/users/${of.id}/followers`, { ...(await as(u)), params: { userId: of.id }, query: { limit: 100 } })).body as {
    followers: { id: string }[];
    total: number;
  };
const followingOf = async (u: TUserRow, of: TUserRow) =>
  (await call(followingRoute, `/api/users/${of.id}/following`, { ...(await as(u)), params: { userId: of.id }, query: { limit: 100 } })).body as {
    following: { id: string }[];
    total: number;
  };
const trendingTags = async (u: TUserRow | null) =>
  ((await call(trendingTagsRoute, '/api/trending/tags', { ...(await as(u)), query: { limit: 50 } })).body.tags as { tag: string }[]).map((t) => t.tag);
const tagPosts = async (u: TUserRow | null, tag: string) =>
  (await call(tagPostsRoute, `/api/trending/${tag}`, { ...(await as(u)), params: { tag } })).body as { posts: TPost[]; total: number };
const trendingPosts = async (u: TUserRow | null) =>
  ((await call(trendingPostsRoute, '/api/feed/widgets/trending-posts', { ...(await as(u)), query: { limit: 50 } })).body.posts as { id: string }[]).map((p) => p.id);
const interactionsOf = async (u: TUserRow | null, postId: string) =>
  (await call(interactionsRoute, `/api/posts/${postId}/interactions`, { ...(await as(u)), params: { id: postId } })).body as {
    reactions: { userId: string }[];
    shares: { userId: string }[];
  };

const count = async (query: ReturnType<typeof sql>) => Number(rowsOf<{ n: string | number }>(await (await getDb()).execute(query))[0]!.n);
/** Notification rows written to `to` by `from`, whatever any listing shows. */
const notesWritten = (to: TUserRow, from: TUserRow) => count(sql`select count(*) as n from ${notifications} where user_id = ${to.id} and actor_id = ${from.id}`);

let tagCounter = 0;
const uniqueTag = (who: string) => `vis${who}${Date.now().toString(36)}${++tagCounter}`;

/**
 * Three people and what they did before any block: A and B each post (with a tag of their own),
 * follow each other and C, mention and like each other; C posts; A and B comment on C's post, C
 * replies to both comments; A and B like and share C's post; C likes, comments on and shares A's
 * and B's posts (reposts in A's and B's following feeds, and trending weight).
 */
const stage = async () => {
  const [a, b, c] = [await seedUser(), await seedUser(), await seedUser()];
  const tagA = uniqueTag('a');
  const tagB = uniqueTag('b');
  const pA = await newPost(a, `A says something about #${tagA}`);
  const pB = await newPost(b, `B says something about #${tagB}`);
  const pC = await newPost(c, 'C starts a thread everyone answers');
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    expect((await follow(x, y)).status).toBe(201);
    expect((await follow(x, c)).status).toBe(201);
    await newPost(x, `hello @${y.username}, how are things?`);
  }
  expect((await like(a, pB)).status).toBe(200);
  expect((await like(b, pA)).status).toBe(200);
  const cA = await newComment(a, pC, 'A answers the thread of C');
  const cB = await newComment(b, pC, 'B answers the thread of C');
  const rCA = await newComment(c, pC, 'C replies to what A said', cA);
  const rCB = await newComment(c, pC, 'C replies to what B said', cB);
  for (const x of [a, b]) {
    expect((await like(x, pC)).status).toBe(200);
    expect((await share(x, pC)).status).toBe(201);
  }
  for (const p of [pA, pB]) {
    expect((await like(c, p)).status).toBe(200);
    expect((await share(c, p)).status).toBe(201);
    await newComment(c, p, 'C comments on this post too');
  }
  return { a, b, c, pA, pB, pC, cA, cB, rCA, rCB, tagA, tagB };
};
type TStage = Awaited<ReturnType<typeof stage>>;

/** The other side of `viewer` in a stage, with their post, comment, C's reply to it and tag. */
const sides = (s: TStage, viewer: 'a' | 'b') => {
  const other = viewer === 'a' ? 'b' : 'a';
  const up = (k: 'a' | 'b') => k.toUpperCase() as 'A' | 'B';
  return {
    me: s[viewer],
    them: s[other],
    myPost: s[`p${up(viewer)}`],
    theirPost: s[`p${up(other)}`],
    myComment: s[`c${up(viewer)}`],
    theirComment: s[`c${up(other)}`],
    replyToMine: s[`rC${up(viewer)}`],
    replyToTheirs: s[`rC${up(other)}`],
    theirTag: s[`tag${up(other)}`],
  };
};

// ---------------------------------------------------------------------------------------------

describe.each([
  { blocker: 'a' as const, label: 'A blocks B' },
  { blocker: 'b' as const, label: 'B blocks A' },
])('a block ($label) hides each from the other everywhere', ({ blocker }) => {
  let s: TStage;
  let unreadBefore: Record<'a' | 'b', number>;

  beforeAll(async () => {
    setLimiter(createMemoryLimiter());
    s = await stage();
    // Before the block each sees the other: what the block takes away is really there.
    for (const v of ['a', 'b'] as const) {
      const x = sides(s, v);
      expect((await latestFeed(x.me)).some((p) => p.authorId === x.them.id)).toBe(true);
      expect((await readPost(x.me, x.theirPost)).status).toBe(200);
      expect((await notesOf(x.me)).notifications.some((n) => n.actorId === x.them.id)).toBe(true);
      expect((await search(x.me, x.them.username)).map((u) => u.id)).toContain(x.them.id);
    }
    unreadBefore = { a: (await notesOf(s.a)).unreadCount, b: (await notesOf(s.b)).unreadCount };
    await setBlock(s[blocker], s[blocker === 'a' ? 'b' : 'a'], 'block');
  });

  it.each(['a', 'b'] as const)('feeds: latest, following (reposts too), the profile and the tag show nothing of the other to %s', async (v) => {
    const x = sides(s, v);
    const latest = await latestFeed(x.me);
    expect(latest.filter((p) => p.authorId === x.them.id)).toEqual([]);
    expect(latest.some((p) => p.id === x.myPost)).toBe(true);
    // C reposted the other's post and C is followed: the repost is hidden, C's own post is not.
    const following = await followingFeed(x.me);
    expect(following.filter((p) => p.authorId === x.them.id || p.repost?.userId === x.them.id)).toEqual([]);
    expect(following.some((p) => p.id === s.pC && p.repost === null)).toBe(true);
    // C still sees both, reposts included.
    expect((await latestFeed(s.c)).some((p) => p.id === x.theirPost)).toBe(true);

    const profile = await profilePosts(x.me, x.them);
    expect(profile.posts).toEqual([]);
    expect(profile.pagination.total).toBe(0);
    expect((await profilePosts(s.c, x.them)).pagination.total).toBeGreaterThan(0);

    expect(await tagPosts(x.me, x.theirTag)).toMatchObject({ posts: [], total: 0 });
    expect((await tagPosts(s.c, x.theirTag)).total).toBe(1);
  });

  it.each(['a', 'b'] as const)("a single post, its comments and its interactions answer 404 to %s; the other's likes and shares are left out elsewhere", async (v) => {
    const x = sides(s, v);
    const single = await readPost(x.me, x.theirPost);
    expect(single.status).toBe(404);
    expect(single.body.error.code).toBe('NOT_FOUND');
    expect((await commentsOf(x.me, x.theirPost)).status).toBe(404);
    expect((await call(interactionsRoute, `/api/posts/${x.theirPost}/interactions`, { ...(await as(x.me)), params: { id: x.theirPost } })).status).toBe(404);
    expect((await readPost(null, x.theirPost)).status).toBe(200);
    expect((await readPost(s.c, x.theirPost)).status).toBe(200);

    const mine = await interactionsOf(x.me, s.pC);
    expect(mine.reactions.map((r) => r.userId)).not.toContain(x.them.id);
    expect(mine.shares.map((r) => r.userId)).not.toContain(x.them.id);
    expect(mine.reactions.map((r) => r.userId)).toContain(x.me.id);
    const cs = await interactionsOf(s.c, s.pC);
    expect(cs.reactions.map((r) => r.userId)).toEqual(expect.arrayContaining([s.a.id, s.b.id]));
    expect(cs.shares.map((r) => r.userId)).toEqual(expect.arrayContaining([s.a.id, s.b.id]));
  });

  it.each(['a', 'b'] as const)("comments: the other's comments and the replies under them are left out for %s, the rest of the thread stays", async (v) => {
    const x = sides(s, v);
    const res = await commentsOf(x.me, s.pC);
    expect(res.status).toBe(200);
    const ids = (res.body.comments as TComment[]).map((c) => c.id);
    expect(ids).not.toContain(x.theirComment);
    expect(ids).not.toContain(x.replyToTheirs); // C's reply answers a hidden comment: left out with it
    expect([...ids].sort()).toEqual([x.myComment, x.replyToMine].sort());
    expect(res.body.count).toBe(2);
    const forC = ((await commentsOf(s.c, s.pC)).body.comments as TComment[]).map((c) => c.id);
    expect(forC).toEqual(expect.arrayContaining([s.cA, s.cB, s.rCA, s.rCB]));
    // Signed out, a block hides nothing.
    expect(((await commentsOf(null, s.pC)).body.comments as TComment[]).length).toBe(4);
  });

  it.each(['a', 'b'] as const)("notifications: %s no longer lists the other's, and the unread count drops by exactly those", async (v) => {
    const x = sides(s, v);
    const notes = await notesOf(x.me);
    expect(notes.notifications.filter((n) => n.actorId === x.them.id)).toEqual([]);
    const theirs = await notesWritten(x.me, x.them);
    expect(theirs).toBeGreaterThan(0); // they are still stored: an unblock brings them back
    expect(notes.unreadCount).toBe(unreadBefore[v] - theirs);
    expect(notes.notifications.some((n) => n.actorId === s.c.id)).toBe(true);
  });

  it.each(['a', 'b'] as const)('search, follower and following lists never show the other to %s', async (v) => {
    const x = sides(s, v);
    expect((await search(x.me, x.them.username)).map((u) => u.id)).not.toContain(x.them.id);
    expect((await search(s.c, x.them.username)).map((u) => u.id)).toContain(x.them.id);
    const fl = await followersOf(x.me, s.c);
    expect(fl.followers.map((u) => u.id)).toEqual([x.me.id]);
    expect(fl.total).toBe(1);
    expect((await followersOf(s.c, s.c)).total).toBe(2);
    // The block removed the follows both ways (lib/moderation/service/blocks.ts): nothing left to list.
    expect((await followingOf(x.me, x.me)).following.map((u) => u.id)).toEqual([s.c.id]);
  });

  it.each(['a', 'b'] as const)("trending tags and posts leave out the other's for %s, not for others", async (v) => {
    const x = sides(s, v);
    expect(await trendingTags(x.me)).not.toContain(x.theirTag);
    expect(await trendingTags(s.c)).toContain(x.theirTag);
    expect(await trendingTags(null)).toContain(x.theirTag);
    expect(await trendingPosts(x.me)).not.toContain(x.theirPost);
    expect(await trendingPosts(s.c)).toContain(x.theirPost);
  });

  it.each(['a', 'b'] as const)('%s cannot follow, comment on, reply to, like or share the other: 403 USER_BLOCKED, nothing written', async (v) => {
    const x = sides(s, v);
    const db = await getDb();
    const token = await tokenFor(x.me);
    const before = {
      post: (await db.select().from(posts).where(eq(posts.id, x.theirPost)))[0]!,
      comment: (await db.select().from(comments).where(eq(comments.id, x.theirComment)))[0]!,
      notes: await notesWritten(x.them, x.me),
      comments: await count(sql`select count(*) as n from ${comments} where author_id = ${x.me.id}`),
    };
    const refused = [
      await follow(x.me, x.them),
      await call(commentRoute, `/api/posts/${x.theirPost}/comments`, { method: 'POST', token, params: { id: x.theirPost }, body: { content: 'trying to answer anyway' } }),
      await call(postReplyRoute, `/api/posts/${s.pC}/reply`, { method: 'POST', token, params: { id: s.pC }, body: { content: 'a reply to a blocked person', parentId: x.theirComment } }),
      await call(commentRepliesRoute, `/api/comments/${x.theirComment}/replies`, { method: 'POST', token, params: { id: x.theirComment }, body: { content: 'a reply to a blocked person' } }),
      await like(x.me, x.theirPost),
      await call(likeCommentRoute, `/api/comments/${x.theirComment}/like`, { method: 'POST', token, params: { id: x.theirComment } }),
      await share(x.me, x.theirPost),
    ];
    for (const r of refused) {
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('USER_BLOCKED');
    }
    const after = {
      post: (await db.select().from(posts).where(eq(posts.id, x.theirPost)))[0]!,
      comment: (await db.select().from(comments).where(eq(comments.id, x.theirComment)))[0]!,
    };
    expect(after.post).toEqual(before.post);
    expect(after.comment).toEqual(before.comment);
    expect(await db.select().from(follows).where(and(eq(follows.followerId, x.me.id), eq(follows.followingId, x.them.id)))).toEqual([]);
    // The like from before the block stays (a block takes nothing back), and no second one appeared.
    expect(await db.select().from(postLikes).where(and(eq(postLikes.userId, x.me.id), eq(postLikes.postId, x.theirPost)))).toHaveLength(1);
    expect(await db.select().from(shares).where(and(eq(shares.userId, x.me.id), eq(shares.postId, x.theirPost)))).toEqual([]);
    expect(await count(sql`select count(*) as n from ${comments} where author_id = ${x.me.id}`)).toBe(before.comments);
    expect(await notesWritten(x.them, x.me)).toBe(before.notes);
    // Others still can; and comments on C's post by the blocked pair still work (C is not blocked).
    expect((await like(s.c, s.pC)).status).toBe(200);
    await newComment(x.me, s.pC, 'still fine to talk to C here');
  });

  it.each(['a', 'b'] as const)('a mention by %s of the other notifies nobody, in a post or a comment', async (v) => {
    const x = sides(s, v);
    const before = await notesWritten(x.them, x.me);
    await newPost(x.me, `thinking of @${x.them.username} today`);
    await newComment(x.me, s.pC, `as @${x.them.username} said before`);
    expect(await notesWritten(x.them, x.me)).toBe(before);
    // The same mention of C notifies C.
    const cBefore = await notesWritten(s.c, x.me);
    await newPost(x.me, `thinking of @${s.c.username} today`);
    expect(await notesWritten(s.c, x.me)).toBe(cBefore + 1);
  });
});

describe('unblocking', () => {
  it('brings everything back, old notifications included', async () => {
    const s = await stage();
    const unread = (await notesOf(s.b)).unreadCount;
    await setBlock(s.b, s.a, 'block');
    expect((await notesOf(s.b)).unreadCount).toBeLessThan(unread);
    expect((await readPost(s.b, s.pA)).status).toBe(404);
    await setBlock(s.b, s.a, 'unblock');
    expect((await notesOf(s.b)).unreadCount).toBe(unread);
    expect((await readPost(s.b, s.pA)).status).toBe(200);
    expect((await readPost(s.a, s.pB)).status).toBe(200);
    expect((await latestFeed(s.b)).some((p) => p.authorId === s.a.id)).toBe(true);
    expect((await like(s.a, s.pB)).status).toBe(200);
  });
});

describe('a mute (B mutes A) is one way and silent', () => {
  let s: TStage;
  beforeAll(async () => {
    setLimiter(createMemoryLimiter());
    s = await stage();
    await setMute(s.b, s.a, 'mute');
  });

  it("B no longer sees A's posts, reposts, comments or notifications, old and new", async () => {
    expect((await latestFeed(s.b)).filter((p) => p.authorId === s.a.id)).toEqual([]);
    expect((await followingFeed(s.b)).filter((p) => p.authorId === s.a.id || p.repost?.userId === s.a.id)).toEqual([]);
    expect((await readPost(s.b, s.pA)).status).toBe(404);
    expect((await profilePosts(s.b, s.a)).pagination.total).toBe(0);
    const thread = ((await commentsOf(s.b, s.pC)).body.comments as TComment[]).map((c) => c.id);
    expect(thread).not.toContain(s.cA);
    expect(thread).toContain(s.cB);
    expect((await notesOf(s.b)).notifications.filter((n) => n.actorId === s.a.id)).toEqual([]);
    expect(await trendingTags(s.b)).not.toContain(s.tagA);
    // New ones are not even written: A comments on B's post and likes B's comment.
    const before = await notesWritten(s.b, s.a);
    await newComment(s.a, s.pB, 'A comments on B, who muted A');
    expect((await call(likeCommentRoute, `/api/comments/${s.cB}/like`, { method: 'POST', token: await tokenFor(s.a), params: { id: s.cB } })).status).toBe(200);
    expect(await notesWritten(s.b, s.a)).toBe(before);
  });

  it('mutes hide content, not people: B still finds A and lists A as a follower of C', async () => {
    expect((await search(s.b, s.a.username)).map((u) => u.id)).toContain(s.a.id);
    expect((await followersOf(s.b, s.c)).followers.map((u) => u.id)).toContain(s.a.id);
    // And a mute is not a block: B may still act on A's content by id.
    expect((await like(s.b, s.pA)).status).toBe(200);
  });

  it('nothing changes for A, who is never told: A sees B, reaches B and hears from B', async () => {
    expect((await latestFeed(s.a)).some((p) => p.authorId === s.b.id)).toBe(true);
    expect((await readPost(s.a, s.pB)).status).toBe(200);
    expect(((await commentsOf(s.a, s.pC)).body.comments as TComment[]).map((c) => c.id)).toContain(s.cB);
    expect((await search(s.a, s.b.username)).map((u) => u.id)).toContain(s.b.id);
    const fromB = await notesWritten(s.a, s.b);
    await newComment(s.b, s.pA, 'B answers A, whom B muted');
    expect(await notesWritten(s.a, s.b)).toBe(fromB + 1);
    expect((await notesOf(s.a)).notifications.some((n) => n.actorId === s.b.id)).toBe(true);
    expect((await share(s.a, s.pB)).status).toBe(201);
  });

  it("unmuting brings A's posts and notifications back for B", async () => {
    await setMute(s.b, s.a, 'unmute');
    expect((await readPost(s.b, s.pA)).status).toBe(200);
    expect((await notesOf(s.b)).notifications.some((n) => n.actorId === s.a.id)).toBe(true);
  });
});

describe('a banned author', () => {
  it("leaves everyone's feeds, single reads, tags, trending and threads but their own, and comes back on unban", async () => {
    const admin = await seedUser({ isAdmin: true });
    const [d, reader] = [await seedUser(), await seedUser()];
    const tag = uniqueTag('d');
    const pD = await newPost(d, `D posts about #${tag}`);
    const pR = await newPost(reader, 'A post D will answer');
    const cD = await newComment(d, pR, 'D answers before the ban');
    const ban = async (action: 'ban' | 'unban') => {
      const res = await call(banRoute, `/api/admin/users/${d.id}/ban`, { method: 'POST', token: await tokenFor(admin), params: { userId: d.id }, body: { action } });
      expect(res.status).toBe(200);
    };
    await ban('ban');
    for (const u of [reader, null]) {
      expect((await latestFeed(u)).filter((p) => p.authorId === d.id)).toEqual([]);
      expect((await readPost(u, pD)).status).toBe(404);
      expect((await profilePosts(u, d)).pagination.total).toBe(0);
      expect((await tagPosts(u, tag)).total).toBe(0);
      expect(await trendingTags(u)).not.toContain(tag);
      expect(((await commentsOf(u, pR)).body.comments as TComment[]).map((c) => c.id)).not.toContain(cD);
    }
    // Their own token still reads their own content.
    expect((await readPost(d, pD)).status).toBe(200);
    expect((await latestFeed(d)).some((p) => p.id === pD)).toBe(true);
    await ban('unban');
    expect((await readPost(reader, pD)).status).toBe(200);
    expect((await latestFeed(null)).some((p) => p.id === pD)).toBe(true);
  });
});

describe('the NPCs of the game tick', () => {
  it('act through the same services: a blocked reply, like or share is skipped and the tick goes on', async () => {
    const db = await getDb();
    await seedWorld(db);
    const player = await seedUser();
    const pP = await newPost(player, 'Is anyone else long $NEXA into the launch? #NEXA');
    const at = new Date();
    const ctxFor = (seed: string): TTickContext => ({ at, rng: createRng(`${seed}/${at.toISOString()}`), deadline: performance.now() + 60_000, newEvents: [] });
    const npcIds = (await db.select({ id: actors.userId }).from(actors)).map((r) => r.id);
    await db.insert(blocks).values(npcIds.map((id) => ({ blockerId: player.id, blockedId: id, createdAt: new Date() })));
    // Find a tick whose plan answers, likes or shares the player's post and posts too (the plan is
    // deterministic; a quiet minute posts at most once, sometimes not at all).
    let seed = '';
    for (let i = 0; i < 80 && !seed; i++) {
      const plan = await planNpcTick(ctxFor(`visibility-${i}`));
      if (plan.posts.length > 0 && [...plan.replies, ...plan.likes, ...plan.shares].some((r) => r.postId === pP)) seed = `visibility-${i}`;
    }
    expect(seed, 'some tick plans to reach the player').not.toBe('');
    const plan = await planNpcTick(ctxFor(seed));
    const social = [...plan.replies, ...plan.likes, ...plan.shares];
    const refused = social.filter((r) => r.postId === pP).length;
    const result = await runNpcActivity(ctxFor(seed));
    // The refused actions count as skipped; the ones after them still ran.
    const done = result.replies + result.likes + result.shares;
    expect(done).toBeLessThanOrEqual(social.length - refused);
    expect(done).toBeGreaterThan(0);
    expect(result.posts).toBeGreaterThan(0);
    expect(await count(sql`select count(*) as n from ${comments} where post_id = ${pP}`)).toBe(0);
    expect(await count(sql`select count(*) as n from ${postLikes} where post_id = ${pP}`)).toBe(0);
    expect(await count(sql`select count(*) as n from ${shares} where post_id = ${pP}`)).toBe(0);
    expect(await count(sql`select count(*) as n from ${notifications} where user_id = ${player.id}`)).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// The live feed (SSE), per subscriber.

const streams: { close: () => Promise<unknown> }[] = [];

/** Opens GET /api/sse/events on `feed` as `u` (null: signed out) and reads it in the background. */
const openFeed = async (u: TUserRow | null, opts: { lastEventId?: string } = {}) => {
  const url = new URL('http://localhost:3000/api/sse/events?channels=feed');
  const headers = new Headers({ host: 'localhost:3000', 'x-client-socket-address': '203.0.113.9' });
  if (u) headers.set('authorization', `Bearer ${await tokenFor(u)}`);
  if (opts.lastEventId) headers.set('last-event-id', opts.lastEventId);
  const res = await sseRoute(new NextRequest(url, { headers }), { params: Promise.resolve({}) });
  expect(res.status).toBe(200);
  const { frames, close } = readFrames(res.body!);
  const stream = {
    frames,
    /** The post ids of the feed_update frames, in order. */
    postIds: () => frames.filter((f) => f.event === 'feed_update').map((f) => f.data.data.post.id as string),
    /**
     * The post ids from `first` on: posts an earlier test made can still be on their way through
     * the outbox when a stream opens (a loaded machine), and reach it, rightly, before the warm-up.
     */
    postIdsFrom: (first: string) => {
      const ids = stream.postIds();
      return ids.slice(Math.max(0, ids.indexOf(first)));
    },
    events: () => frames.filter((f) => f.event),
    waitFor: (postId: string) => vi.waitFor(() => expect(stream.postIds()).toContain(postId), { timeout: 5000, interval: 10 }),
    close,
  };
  streams.push(stream);
  return stream;
};

describe('the live feed (SSE) respects blocks and mutes per subscriber', () => {
  beforeAll(async () => {
    await ensureRealtime();
  });
  afterEach(async () => {
    while (streams.length) await streams.pop()!.close();
  });
  afterAll(async () => {
    await stopRealtime();
  });

  it('a blocked author never reaches the subscriber (posts and reposts), others do; an unblock takes effect live', async () => {
    const [a, b, c, d] = [await seedUser(), await seedUser(), await seedUser(), await seedUser()];
    await setBlock(b, a, 'block');
    await pokeRealtime();
    const [sb, sc, anon] = [await openFeed(b), await openFeed(c), await openFeed(null)];
    // Their streams are live once an event posted now reaches them.
    const warm = await newPost(d, 'warming up the streams');
    await Promise.all([sb.waitFor(warm), sc.waitFor(warm), anon.waitFor(warm)]);

    const p1 = await newPost(a, 'A posts while B has A blocked');
    expect((await share(c, p1)).status).toBe(201); // a repost of A's post: its original author is hidden from B
    const p2 = await newPost(d, 'D posts after that');
    await Promise.all([sc.waitFor(p2), anon.waitFor(p2), sb.waitFor(p2)]);
    expect(sc.postIdsFrom(warm)).toEqual([warm, p1, p1, p2]);
    expect(anon.postIdsFrom(warm)).toEqual([warm, p1, p1, p2]);
    expect(sb.postIdsFrom(warm)).toEqual([warm, p2]); // in order: p1 and its repost came before p2 and were left out

    // The connection stats never count the internal channel.
    const stats = await call(sseStatsRoute, '/api/sse/stats');
    expect(Object.keys(stats.body.channels)).not.toContain('moderation');

    await setBlock(b, a, 'unblock'); // writes visibility_changed in its transaction
    const p3 = await newPost(a, 'A posts after the unblock');
    await sb.waitFor(p3);
    expect(sb.postIdsFrom(warm)).toEqual([warm, p2, p3]);
    // No internal event ever reaches a client.
    for (const s of [sb, sc, anon]) expect(s.events().filter((f) => f.event !== 'feed_update')).toEqual([]);
  });

  it('a block or a mute made while the stream is open takes effect at its place in the log, and a replay filters too', async () => {
    const [a, b, d] = [await seedUser(), await seedUser(), await seedUser()];
    const sb = await openFeed(b);
    const warm = await newPost(d, 'warming up');
    await sb.waitFor(warm);
    const before = await newPost(a, 'A before anything');
    await sb.waitFor(before);

    await setBlock(a, b, 'block'); // the other direction: A blocks B, B stops seeing A too
    const hidden = await newPost(a, 'A after blocking B');
    const marker = await newPost(d, 'D after the block');
    await sb.waitFor(marker);
    expect(sb.postIdsFrom(warm)).toEqual([warm, before, marker]);
    expect(sb.postIds()).not.toContain(hidden);

    // A reconnect replays what was missed, with the same filter.
    const lastId = sb.frames.filter((f) => f.event === 'feed_update').at(-1)!.id!;
    await sb.close();
    const missedHidden = await newPost(a, 'A while B is away');
    const missedShown = await newPost(d, 'D while B is away');
    const again = await openFeed(b, { lastEventId: lastId });
    await again.waitFor(missedShown);
    expect(again.postIds()).toEqual([missedShown]);
    expect(again.postIds()).not.toContain(missedHidden);

    // Unblock, then a mute (one way: B mutes A) while connected.
    await setBlock(a, b, 'unblock');
    const back = await newPost(a, 'A is back for B');
    await again.waitFor(back);
    await setMute(b, a, 'mute');
    const muted = await newPost(a, 'A after B muted A');
    const end = await newPost(d, 'D at the end');
    await again.waitFor(end);
    expect(again.postIds()).toEqual([missedShown, back, end]);
    expect(again.postIds()).not.toContain(muted);
    // The muted user's own stream is untouched: A still gets B's posts.
    const sa = await openFeed(a);
    const warmA = await newPost(d, 'warming up A');
    await sa.waitFor(warmA);
    const fromB = await newPost(b, 'B posts for everyone');
    await sa.waitFor(fromB);
  });
});
