/**
 * GET /api/posts `hideNpcs` and `held` (issue 31, deliverable 7): hideNpcs leaves out NPCs' posts,
 * held keeps only the posts about a market the caller holds shares in or a ticker with their open
 * perp (the post's relatedQuestion, the trade it reports, a $TICKER in its text), in the page and
 * the cursor forms alike; held needs a signed-in caller (401, as following=true).
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as listPosts } from '@/app/api/posts/route';
import { eq, inArray } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { perpTrades, posts, trades, users, type TUserRow } from '@/db/schema';
import { callerOfUser } from '@/lib/auth/caller';
import { now, setFixedTime } from '@/lib/clock/clock';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { openPosition } from '@/lib/perps/service/open-position';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';

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
