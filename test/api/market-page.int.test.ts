/**
 * The market page's reads: a question's description and resolution criteria from its rule, its top
 * holders (blocks respected), related news, posts about it, and the list's search, sort and filters.
 */
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { POST as createMarketRoute } from '@/app/api/admin/markets/route';
import { GET as holdersRoute } from '@/app/api/markets/predictions/[id]/holders/route';
import { GET as newsRoute } from '@/app/api/markets/predictions/[id]/news/route';
import { GET as postsRoute } from '@/app/api/markets/predictions/[id]/posts/route';
import { GET as getMarketRoute } from '@/app/api/markets/predictions/[id]/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { GET as listRoute } from '@/app/api/markets/predictions/route';
import { GET as tradesRoute } from '@/app/api/trades/route';
import { getDb } from '@/db/client';
import { blocks, marketPricePoints, markets, organizations, posts, questionRules, worldEvents, type TUserRow } from '@/db/schema';
import { resetClock } from '@/lib/clock/clock';
import { setLimiter } from '@/lib/operations/rate-limit';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';

beforeEach(() => {
  setLimiter(pinnedLimiter());
  resetClock();
});

let admin: TUserRow;
const adminToken = async () => {
  admin ??= await seedUser({ isAdmin: true, balance: '0' });
  return tokenFor(admin);
};

let seq = 0;
const newMarket = async (text: string) => {
  const res = await call(createMarketRoute, '/api/admin/markets', {
    method: 'POST',
    token: await adminToken(),
    body: { text, resolutionDate: new Date(Date.now() + 3 * 86_400_000).toISOString() },
  });
  expect(res.status).toBe(200);
  return res.body.market as { id: string; questionNumber: number };
};

const newOrg = async (sector: string) => {
  seq++;
  const ticker = `T${seq}${Math.floor(Math.random() * 1e4)}`.slice(0, 8).toUpperCase();
  const [org] = await (await getDb())
    .insert(organizations)
    .values({ id: `org-${ticker}`, name: `Org ${ticker} Holdings`, ticker, sector, initialPrice: '100', currentPrice: '100', createdAt: new Date() })
    .returning();
  return org!;
};

const addRule = async (marketId: string, rule: Partial<typeof questionRules.$inferInsert> & { kind: 'price' | 'event'; organizationId: string }) =>
  (await getDb()).insert(questionRules).values({ marketId, createdAt: new Date(), ...rule });

const buy = async (user: TUserRow, marketId: string, outcome: 'YES' | 'NO', amount: number) => {
  const res = await call(buyRoute, `/api/markets/predictions/${marketId}/buy`, {
    method: 'POST',
    token: await tokenFor(user),
    params: { id: marketId },
    body: { outcome, amount },
  });
  expect(res.status).toBe(200);
};

const get = async (handler: Parameters<typeof call>[0], path: string, opts: { params?: Record<string, string>; token?: string } = {}) =>
  call(handler, path, { ...opts });

describe('GET /api/markets/predictions/{id}: description and resolution criteria', () => {
  it('a question without a rule resolves from its own price', async () => {
    const m = await newMarket('Will the market page explain itself to players?');
    const res = await get(getMarketRoute, `/api/markets/predictions/${m.id}`, { params: { id: m.id } });
    expect(res.status).toBe(200);
    expect(res.body.market).toMatchObject({ id: m.id, resolutionSource: 'market', organization: null, topic: null, ticker: null });
    expect(res.body.market.resolutionCriteria).toContain('YES price is 50% or more');
    // The specified fields are still there.
    expect(res.body.market).toMatchObject({ question: 'Will the market page explain itself to players?', status: 'active' });
  });

  it('a price rule names the organization, its ticker, the threshold and the sector as topic', async () => {
    const org = await newOrg('Energy');
    const m = await newMarket(`Will $${org.ticker} close above 104.5 by Friday?`);
    await addRule(m.id, { kind: 'price', organizationId: org.id, ticker: org.ticker, comparison: 'above', threshold: '104.500000' });
    const res = await get(getMarketRoute, `/api/markets/predictions/${m.id}`, { params: { id: m.id } });
    expect(res.body.market).toMatchObject({
      resolutionSource: 'price',
      organization: { id: org.id, name: org.name, ticker: org.ticker },
      topic: 'Energy',
      ticker: org.ticker,
    });
    expect(res.body.market.resolutionCriteria).toContain(`($${org.ticker}) in the game world is strictly above 104.5`);
  });

  it('an event rule names the kind of news', async () => {
    const org = await newOrg('Technology');
    const m = await newMarket(`Will ${org.name} be hit by a scandal by Friday?`);
    await addRule(m.id, { kind: 'event', organizationId: org.id, eventKind: 'scandal' });
    const res = await get(getMarketRoute, `/api/markets/predictions/${m.id}`, { params: { id: m.id } });
    expect(res.body.market.resolutionSource).toBe('event');
    expect(res.body.market.resolutionCriteria).toContain(`"scandal" about ${org.name}`);
  });
});

describe('GET /api/markets/predictions/{id}/holders', () => {
  it('lists both sides largest first, hides people in a block with the caller, and 404s an unknown market', async () => {
    const m = await newMarket('Will the holders list put the whales first?');
    const [big, small, no, viewer] = await Promise.all([seedUser(), seedUser(), seedUser(), seedUser()]);
    await buy(big, m.id, 'YES', 200);
    await buy(small, m.id, 'YES', 20);
    await buy(no, m.id, 'NO', 50);
    const res = await get(holdersRoute, `/api/markets/predictions/${m.id}/holders`, { params: { id: m.id } });
    expect(res.status).toBe(200);
    expect(res.body.yes.map((h: { user: { id: string } }) => h.user.id)).toEqual([big!.id, small!.id]);
    expect(res.body.no.map((h: { user: { id: string } }) => h.user.id)).toEqual([no!.id]);
    expect(res.body).toMatchObject({ yesHolderCount: 2, noHolderCount: 1 });
    const shares = res.body.holders.map((h: { shares: number }) => h.shares);
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
    expect(res.body.holders[0]).toMatchObject({ side: 'YES', outcome: 'YES' });
    expect(res.body.holders[0].value).toBeGreaterThan(0);

    await (await getDb()).insert(blocks).values({ blockerId: big!.id, blockedId: viewer!.id, createdAt: new Date() });
    const seen = await get(holdersRoute, `/api/markets/predictions/${m.id}/holders`, { params: { id: m.id }, token: await tokenFor(viewer!) });
    expect(seen.body.yes.map((h: { user: { id: string } }) => h.user.id)).toEqual([small!.id]);
    expect(seen.body.yesHolderCount).toBe(1);

    const missing = await get(holdersRoute, '/api/markets/predictions/nope/holders', { params: { id: 'nope' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });
});

describe('GET /api/markets/predictions/{id}/news and /posts', () => {
  it('returns the world events that name the question, newest first, and only those', async () => {
    const org = await newOrg('Energy');
    const m = await newMarket('Will news about this question show on its page?');
    const db = await getDb();
    const at = Date.now();
    await db.insert(worldEvents).values([
      { id: `ev-a-${m.id}`, kind: 'scandal', title: 'Older news', content: 'x', organizationId: org.id, impact: '-0.05', relatedQuestions: [m.questionNumber], createdAt: new Date(at - 60_000) },
      { id: `ev-b-${m.id}`, kind: 'partnership', title: 'Newer news', content: 'y', organizationId: org.id, impact: '0.02', relatedQuestions: [999_999, m.questionNumber], createdAt: new Date(at) },
      { id: `ev-c-${m.id}`, kind: 'partnership', title: 'Unrelated', content: 'z', organizationId: org.id, impact: '0.02', relatedQuestions: [], createdAt: new Date(at) },
    ]);
    const res = await get(newsRoute, `/api/markets/predictions/${m.id}/news`, { params: { id: m.id } });
    expect(res.status).toBe(200);
    expect(res.body.news.map((n: { title: string }) => n.title)).toEqual(['Newer news', 'Older news']);
    expect(res.body.news[1]).toMatchObject({ impact: -0.05, organization: { id: org.id, ticker: org.ticker } });
  });

  it("lists the posts about the market that the caller may see (banned authors and blocks left out)", async () => {
    const m = await newMarket('Will the posts about this market show on its page?');
    const [author, banned, blocker, viewer] = await Promise.all([seedUser(), seedUser({ isBanned: true }), seedUser(), seedUser()]);
    const db = await getDb();
    const at = Date.now();
    const post = (authorId: string, content: string, ms: number, commentsCount = 0) => ({
      authorId,
      content,
      relatedQuestionId: m.id,
      commentsCount,
      createdAt: new Date(at + ms),
      updatedAt: new Date(at + ms),
    });
    await db.insert(posts).values([
      post(author!.id, 'I think YES, the numbers look good', 0, 2),
      post(banned!.id, 'spam from a banned account', 1000),
      post(blocker!.id, 'NO, no way this happens', 2000, 1),
      { ...post(author!.id, 'A post about something else', 3000), relatedQuestionId: null },
    ]);
    const anon = await get(postsRoute, `/api/markets/predictions/${m.id}/posts`, { params: { id: m.id } });
    expect(anon.status).toBe(200);
    expect(anon.body.posts.map((p: { content: string }) => p.content)).toEqual(['NO, no way this happens', 'I think YES, the numbers look good']);
    expect(anon.body).toMatchObject({ count: 2, commentsCount: 3 });
    expect(anon.body.posts[1].author).toMatchObject({ id: author!.id, username: author!.username });

    await db.insert(blocks).values({ blockerId: blocker!.id, blockedId: viewer!.id, createdAt: new Date() });
    const seen = await get(postsRoute, `/api/markets/predictions/${m.id}/posts`, { params: { id: m.id }, token: await tokenFor(viewer!) });
    expect(seen.body.posts.map((p: { authorId: string }) => p.authorId)).toEqual([author!.id]);
  });
});

describe('GET /api/trades?marketId&userId (the player\'s own trades on the market page)', () => {
  it('returns only that player\'s trades in that market', async () => {
    const [a, b] = await Promise.all([seedUser(), seedUser()]);
    const m = await newMarket('Will my trade history on this market list my trades only?');
    const other = await newMarket('Will another market keep its trades to itself?');
    await buy(a!, m.id, 'YES', 10);
    await buy(a!, other.id, 'NO', 10);
    await buy(b!, m.id, 'NO', 10);
    const res = await call(tradesRoute, `/api/trades?marketId=${m.id}&userId=${a!.id}&type=prediction`, { token: await tokenFor(a!) });
    expect(res.status).toBe(200);
    expect(res.body.trades).toHaveLength(1);
    expect(res.body.trades[0]).toMatchObject({ marketId: m.id, userId: a!.id, side: 'YES', action: 'buy' });
  });
});

describe('GET /api/markets/predictions: search, sort, filters', () => {
  it('searches the text, sorts by volume, closing date and 24 h move, filters by topic and ticker, and lists the facets', async () => {
    const tag = `zq${Math.floor(Math.random() * 1e6)}`;
    const energy = await newOrg('Energy');
    const tech = await newOrg('Technology');
    const a = await newMarket(`Will ${tag} alpha 100% happen by Friday?`);
    const b = await newMarket(`Will ${tag} beta happen by Friday?`);
    const c = await newMarket(`Will ${tag} gamma happen by Friday?`);
    await addRule(a.id, { kind: 'price', organizationId: energy.id, ticker: energy.ticker, comparison: 'above', threshold: '100' });
    await addRule(b.id, { kind: 'event', organizationId: tech.id, eventKind: 'scandal' });
    const db = await getDb();
    // c closes first; b has the most volume; a moved most in 24 h (its point a day ago was at 0.9).
    await db.update(markets).set({ resolutionDate: new Date(Date.now() + 86_400_000) }).where(eq(markets.id, c.id));
    const [whale] = await Promise.all([seedUser({ balance: '5000' })]);
    await buy(whale!, b.id, 'YES', 300);
    await buy(whale!, a.id, 'NO', 20);
    await db.insert(marketPricePoints).values({
      marketId: a.id,
      yesPrice: '0.9',
      yesShares: '900',
      noShares: '100',
      source: 'tick',
      createdAt: new Date(Date.now() - 2 * 86_400_000),
    });

    const list = async (query: string) => {
      const res = await call(listRoute, `/api/markets/predictions?${query}`);
      expect(res.status).toBe(200);
      return res.body as { questions: { id: string; topic: string | null; ticker: string | null }[]; count: number; facets: { topics: string[]; tickers: string[] } };
    };
    const ids = (r: { questions: { id: string }[] }) => r.questions.map((q) => q.id);

    expect(ids(await list(`q=${tag}`)).sort()).toEqual([a.id, b.id, c.id].sort());
    expect(ids(await list(`q=${tag.toUpperCase()}%20beta`))).toEqual([b.id]);
    // A % in the search is a literal percent sign, not a wildcard.
    expect(ids(await list(`q=${tag}%20100%25`))).toEqual([a.id]);
    expect(ids(await list(`q=${tag}&sort=volume`))[0]).toBe(b.id);
    expect(ids(await list(`q=${tag}&sort=closing`))[0]).toBe(c.id);
    expect(ids(await list(`q=${tag}&sort=movers`))[0]).toBe(a.id);
    expect(ids(await list(`q=${tag}&sort=newest`))).toEqual([c.id, b.id, a.id]);

    const energyOnly = await list(`q=${tag}&topic=Energy`);
    expect(ids(energyOnly)).toEqual([a.id]);
    expect(energyOnly.questions[0]).toMatchObject({ topic: 'Energy', ticker: energy.ticker });
    expect(ids(await list(`ticker=$${tech.ticker.toLowerCase()}`))).toEqual([b.id]);
    expect((await list(`q=${tag}&ticker=${tech.ticker}&topic=Energy`)).count).toBe(0);

    const { facets } = await list('limit=1');
    expect(facets.topics).toEqual(expect.arrayContaining(['Energy', 'Technology']));
    expect(facets.tickers).toEqual(expect.arrayContaining([energy.ticker, tech.ticker]));

    // The specified parameters and their defaults are unchanged: status active, page 1, limit 20.
    const plain = await call(listRoute, '/api/markets/predictions');
    expect(plain.body.pagination).toMatchObject({ page: 1, limit: 20 });
    const bad = await call(listRoute, '/api/markets/predictions?sort=sideways');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_PARAMETER');
  });
});
