import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as createMarketRoute } from '@/app/api/admin/markets/route';
import { POST as openPerpRoute } from '@/app/api/markets/perps/open/route';
import { GET as getMarketRoute } from '@/app/api/markets/predictions/[id]/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { POST as sellRoute } from '@/app/api/markets/predictions/[id]/sell/route';
import { GET as getPostRoute } from '@/app/api/posts/[id]/route';
import { GET as listPostsRoute, POST as createPostRoute } from '@/app/api/posts/route';
import { GET as tagPostsRoute } from '@/app/api/trending/[tag]/route';
import { GET as userPostsRoute } from '@/app/api/users/[userId]/posts/route';
import { getDb } from '@/db/client';
import { marketPositions, perpTrades, posts, trades, type TUserRow } from '@/db/schema';
import { resetClock } from '@/lib/clock/clock';
import { dec } from '@/lib/money/decimal';
import { setLimiter } from '@/lib/operations/rate-limit';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';
import { spyOnStatements } from '../db-spies';

// The Post answer's trading fields: the related market priced as the market route prices it, the
// author's open position from market_positions, the trade a post reports (trade_kind/trade_id),
// the $TICKERs of real perps, and nulls on posts without them; a page still costs a fixed
// number of statements.

beforeAll(async () => {
  await seedWorld(await getDb());
});

beforeEach(() => {
  setLimiter(pinnedLimiter());
  resetClock();
});

let admin: TUserRow;
const adminToken = async () => {
  admin ??= await seedUser({ isAdmin: true, balance: '0' });
  return tokenFor(admin);
};

const newMarket = async () => {
  const res = await call(createMarketRoute, '/api/admin/markets', {
    method: 'POST',
    token: await adminToken(),
    body: { text: 'Will a post about this market carry it?', resolutionDate: new Date(Date.now() + 7 * 86_400_000).toISOString() },
  });
  expect(res.status).toBe(200);
  return res.body.market as { id: string };
};

const buy = async (user: TUserRow, marketId: string, outcome: 'YES' | 'NO', amount: number) => {
  const res = await call(buyRoute, `/api/markets/predictions/${marketId}/buy`, {
    method: 'POST',
    token: await tokenFor(user),
    params: { id: marketId },
    body: { outcome, amount },
  });
  expect(res.status).toBe(200);
  return res.body;
};

const newPost = async (user: TUserRow, content: string, relatedQuestion?: string) => {
  const res = await call(createPostRoute, '/api/posts', { method: 'POST', token: await tokenFor(user), body: { content, relatedQuestion } });
  expect(res.status).toBe(201);
  return res.body.post as { id: string; market: unknown; authorPosition: unknown; trade: unknown; tickers: string[] };
};

const readPost = async (id: string, reader?: TUserRow) => {
  const res = await call(getPostRoute, `/api/posts/${id}`, { params: { id }, ...(reader ? { token: await tokenFor(reader) } : {}) });
  expect(res.status).toBe(200);
  return res.body.post;
};

const marketRest = async (id: string) => (await call(getMarketRoute, `/api/markets/predictions/${id}`, { params: { id } })).body.market;

describe('the Post answer: market, author position, trade, tickers', () => {
  it('a post with a related question carries the market as the market route prices it, and the author position from market_positions', async () => {
    const m = await newMarket();
    const author = await seedUser({ balance: '1000' });
    const other = await seedUser({ balance: '1000' });
    await buy(author, m.id, 'YES', 100);
    await buy(other, m.id, 'NO', 30);
    const created = await newPost(author, 'Loaded up on YES here', m.id);
    const rest = await marketRest(m.id);
    expect(created.market).toEqual({
      id: m.id,
      question: rest.question,
      yesPrice: rest.yesPrice,
      noPrice: rest.noPrice,
      change24h: rest.change24h,
      status: 'active',
      resolvedOutcome: null,
    });
    const [held] = await (await getDb())
      .select()
      .from(marketPositions)
      .where(and(eq(marketPositions.userId, author.id), eq(marketPositions.marketId, m.id), eq(marketPositions.side, 'YES')));
    expect(created.authorPosition).toEqual({
      side: 'YES',
      shares: dec(held!.shares).toNumber(),
      avgPrice: dec(held!.costBasis).div(held!.shares).toNumber(),
    });

    // Every read path carries the same fields, and the market is read live: a later trade moves it.
    await buy(other, m.id, 'YES', 200);
    const after = await marketRest(m.id);
    const single = await readPost(created.id, other);
    expect(single.market.yesPrice).toBe(after.yesPrice);
    expect(single.market.yesPrice).toBeGreaterThan(rest.yesPrice);
    const feed = await call(listPostsRoute, '/api/posts', { query: { userId: author.id } });
    const inFeed = feed.body.posts.find((p: { id: string }) => p.id === created.id);
    expect(inFeed).toMatchObject({ market: single.market, authorPosition: single.authorPosition, trade: null, tickers: [] });
    const byUser = await call(userPostsRoute, `/api/users/${author.id}/posts`, { params: { userId: author.id } });
    expect(byUser.body.posts[0]).toMatchObject({ id: created.id, market: single.market, authorPosition: single.authorPosition });
  });

  it('the author position is null when the author holds none or sold out, and someone else holding changes nothing', async () => {
    const m = await newMarket();
    const author = await seedUser({ balance: '1000' });
    const other = await seedUser({ balance: '1000' });
    await buy(other, m.id, 'YES', 50);
    const p = await newPost(author, 'Watching this one', m.id);
    expect(p.market).not.toBeNull();
    expect(p.authorPosition).toBeNull();
    const bought = await buy(author, m.id, 'NO', 20);
    expect((await readPost(p.id)).authorPosition).toMatchObject({ side: 'NO', shares: bought.shares });
    const sold = await call(sellRoute, `/api/markets/predictions/${m.id}/sell`, {
      method: 'POST',
      token: await tokenFor(author),
      params: { id: m.id },
      body: { positionId: bought.position.id, shares: bought.shares },
    });
    expect(sold.status).toBe(200);
    expect((await readPost(p.id)).authorPosition).toBeNull();
  });

  it('a post without a market, trade or ticker carries nulls and an empty list', async () => {
    const author = await seedUser();
    const p = await newPost(author, 'Just a thought about #markets and $money, nothing more');
    expect(p).toMatchObject({ market: null, authorPosition: null, trade: null, tickers: [] });
    const tagged = await call(tagPostsRoute, '/api/trending/markets', { params: { tag: 'markets' } });
    const inTag = tagged.body.posts.find((x: { id: string }) => x.id === p.id);
    expect(inTag).toMatchObject({ market: null, authorPosition: null, trade: null, tickers: [] });
  });

  it('a post with trade_kind/trade_id carries that trade: a prediction trade and a perp trade with its leverage', async () => {
    const db = await getDb();
    const m = await newMarket();
    const author = await seedUser({ balance: '5000' });
    await buy(author, m.id, 'YES', 40);
    const [t] = await db.select().from(trades).where(eq(trades.userId, author.id)).orderBy(desc(trades.createdAt)).limit(1);
    const predictionPost = await newPost(author, 'Bought YES', m.id);
    await db.update(posts).set({ tradeKind: 'prediction', tradeId: t!.id }).where(eq(posts.id, predictionPost.id));
    expect((await readPost(predictionPost.id)).trade).toEqual({
      kind: 'prediction',
      id: t!.id,
      side: 'YES',
      action: 'buy',
      ticker: null,
      marketId: m.id,
      amount: dec(t!.amount).toNumber(),
      price: dec(t!.price).toNumber(),
      shares: dec(t!.shares).toNumber(),
      leverage: null,
      createdAt: t!.createdAt.toISOString(),
    });

    const opened = await call(openPerpRoute, '/api/markets/perps/open', {
      method: 'POST',
      token: await tokenFor(author),
      body: { ticker: 'HELX', side: 'long', size: 400, leverage: 20 },
    });
    expect(opened.status).toBe(200);
    const [pt] = await db.select().from(perpTrades).where(eq(perpTrades.userId, author.id));
    const perpPost = await newPost(author, 'Opened 20x long $HELX, also watching $NEXA and $NOPE but not #HELX');
    await db.update(posts).set({ tradeKind: 'perp', tradeId: pt!.id }).where(eq(posts.id, perpPost.id));
    const read = await readPost(perpPost.id);
    expect(read.trade).toEqual({
      kind: 'perp',
      id: pt!.id,
      side: 'long',
      action: 'open',
      ticker: 'HELX',
      marketId: null,
      amount: 400,
      price: dec(pt!.price).toNumber(),
      shares: null,
      leverage: 20,
      createdAt: pt!.createdAt.toISOString(),
    });
    // Only real tickers written as $TICKER, in order; #HELX stays a tag.
    expect(read.tickers).toEqual(['HELX', 'NEXA']);
    expect(read.market).toBeNull();

    // A trade id that names no row of its kind reads as no trade, not an error.
    await db.update(posts).set({ tradeKind: 'perp', tradeId: t!.id }).where(eq(posts.id, predictionPost.id));
    expect((await readPost(predictionPost.id)).trade).toBeNull();
  });

  it('reads a feed page of 20 trading posts in the same number of statements as a page of 2', async () => {
    const db = await getDb();
    const author = await seedUser({ balance: '5000' });
    const m = await newMarket();
    await buy(author, m.id, 'YES', 10);
    const [t] = await db.select().from(trades).where(eq(trades.userId, author.id)).limit(1);
    for (let i = 0; i < 20; i++) {
      const p = await newPost(author, `Trading post ${i} on $HELX`, m.id);
      if (i % 2) await db.update(posts).set({ tradeKind: 'prediction', tradeId: t!.id }).where(eq(posts.id, p.id));
    }
    const count = async (limit: number) => {
      const spies = await spyOnStatements();
      const res = await call(listPostsRoute, '/api/posts', { query: { userId: author.id, limit } });
      expect(res.body.posts).toHaveLength(limit);
      expect(res.body.posts.every((p: { market: unknown; tickers: string[] }) => p.market !== null && p.tickers[0] === 'HELX')).toBe(true);
      const n = spies.execCalls().length + spies.selectCalls().length;
      spies.restore();
      return n;
    };
    const small = await count(2);
    const large = await count(20);
    expect(large).toBe(small);
  });
});
