/**
 * GET /api/posts `hideNpcs` and `held` (issue 31, deliverable 7): hideNpcs leaves out NPCs' posts,
 * held keeps only the posts about a market the caller holds shares in or a ticker with their open
 * perp (the post's relatedQuestion, the trade it reports, a $TICKER in its text), in the page and
 * the cursor forms alike; held needs a signed-in caller (401, as following=true).
 *
 * GET /api/posts `filter` (issue 35, deliverable 2): everyone, players, mine (holdings and open
 * orders), following; 401 for a guest on mine and following; a filtered page costs the statements
 * an unfiltered one does. A post a moderator removed keeps its place with `removed` and no content
 * for everyone but a moderator.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as getPostRoute } from '@/app/api/posts/[id]/route';
import { GET as listPosts } from '@/app/api/posts/route';
import { POST as followRoute } from '@/app/api/users/[userId]/follow/route';
import { eq, inArray, notInArray, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { getDb } from '@/db/client';
import { perpMarkets, perpOrders, perpTrades, postTags, posts, predictionOrders, trades, users, type TUserRow } from '@/db/schema';
import { callerOfUser } from '@/lib/auth/caller';
import { now, setFixedTime } from '@/lib/clock/clock';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { openPosition } from '@/lib/perps/service/open-position';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';
import { spyOnStatements } from '../db-spies';

type TPostOut = { id: string; authorId: string; market: { id: string } | null; trade: { marketId: string | null; ticker: string | null } | null; tickers: string[] };

let holder: TUserRow;
let other: TUserRow;
let npc: TUserRow;
const ids: Record<string, string> = {};

const T0 = new Date('2026-06-01T12:00:00.000Z');

beforeAll(async () => {
  setFixedTime(T0);
  const db = await getDb();
  await seedWorld(db);
  holder = await seedUser({ balance: '5000' });
  other = await seedUser({ balance: '5000' });
  npc = await seedUser({ isActor: true, balance: '5000' });
  // The holder: YES in seed-q-1, a long on QBIT. The other player: NO in seed-q-2, a long on HELX.
  await buyShares({ caller: callerOfUser(holder), marketId: 'seed-q-1', outcome: 'YES', amount: '50' });
  await openPosition({ caller: callerOfUser(holder), ticker: 'QBIT', side: 'long', size: '100', leverage: '2' });
  await buyShares({ caller: callerOfUser(other), marketId: 'seed-q-2', outcome: 'NO', amount: '50' });
  await openPosition({ caller: callerOfUser(other), ticker: 'HELX', side: 'long', size: '100', leverage: '2' });
  const [holderTrade] = await db.select({ id: trades.id }).from(trades).where(eq(trades.userId, holder.id));
  const [holderPerp] = await db.select({ id: perpTrades.id }).from(perpTrades).where(eq(perpTrades.userId, holder.id));
  const [otherPerp] = await db.select({ id: perpTrades.id }).from(perpTrades).where(eq(perpTrades.userId, other.id));
  const rows: [string, TUserRow, Partial<typeof posts.$inferInsert>][] = [
    ['npcAboutQ1', npc, { content: 'Nexa looks ready for the airlines', relatedQuestionId: 'seed-q-1' }],
    ['humanAboutQ1', other, { content: 'I think Nexa ships it', relatedQuestionId: 'seed-q-1' }],
    ['tradeQ1', other, { content: 'My trade', tradeKind: 'prediction', tradeId: holderTrade!.id }],
    ['perpQbit', npc, { content: 'A trade', tradeKind: 'perp', tradeId: holderPerp!.id }],
    ['textQbit', other, { content: 'Watching $QBIT today' }],
    ['notATicker', other, { content: 'Watching $QBITX and QBIT and #QBIT' }],
    ['aboutQ2', other, { content: 'Qubit will not make it', relatedQuestionId: 'seed-q-2' }],
    ['perpHelx', other, { content: 'Long', tradeKind: 'perp', tradeId: otherPerp!.id }],
    ['textHelx', npc, { content: '$HELX is moving' }],
    ['plainNpc', npc, { content: 'Good morning' }],
    ['plainHuman', other, { content: 'Good morning to you' }],
  ];
  let t = T0.getTime() + 60_000;
  for (const [key, author, values] of rows) {
    const at = new Date((t += 1000));
    const [row] = await db
      .insert(posts)
      .values({ authorId: author.id, content: values.content!, ...values, createdAt: at, updatedAt: at })
      .returning({ id: posts.id });
    ids[key] = row!.id;
  }
  setFixedTime(new Date(t + 1000));
}, 60_000);

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

const HELD = ['npcAboutQ1', 'humanAboutQ1', 'tradeQ1', 'perpQbit', 'textQbit'];

/** Every post of the feed with these params, walked by cursor (limit 2) and by page (limit 3): both forms must agree. */
const walk = async (query: Record<string, string>, token?: string) => {
  const byCursor: TPostOut[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 500; i++) {
    const res = await call(listPosts, '/api/posts', { token, query: { ...query, limit: '2', ...(cursor ? { cursor } : {}) } });
    expect(res.status).toBe(200);
    byCursor.push(...res.body.posts);
    cursor = res.body.nextCursor ?? undefined;
    if (!cursor) break;
  }
  const byPage: TPostOut[] = [];
  let total = -1;
  for (let page = 1; page < 500; page++) {
    const res = await call(listPosts, '/api/posts', { token, query: { ...query, limit: '3', page: String(page) } });
    expect(res.status).toBe(200);
    total = res.body.pagination.total;
    byPage.push(...res.body.posts);
    if (res.body.posts.length < 3) break;
  }
  expect(byPage.map((p) => p.id)).toEqual(byCursor.map((p) => p.id));
  expect(total).toBe(byPage.length);
  return byCursor;
};

describe('GET /api/posts hideNpcs and held', () => {
  it('hideNpcs leaves out every NPC post and keeps the players’ posts', async () => {
    const all = await walk({});
    const hidden = await walk({ hideNpcs: 'true' });
    expect(all.length).toBeGreaterThan(hidden.length);
    const authors = await (await getDb()).select({ id: users.id, isActor: users.isActor }).from(users).where(inArray(users.id, [...new Set(all.map((p) => p.authorId))]));
    const isNpc = new Map(authors.map((a) => [a.id, a.isActor]));
    expect(hidden.map((p) => p.id)).toEqual(all.filter((p) => !isNpc.get(p.authorId)).map((p) => p.id));
    for (const k of ['npcAboutQ1', 'perpQbit', 'textHelx', 'plainNpc']) expect(hidden.map((p) => p.id)).not.toContain(ids[k]);
    for (const k of ['humanAboutQ1', 'plainHuman', 'textQbit']) expect(hidden.map((p) => p.id)).toContain(ids[k]);
    // hideNpcs=false is the plain feed.
    expect((await walk({ hideNpcs: 'false' })).map((p) => p.id)).toEqual(all.map((p) => p.id));
  });

  it('held keeps exactly the posts about the caller’s markets and tickers, and combines with hideNpcs', async () => {
    const token = await tokenFor(holder);
    const held = await walk({ held: 'true' }, token);
    const got = held.map((p) => p.id);
    for (const k of HELD) expect(got, k).toContain(ids[k]);
    for (const k of ['notATicker', 'aboutQ2', 'perpHelx', 'textHelx', 'plainNpc', 'plainHuman']) expect(got, k).not.toContain(ids[k]);
    // Every post it answers is about seed-q-1 or QBIT (seeded posts included).
    for (const p of held) {
      const about = p.market?.id === 'seed-q-1' || p.trade?.marketId === 'seed-q-1' || p.trade?.ticker === 'QBIT' || p.tickers.includes('QBIT');
      expect(about, p.id).toBe(true);
    }
    const both = await walk({ held: 'true', hideNpcs: 'true' }, token);
    const npcs = new Set((await (await getDb()).select({ id: users.id }).from(users).where(eq(users.isActor, true))).map((u) => u.id));
    expect(both.map((p) => p.id)).toEqual(held.filter((p) => !npcs.has(p.authorId)).map((p) => p.id));
    expect(both.map((p) => p.id)).toEqual(expect.arrayContaining([ids.humanAboutQ1, ids.tradeQ1, ids.textQbit]));
    expect(both.map((p) => p.id)).not.toContain(ids.npcAboutQ1);
    // The other player holds other things.
    const theirs = (await walk({ held: 'true' }, await tokenFor(other))).map((p) => p.id);
    expect(theirs).toEqual(expect.arrayContaining([ids.aboutQ2, ids.perpHelx, ids.textHelx]));
    expect(theirs).not.toContain(ids.textQbit);
  });

  it('held follows what is held now: a player with nothing open reads an empty feed', async () => {
    const nobody = await seedUser();
    expect(await walk({ held: 'true' }, await tokenFor(nobody))).toEqual([]);
  });

  it('held needs a signed-in caller, as following does', async () => {
    const res = await call(listPosts, '/api/posts', { query: { held: 'true' } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    expect((await call(listPosts, '/api/posts', { query: { held: 'false' } })).status).toBe(200);
    expect((await call(listPosts, '/api/posts', { query: { hideNpcs: 'yes' } })).status).toBe(400);
    expect(now().getTime()).toBeGreaterThan(T0.getTime());
  });
});

describe('GET /api/posts filter (everyone, players, mine, following) and removed posts', () => {
  let fan: TUserRow;
  let followed: TUserRow;
  let unfollowed: TUserRow;
  let orderer: TUserRow;
  let admin: TUserRow;
  let orderTicker: string;
  const own: Record<string, string> = {};

  beforeAll(async () => {
    const db = await getDb();
    fan = await seedUser();
    followed = await seedUser();
    unfollowed = await seedUser();
    orderer = await seedUser();
    admin = await seedUser({ isAdmin: true });
    // The orderer holds nothing: an open limit order on seed-q-3 and an open perp limit order on a
    // ticker nobody here holds are what make posts "mine".
    const [t] = await db.select({ ticker: perpMarkets.ticker }).from(perpMarkets).where(notInArray(perpMarkets.ticker, ['QBIT', 'HELX'])).limit(1);
    orderTicker = t!.ticker;
    const at = now();
    await db.insert(predictionOrders).values({
      userId: orderer.id, marketId: 'seed-q-3', outcome: 'YES', limitPrice: '0.2', amount: '10', status: 'open', timeInForce: 'GTC', createdAt: at, updatedAt: at,
    });
    // A filled (closed) order on seed-q-4 counts for nothing.
    await db.insert(predictionOrders).values({
      userId: orderer.id, marketId: 'seed-q-4', outcome: 'YES', limitPrice: '0.2', amount: '10', status: 'filled', timeInForce: 'GTC', createdAt: at, updatedAt: at,
    });
    await db.insert(perpOrders).values({
      userId: orderer.id, ticker: orderTicker, type: 'limit', side: 'long', size: '100', leverage: '2', margin: '50', triggerPrice: '1', firesWhen: 'below', status: 'open', createdAt: at, updatedAt: at,
    });
    const rows: [string, TUserRow, Partial<typeof posts.$inferInsert>][] = [
      ['byFollowed', followed, { content: 'From someone the fan follows' }],
      ['byUnfollowed', unfollowed, { content: 'From someone the fan does not follow' }],
      ['npcPlain', npc, { content: 'An NPC says hello' }],
      ['aboutOrderMarket', unfollowed, { content: 'About the ordered market', relatedQuestionId: 'seed-q-3' }],
      ['aboutClosedOrder', unfollowed, { content: 'About a market with only a filled order', relatedQuestionId: 'seed-q-4' }],
      ['aboutOrderTicker', npc, { content: `Watching $${orderTicker} closely` }],
      ['removed', followed, { content: 'Something a moderator removed #gone', imageUrl: '/uploads/x.png', relatedQuestionId: 'seed-q-3' }],
    ];
    let t0 = now().getTime();
    for (const [key, author, values] of rows) {
      const when = new Date((t0 += 1000));
      const [row] = await db.insert(posts).values({ authorId: author.id, content: values.content!, ...values, createdAt: when, updatedAt: when }).returning({ id: posts.id });
      own[key] = row!.id;
    }
    await db.insert(postTags).values({ postId: own.removed!, tag: 'gone', createdAt: new Date(t0) });
    await db.update(posts).set({ removedAt: new Date(t0), removedById: admin.id, removedReason: 'Spam' }).where(eq(posts.id, own.removed!));
    setFixedTime(new Date(t0 + 1000));
    const res = await call(followRoute, `/api/users/${followed.id}/follow`, { method: 'POST', token: await tokenFor(fan), params: { userId: followed.id } });
    expect(res.status).toBeLessThan(300);
  }, 60_000);

  it('everyone is the plain feed; players leaves out every NPC post', async () => {
    const plain = await walk({});
    expect((await walk({ filter: 'everyone' })).map((p) => p.id)).toEqual(plain.map((p) => p.id));
    const players = await walk({ filter: 'players' });
    const got = players.map((p) => p.id);
    expect(got).not.toContain(own.npcPlain);
    expect(got).not.toContain(own.aboutOrderTicker);
    expect(got).not.toContain(ids.plainNpc);
    expect(got).toEqual(expect.arrayContaining([own.byFollowed, own.byUnfollowed, own.aboutOrderMarket, ids.plainHuman]));
    const npcs = new Set((await (await getDb()).select({ id: users.id }).from(users).where(eq(users.isActor, true))).map((u) => u.id));
    expect(players.some((p) => npcs.has(p.authorId))).toBe(false);
    // The same as the older hideNpcs=true.
    expect((await walk({ hideNpcs: 'true' })).map((p) => p.id)).toEqual(got);
  });

  it('following has the followed author’s posts and not an unfollowed one’s; guests get 401', async () => {
    const got = (await walk({ filter: 'following' }, await tokenFor(fan))).map((p) => p.id);
    expect(got).toContain(own.byFollowed);
    expect(got).toContain(own.removed);
    expect(got).not.toContain(own.byUnfollowed);
    expect(got).not.toContain(own.npcPlain);
    expect(got.length).toBe(2);
    const guest = await call(listPosts, '/api/posts', { query: { filter: 'following' } });
    expect(guest.status).toBe(401);
    expect(guest.body.error.code).toBe('UNAUTHORIZED');
  });

  it('mine has the posts about a market or ticker with an open order, not others; guests get 401', async () => {
    const mine = await walk({ filter: 'mine' }, await tokenFor(orderer));
    const got = mine.map((p) => p.id);
    expect(got).toContain(own.aboutOrderMarket);
    expect(got).toContain(own.aboutOrderTicker);
    expect(got).toContain(own.removed); // about seed-q-3 too: a removed post keeps its place
    for (const k of ['aboutClosedOrder', 'byFollowed', 'byUnfollowed', 'npcPlain']) expect(got, k).not.toContain(own[k]);
    for (const k of ['humanAboutQ1', 'textQbit', 'aboutQ2', 'plainHuman']) expect(got, k).not.toContain(ids[k]);
    // mine = held=true; the holder's held feed is unchanged by the orders of others.
    expect((await walk({ held: 'true' }, await tokenFor(orderer))).map((p) => p.id)).toEqual(got);
    const holderMine = (await walk({ filter: 'mine' }, await tokenFor(holder))).map((p) => p.id);
    for (const k of HELD) expect(holderMine, k).toContain(ids[k]);
    expect(holderMine).not.toContain(own.aboutOrderMarket);
    // mine combines with players: the NPC's ticker post goes.
    const minePlayers = (await walk({ filter: 'mine', hideNpcs: 'true' }, await tokenFor(orderer))).map((p) => p.id);
    expect(minePlayers).toContain(own.aboutOrderMarket);
    expect(minePlayers).not.toContain(own.aboutOrderTicker);
    const guest = await call(listPosts, '/api/posts', { query: { filter: 'mine' } });
    expect(guest.status).toBe(401);
    expect(guest.body.error.code).toBe('UNAUTHORIZED');
    expect((await call(listPosts, '/api/posts', { query: { filter: 'nobody' } })).status).toBe(400);
  });

  it('a removed post keeps its place with `removed` and empty content; a moderator still reads it', async () => {
    const guestFeed = (await call(listPosts, '/api/posts', { query: { limit: 50 } })).body.posts as (TPostOut & Record<string, any>)[];
    const ix = guestFeed.findIndex((p) => p.id === own.removed);
    expect(ix).toBeGreaterThanOrEqual(0);
    const removed = guestFeed[ix]!;
    expect(removed.removed).toEqual({ reason: 'Spam', at: expect.any(String) });
    expect(removed.content).toBe('');
    expect(removed.imageUrl).toBeNull();
    expect(removed.tags).toEqual([]);
    expect(removed.market).toBeNull();
    // Its neighbours are in their places, and they are not removed.
    expect(guestFeed[ix + 1]!.id).toBe(own.aboutOrderTicker);
    expect(guestFeed.filter((p) => p.id !== own.removed).every((p) => p.removed === null)).toBe(true);
    // A player reads the single post the same way.
    const one = await call(getPostRoute, `/api/posts/${own.removed}`, { token: await tokenFor(fan), params: { id: own.removed! } });
    expect(one.status).toBe(200);
    expect(one.body.post.content).toBe('');
    expect(one.body.post.removed.reason).toBe('Spam');
    // An administrator sees what was removed, and why.
    const asAdmin = await call(getPostRoute, `/api/posts/${own.removed}`, { token: await tokenFor(admin), params: { id: own.removed! } });
    expect(asAdmin.body.post.content).toBe('Something a moderator removed #gone');
    expect(asAdmin.body.post.tags).toEqual(['gone']);
    expect(asAdmin.body.post.removed.reason).toBe('Spam');
  });

  it('a filtered page costs the statements of an unfiltered one (one for the page, one for its posts)', async () => {
    const dialect = new PgDialect();
    const sqlOf = (q: unknown) => dialect.sqlToQuery(q as SQL).sql;
    const count = async (query: Record<string, string>, token: string) => {
      const spies = await spyOnStatements();
      const first = await call(listPosts, '/api/posts', { token, query: { ...query, limit: '1' } });
      expect(first.body.nextCursor, JSON.stringify(query)).toBeTruthy();
      spies.clear();
      const res = await call(listPosts, '/api/posts', { token, query: { ...query, limit: '1', cursor: first.body.nextCursor } });
      expect(res.body.posts).toHaveLength(1);
      expect(res.status).toBe(200);
      const postStatements = spies.execCalls().filter(([q]) => sqlOf(q).includes('"posts"')).length;
      const n = spies.execCalls().length + spies.selectCalls().length;
      spies.restore();
      return { n, postStatements };
    };
    const fanToken = await tokenFor(fan);
    const base = await count({}, fanToken);
    expect(base.postStatements).toBe(2);
    expect(await count({ filter: 'players' }, fanToken)).toEqual(base);
    expect(await count({ filter: 'following' }, fanToken)).toEqual(base);
    expect(await count({ filter: 'mine' }, await tokenFor(orderer))).toEqual(base);
  });
});
