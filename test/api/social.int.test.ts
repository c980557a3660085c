import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DELETE as deleteComment, PATCH as editComment } from '@/app/api/comments/[id]/route';
import { DELETE as unlikeComment, POST as likeComment } from '@/app/api/comments/[id]/like/route';
import { POST as commentReplies } from '@/app/api/comments/[id]/replies/route';
import { GET as breakingNews } from '@/app/api/feed/widgets/breaking-news/route';
import { GET as statsWidget } from '@/app/api/feed/widgets/stats/route';
import { GET as trendingPostsWidget } from '@/app/api/feed/widgets/trending-posts/route';
import { GET as upcomingEvents } from '@/app/api/feed/widgets/upcoming-events/route';
import { GET as notificationsGet, PATCH as notificationsPatch } from '@/app/api/notifications/route';
import { POST as markRead } from '@/app/api/notifications/mark-read/route';
import { GET as listComments, POST as createComment } from '@/app/api/posts/[id]/comments/route';
import { GET as interactions } from '@/app/api/posts/[id]/interactions/route';
import { DELETE as unlikePost, POST as likePost } from '@/app/api/posts/[id]/like/route';
import { POST as postReply } from '@/app/api/posts/[id]/reply/route';
import { GET as getPost } from '@/app/api/posts/[id]/route';
import { DELETE as unsharePost, POST as sharePost } from '@/app/api/posts/[id]/share/route';
import { GET as favoritesFeed } from '@/app/api/posts/feed/favorites/route';
import { GET as listPosts, POST as createPost } from '@/app/api/posts/route';
import { DELETE as unfavorite, POST as favorite } from '@/app/api/profiles/[userId]/favorite/route';
import { GET as favoritesList } from '@/app/api/profiles/favorites/route';
import { GET as tagPosts } from '@/app/api/trending/[tag]/route';
import { GET as trendingTags } from '@/app/api/trending/tags/route';
import { DELETE as unfollow, GET as followStatus, POST as follow } from '@/app/api/users/[userId]/follow/route';
import { GET as followers } from '@/app/api/users/[userId]/followers/route';
import { GET as following } from '@/app/api/users/[userId]/following/route';
import { GET as userPosts } from '@/app/api/users/[userId]/posts/route';
import { GET as userStats } from '@/app/api/users/[userId]/stats/route';
import { getDb } from '@/db/client';
import { notifications, posts, type TUserRow } from '@/db/schema';
import { seedUser } from '@/test/factories';
import { seedWorld } from '@/lib/world/seed/world';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { callerOfUser } from '@/lib/auth/caller';
import { createPost as createPostService } from '@/lib/posts/service/create-post';
import { call, tokenFor } from '@/test/http';
import { spyOnStatements } from '../db-spies';

beforeAll(async () => {
  await seedWorld(await getDb());
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

const post = async (user: TUserRow, body: Record<string, unknown>) => call(createPost, '/api/posts', { method: 'POST', token: await tokenFor(user), body });
const newPost = async (user: TUserRow, content = 'A perfectly ordinary post about #markets') => {
  const res = await post(user, { content });
  expect(res.status).toBe(201);
  return res.body.post as { id: string; authorId: string };
};
const comment = async (user: TUserRow, postId: string, body: Record<string, unknown>) =>
  call(createComment, `/api/posts/${postId}/comments`, { method: 'POST', token: await tokenFor(user), params: { id: postId }, body });
const notesOf = async (user: TUserRow, query: Record<string, string | number> = {}) =>
  (await call(notificationsGet, '/api/notifications', { token: await tokenFor(user), query })).body as {
    notifications: { id: string; type: string; actorId: string | null; read: boolean; postId: string | null }[];
    unreadCount: number;
  };

describe('posts', () => {
  it('creates a post with tags, counts characters as a reader does, and refuses 281', async () => {
    const author = await seedUser();
    const res = await post(author, { content: 'Bullish on #AI and #Quantum today' });
    expect(res.status).toBe(201);
    expect(res.body.post).toMatchObject({
      type: 'post',
      authorId: author.id,
      author: { id: author.id, username: author.username },
      tags: ['ai', 'quantum'],
      reactions: { like: 0, total: 0 },
      commentsCount: 0,
      sharesCount: 0,
      userReacted: false,
      userShared: false,
      repost: null,
    });
    expect(res.body.post.timestamp).toBe(res.body.post.createdAt);
    expect((await post(author, { content: '👍🏽'.repeat(280) })).status).toBe(201);
    const long = await post(author, { content: 'x'.repeat(281) });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('VALIDATION_ERROR');
    expect((await post(author, { content: '   ' })).status).toBe(400);
    expect((await post(author, { content: 'About a question', relatedQuestion: 'no-such-market' })).status).toBe(400);
    expect((await post(author, { content: 'About seed question one', relatedQuestion: 'seed-q-1' })).body.post.relatedQuestion).toBe('seed-q-1');
    expect((await call(createPost, '/api/posts', { method: 'POST', body: { content: 'anonymous' } })).status).toBe(401);
  });

  it('notifies mentioned users, never the author', async () => {
    const author = await seedUser();
    const friend = await seedUser();
    await post(author, { content: `hello @${friend.username} and @${author.username}` });
    const notes = await notesOf(friend);
    expect(notes.notifications.filter((n) => n.type === 'mention')).toHaveLength(1);
    expect((await notesOf(author)).notifications.filter((n) => n.type === 'mention')).toHaveLength(0);
  });

  it('reads one post (404 when unknown) and lists pages, cursors, authors and types', async () => {
    const author = await seedUser();
    const ids: string[] = [];
    const base = Date.now();
    try {
      for (let i = 0; i < 5; i++) {
        setFixedTime(new Date(base + i * 1000)); // distinct times: the order is the test's subject
        ids.push((await newPost(author, `Post number ${i} of a series`)).id);
      }
    } finally {
      resetClock();
    }
    const one = await call(getPost, `/api/posts/${ids[0]}`, { params: { id: ids[0]! } });
    expect(one.body.post.id).toBe(ids[0]);
    expect((await call(getPost, '/api/posts/nope', { params: { id: 'nope' } })).status).toBe(404);

    const page = await call(listPosts, '/api/posts', { query: { userId: author.id, limit: 2 } });
    expect(page.body.posts.map((p: { id: string }) => p.id)).toEqual([ids[4], ids[3]]);
    expect(page.body.pagination).toEqual({ page: 1, limit: 2, total: 5, pages: 3 });
    const page2 = await call(listPosts, '/api/posts', { query: { userId: author.username, limit: 2, page: 2 } });
    expect(page2.body.posts.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    const byCursor = await call(listPosts, '/api/posts', { query: { userId: author.id, limit: 2, cursor: page.body.nextCursor } });
    expect(byCursor.body.posts.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    expect(byCursor.body.pagination).toBeUndefined();
    expect((await call(listPosts, '/api/posts', { query: { cursor: 'garbage' } })).status).toBe(400);
    expect((await call(listPosts, '/api/posts', { query: { limit: 101 } })).status).toBe(400);
    const users = await call(userPosts, `/api/users/${author.id}/posts`, { params: { userId: author.id }, query: { limit: 3 } });
    expect(users.body.pagination).toEqual({ page: 1, limit: 3, total: 5, pages: 2 });
    expect((await call(listPosts, '/api/posts', { query: { userId: author.id, type: 'article' } })).body.posts).toHaveLength(0);
    expect((await call(listPosts, '/api/posts', { query: { following: 'true' } })).status).toBe(401);
  });

  it('reads a feed page of 20 posts in the same number of statements as a page of 2', async () => {
    const author = await seedUser();
    const reader = await seedUser();
    for (let i = 0; i < 20; i++) await newPost(author, `Feed post ${i} with #tag${i % 3}`);
    await call(follow, `/api/users/${author.id}/follow`, { method: 'POST', token: await tokenFor(reader), params: { userId: author.id } });
    const count = async (limit: number) => {
      const spies = await spyOnStatements();
      const res = await call(listPosts, '/api/posts', { token: await tokenFor(reader), query: { following: 'true', limit } });
      expect(res.body.posts).toHaveLength(limit);
      const n = spies.execCalls().length + spies.selectCalls().length;
      spies.restore();
      return n;
    };
    const small = await count(2);
    const large = await count(20);
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(6);
  });
});

describe('comments', () => {
  it('comments, replies through all three routes, threads, counts and notifies', async () => {
    const author = await seedUser();
    const other = await seedUser();
    const p = await newPost(author);
    const tooShort = await comment(other, p.id, { content: 'short' });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.error.code).toBe('VALIDATION_ERROR');
    const c = await comment(other, p.id, { content: 'This is a thoughtful comment' });
    expect(c.status).toBe(201);
    expect(c.body.comment).toMatchObject({ postId: p.id, parentCommentId: null, repliesCount: 0, reactions: { like: 0 } });
    const r1 = await comment(author, p.id, { content: 'Thanks for the thoughtful comment', parentCommentId: c.body.comment.id });
    const r2 = await call(postReply, `/api/posts/${p.id}/reply`, {
      method: 'POST',
      token: await tokenFor(other),
      params: { id: p.id },
      body: { content: 'Replying through the reply route', parentId: r1.body.comment.id },
    });
    const r3 = await call(commentReplies, `/api/comments/${c.body.comment.id}/replies`, {
      method: 'POST',
      token: await tokenFor(author),
      params: { id: c.body.comment.id },
      body: { content: 'Replying through the comment route' },
    });
    for (const r of [r1, r2, r3]) expect(r.status).toBe(201);
    expect(r2.body.comment.parentCommentId).toBe(r1.body.comment.id);
    const list = await call(listComments, `/api/posts/${p.id}/comments`, { params: { id: p.id } });
    expect(list.body.count).toBe(4);
    const top = list.body.comments.find((x: { id: string }) => x.id === c.body.comment.id);
    expect(top.repliesCount).toBe(2);
    expect((await call(getPost, `/api/posts/${p.id}`, { params: { id: p.id } })).body.post.commentsCount).toBe(4);
    const authorNotes = await notesOf(author);
    expect(authorNotes.notifications.filter((n) => n.type === 'comment')).toHaveLength(1);
    expect(authorNotes.notifications.filter((n) => n.type === 'reply')).toHaveLength(1); // r2 replied to the author's r1
    const otherNotes = await notesOf(other);
    expect(otherNotes.notifications.filter((n) => n.type === 'reply')).toHaveLength(2); // r1 and r3
    expect((await comment(other, 'nope', { content: 'A comment on nothing at all' })).status).toBe(404);
  });

  it('lets only the author edit or delete; a deleted comment keeps its thread', async () => {
    const author = await seedUser();
    const other = await seedUser();
    const p = await newPost(author);
    const c = (await comment(other, p.id, { content: 'Original words of mine' })).body.comment;
    const reply = (await comment(author, p.id, { content: 'A reply that must survive', parentCommentId: c.id })).body.comment;
    const tokenOther = await tokenFor(other);
    const tokenAuthor = await tokenFor(author);
    const denied = await call(editComment, `/api/comments/${c.id}`, { method: 'PATCH', token: tokenAuthor, params: { id: c.id }, body: { content: 'Not my comment to edit' } });
    expect(denied.status).toBe(403);
    const edited = await call(editComment, `/api/comments/${c.id}`, { method: 'PATCH', token: tokenOther, params: { id: c.id }, body: { content: 'Edited words of mine' } });
    expect(edited.body.comment).toMatchObject({ content: 'Edited words of mine', editedAt: expect.any(String) });
    expect((await call(deleteComment, `/api/comments/${c.id}`, { method: 'DELETE', token: tokenAuthor, params: { id: c.id } })).status).toBe(403);
    const del = await call(deleteComment, `/api/comments/${c.id}`, { method: 'DELETE', token: tokenOther, params: { id: c.id } });
    expect(del.body).toMatchObject({ success: true, deleted: true });
    expect((await call(deleteComment, `/api/comments/${c.id}`, { method: 'DELETE', token: tokenOther, params: { id: c.id } })).status).toBe(404);
    const list = (await call(listComments, `/api/posts/${p.id}/comments`, { params: { id: p.id } })).body.comments;
    expect(list.find((x: { id: string }) => x.id === c.id)).toMatchObject({ deleted: true, content: '[deleted]' });
    expect(list.find((x: { id: string }) => x.id === reply.id)).toMatchObject({ parentCommentId: c.id, content: 'A reply that must survive' });
  });

  it('allows one reply per hour to the same NPC actor', async () => {
    const npc = await seedUser({ isActor: true });
    const player = await seedUser();
    const { post: p } = await createPostService({ caller: callerOfUser(npc), content: 'NPC thoughts on the market today', type: 'post' });
    expect((await comment(player, p.id, { content: 'First reply to the NPC' })).status).toBe(201);
    const second = await comment(player, p.id, { content: 'Second reply to the NPC' });
    expect(second.status).toBe(429);
    expect(second.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    const parallel = await Promise.all(
      Array.from({ length: 5 }, async () => comment(await seedUser(), p.id, { content: 'Someone else replying now' })),
    );
    expect(parallel.every((r) => r.status === 201)).toBe(true);
  });
});

describe('likes and shares', () => {
  it('counts ten parallel likes once, unlikes, and notifies the author once', async () => {
    const author = await seedUser();
    const fan = await seedUser();
    const p = await newPost(author);
    const token = await tokenFor(fan);
    const results = await Promise.all(Array.from({ length: 10 }, () => call(likePost, `/api/posts/${p.id}/like`, { method: 'POST', token, params: { id: p.id } })));
    expect(results.every((r) => r.status === 200 && r.body.liked === true)).toBe(true);
    const one = await call(getPost, `/api/posts/${p.id}`, { token, params: { id: p.id } });
    expect(one.body.post).toMatchObject({ reactions: { like: 1, total: 1 }, userReacted: true });
    expect((await notesOf(author)).notifications.filter((n) => n.type === 'reaction')).toHaveLength(1);
    const unliked = await call(unlikePost, `/api/posts/${p.id}/like`, { method: 'DELETE', token, params: { id: p.id } });
    expect(unliked.body).toMatchObject({ liked: false, reactionCount: 0 });
    const again = await call(unlikePost, `/api/posts/${p.id}/like`, { method: 'DELETE', token, params: { id: p.id } });
    expect(again.body.reactionCount).toBe(0);
    expect((await call(likePost, '/api/posts/nope/like', { method: 'POST', token, params: { id: 'nope' } })).status).toBe(404);
    // Liking your own post notifies nobody.
    await call(likePost, `/api/posts/${p.id}/like`, { method: 'POST', token: await tokenFor(author), params: { id: p.id } });
    expect((await notesOf(author)).notifications.filter((n) => n.type === 'reaction')).toHaveLength(1);
  });

  it('likes comments', async () => {
    const author = await seedUser();
    const p = await newPost(author);
    const c = (await comment(author, p.id, { content: 'A comment worth liking' })).body.comment;
    const fan = await seedUser();
    const token = await tokenFor(fan);
    const liked = await call(likeComment, `/api/comments/${c.id}/like`, { method: 'POST', token, params: { id: c.id } });
    expect(liked.body).toMatchObject({ liked: true, reactionCount: 1 });
    const un = await call(unlikeComment, `/api/comments/${c.id}/like`, { method: 'DELETE', token, params: { id: c.id } });
    expect(un.body.reactionCount).toBe(0);
  });

  it("shares once, shows the repost in followers' feeds, unshares, and reports interactions both ways", async () => {
    const author = await seedUser();
    const sharer = await seedUser();
    const follower = await seedUser();
    const p = await newPost(author);
    await call(follow, `/api/users/${sharer.id}/follow`, { method: 'POST', token: await tokenFor(follower), params: { userId: sharer.id } });
    const token = await tokenFor(sharer);
    const s1 = await call(sharePost, `/api/posts/${p.id}/share`, { method: 'POST', token, params: { id: p.id }, body: { quoteComment: 'Worth reading' } });
    expect(s1.status).toBe(201);
    expect(s1.body.share).toMatchObject({ postId: p.id, userId: sharer.id, quote: 'Worth reading' });
    const s2 = await call(sharePost, `/api/posts/${p.id}/share`, { method: 'POST', token, params: { id: p.id }, body: {} });
    expect(s2.body.sharesCount).toBe(1);
    const feed = await call(listPosts, '/api/posts', { token: await tokenFor(follower), query: { following: 'true' } });
    expect(feed.body.posts[0]).toMatchObject({ id: p.id, repost: { userId: sharer.id, quote: 'Worth reading' } });
    await call(likePost, `/api/posts/${p.id}/like`, { method: 'POST', token, params: { id: p.id } });
    const i = await call(interactions, `/api/posts/${p.id}/interactions`, { token, params: { id: p.id } });
    expect(i.body).toMatchObject({ totalReactions: 1, totalShares: 1, likes: 1, sharesCount: 1, comments: 0, userLiked: true, userShared: true });
    expect(i.body.reactions[0]).toMatchObject({ userId: sharer.id, type: 'like', username: sharer.username });
    expect((await notesOf(author)).notifications.filter((n) => n.type === 'share')).toHaveLength(1);
    const un = await call(unsharePost, `/api/posts/${p.id}/share`, { method: 'DELETE', token, params: { id: p.id } });
    expect(un.body).toMatchObject({ shared: false, sharesCount: 0 });
    const after = await call(listPosts, '/api/posts', { token: await tokenFor(follower), query: { following: 'true' } });
    expect(after.body.posts).toHaveLength(0);
  });
});

describe('follows and favorites', () => {
  it('follows by the rules of the specification and counts real followers', async () => {
    const me = await seedUser();
    const them = await seedUser();
    const token = await tokenFor(me);
    const f = await call(follow, `/api/users/${them.id}/follow`, { method: 'POST', token, params: { userId: them.id } });
    expect(f.status).toBe(201);
    expect(f.body).toEqual({ success: true, following: true, followersCount: 1 });
    const twice = await call(follow, `/api/users/${them.id}/follow`, { method: 'POST', token, params: { userId: them.id } });
    expect(twice.body.error.code).toBe('ALREADY_FOLLOWING');
    const self = await call(follow, `/api/users/${me.id}/follow`, { method: 'POST', token, params: { userId: me.id } });
    expect(self.status).toBe(400);
    expect(self.body.error.code).toBe('CANNOT_FOLLOW_SELF');
    expect((await call(follow, '/api/users/nobody/follow', { method: 'POST', token, params: { userId: 'nobody' } })).status).toBe(404);
    expect((await call(followStatus, `/api/users/${them.id}/follow`, { token, params: { userId: them.id } })).body.isFollowing).toBe(true);
    const list = await call(followers, `/api/users/${them.id}/followers`, { params: { userId: them.id } });
    expect(list.body.followers[0]).toMatchObject({ id: me.id, username: me.username, followedAt: expect.any(String), isFollowing: false });
    const fl = await call(following, `/api/users/${me.id}/following`, { token, params: { userId: me.id } });
    expect(fl.body.following.map((u: { id: string }) => u.id)).toEqual([them.id]);
    expect(fl.body.following[0].isFollowing).toBe(true); // the caller follows the listed user
    const anon = await call(following, `/api/users/${me.id}/following`, { params: { userId: me.id } });
    expect(anon.body.following[0].isFollowing).toBe(false);
    const stats = await call(userStats, `/api/users/${them.id}/stats`, { token: await tokenFor(them), params: { userId: them.id } });
    expect(stats.body.stats ?? stats.body).toMatchObject({ followersCount: 1, followingCount: 0 });
    expect((await notesOf(them)).notifications.filter((n) => n.type === 'follow')).toHaveLength(1);
    const un = await call(unfollow, `/api/users/${them.id}/follow`, { method: 'DELETE', token, params: { userId: them.id } });
    expect(un.status).toBe(200);
    expect((await call(unfollow, `/api/users/${them.id}/follow`, { method: 'DELETE', token, params: { userId: them.id } })).status).toBe(404);
  });

  it('makes one follow of ten parallel follows', async () => {
    const me = await seedUser();
    const them = await seedUser();
    const token = await tokenFor(me);
    const results = await Promise.all(Array.from({ length: 10 }, () => call(follow, `/api/users/${them.id}/follow`, { method: 'POST', token, params: { userId: them.id } })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.error.code === 'ALREADY_FOLLOWING')).toHaveLength(9);
    expect((await notesOf(them)).notifications.filter((n) => n.type === 'follow')).toHaveLength(1);
  });

  it('favorites profiles and reads their posts', async () => {
    const me = await seedUser();
    const star = await seedUser();
    const p = await newPost(star, 'A post from a favorite profile');
    const token = await tokenFor(me);
    expect((await call(favorite, `/api/profiles/${star.id}/favorite`, { method: 'POST', token, params: { userId: star.id } })).body.favorited).toBe(true);
    const list = await call(favoritesList, '/api/profiles/favorites', { token });
    expect(list.body.profiles.map((u: { id: string }) => u.id)).toEqual([star.id]);
    const feed = await call(favoritesFeed, '/api/posts/feed/favorites', { token });
    expect(feed.body.posts.map((x: { id: string }) => x.id)).toEqual([p.id]);
    await call(unfavorite, `/api/profiles/${star.id}/favorite`, { method: 'DELETE', token, params: { userId: star.id } });
    expect((await call(favoritesList, '/api/profiles/favorites', { token })).body.count).toBe(0);
    expect((await call(favorite, `/api/profiles/${me.id}/favorite`, { method: 'POST', token, params: { userId: me.id } })).status).toBe(400);
  });
});

describe('notifications', () => {
  it('lists with the unread count and marks read by ids, all, and the POST variant; only your own', async () => {
    const me = await seedUser();
    const a = await seedUser();
    const b = await seedUser();
    for (const u of [a, b]) await call(follow, `/api/users/${me.id}/follow`, { method: 'POST', token: await tokenFor(u), params: { userId: me.id } });
    const p = await newPost(me);
    await call(likePost, `/api/posts/${p.id}/like`, { method: 'POST', token: await tokenFor(a), params: { id: p.id } });
    const notes = await notesOf(me);
    expect(notes.unreadCount).toBe(3);
    const token = await tokenFor(me);
    const first = notes.notifications[0]!.id;
    const patched = await call(notificationsPatch, '/api/notifications', { method: 'PATCH', token, body: { notificationIds: [first], read: true } });
    expect(patched.body).toMatchObject({ updated: 1, unreadCount: 2 });
    expect((await notesOf(me, { unread: 'true' })).notifications).toHaveLength(2);
    const second = notes.notifications[1]!.id;
    expect((await call(markRead, '/api/notifications/mark-read', { method: 'POST', token, body: { notificationIds: [second] } })).body.unreadCount).toBe(1);
    // Someone else cannot mark mine.
    const theirs = await call(notificationsPatch, '/api/notifications', { method: 'PATCH', token: await tokenFor(a), body: { notificationIds: [notes.notifications[2]!.id], read: true } });
    expect(theirs.body.updated).toBe(0);
    expect((await call(notificationsPatch, '/api/notifications', { method: 'PATCH', token, body: { all: true, read: true } })).body.unreadCount).toBe(0);
    expect((await call(notificationsPatch, '/api/notifications', { method: 'PATCH', token, body: {} })).status).toBe(400);
    const db = await getDb();
    expect((await db.select().from(notifications).where(eq(notifications.userId, me.id))).every((n) => n.read)).toBe(true);
  });
});

describe('trending and widgets', () => {
  it('ranks tags, lists tag posts, ranks posts with a score, and answers the widgets', async () => {
    const u = await seedUser();
    await newPost(u, 'All about #Trending things');
    await newPost(u, 'More #trending and #rare');
    const tags = await call(trendingTags, '/api/trending/tags', { query: { limit: 50 } });
    expect(tags.body.tags.find((t: { tag: string }) => t.tag === 'trending')).toMatchObject({ count: 2, postsCount: 2 });
    const scores = tags.body.tags.map((t: { score: number }) => t.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    const byTag = await call(tagPosts, '/api/trending/%23Trending', { params: { tag: '#Trending' } });
    expect(byTag.body).toMatchObject({ tag: 'trending', total: 2, count: 2 });
    const hot = await newPost(u, 'This one gets engagement');
    for (let i = 0; i < 3; i++) await call(likePost, `/api/posts/${hot.id}/like`, { method: 'POST', token: await tokenFor(await seedUser()), params: { id: hot.id } });
    const quiet = await newPost(u, 'This one gets no engagement');
    const top = (await call(trendingPostsWidget, '/api/feed/widgets/trending-posts', { query: { limit: 50 } })).body.posts as { id: string; score: number; reactions: number }[];
    const topScores = top.map((x) => x.score);
    expect([...topScores].sort((x, y) => y - x)).toEqual(topScores);
    const hotItem = top.find((x) => x.id === hot.id)!;
    expect(hotItem.reactions).toBe(3);
    expect(hotItem.score).toBeGreaterThan(top.find((x) => x.id === quiet.id)!.score);
    expect((await call(statsWidget, '/api/feed/widgets/stats')).body.stats.totalPosts).toBeGreaterThan(0);
    expect((await call(breakingNews, '/api/feed/widgets/breaking-news')).body.news.length).toBeGreaterThan(0);
    const events = (await call(upcomingEvents, '/api/feed/widgets/upcoming-events')).body.events;
    expect(events.some((e: { type: string }) => e.type === 'funding')).toBe(true);
    const db = await getDb();
    expect((await db.select().from(posts)).length).toBeGreaterThan(3);
  });
});
