/**
 * The past's NPC chatter written (chatter.ts writeChatter) into a seeded world: every generated
 * post and reply becomes a row, tags as the posts service writes them, each post's comments_count
 * agrees with its comments, and GET /api/posts serves them newest first with those counts.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { GET as listPosts } from '@/app/api/posts/route';
import { getDb, rowsOf } from '@/db/client';
import { actors, comments, markets, organizations, posts, postTags, users } from '@/db/schema';
import { setFixedTime } from '@/lib/clock/clock';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { parseTags } from '@/lib/posts/text';
import { seedWorld } from '@/lib/world/seed/world';
import { call } from '@/test/http';
import { generateChatter, loadChatterWorld, writeChatter, type TChatter } from './chatter';
import { generateHistory, type TBackfillWorld } from './generate';

const T0 = new Date('2026-06-01T12:00:00.000Z');
const DAYS = 2;

let chatter: TChatter;
let written: Awaited<ReturnType<typeof writeChatter>>;
/** What the seed wrote itself (a few posts and comments), before the chatter. */
const before = { posts: 0, comments: 0, tags: 0, postIds: new Set<string>() };
const countOf = async (table: typeof posts | typeof comments | typeof postTags) => {
  const [r] = rowsOf<{ n: number }>(await (await getDb()).execute(sql`select count(*)::int as n from ${table}`));
  return Number(r!.n);
};

beforeAll(async () => {
  setFixedTime(T0);
  const db = await getDb();
  await seedWorld(db);
  const orgRows = await db.select().from(organizations).orderBy(organizations.ticker);
  const npcRows = rowsOf<{ id: string; username: string; display_name: string; role: string; tier: 'S' | 'A' | 'B' | 'C'; organization_id: string | null; cash: string }>(
    await db.execute(sql`
      select u.id, u.username, u.display_name, a.role, a.tier, a.organization_id, u.virtual_balance::text as cash
      from ${actors} a join ${users} u on u.id = a.user_id order by u.id`),
  );
  const marketRows = await db.select().from(markets).where(eq(markets.status, 'active')).orderBy(markets.id);
  const world: TBackfillWorld = {
    orgs: orgRows.map((o) => ({ id: o.id, name: o.name, ticker: o.ticker, price: Number(o.currentPrice), volatility: Number(o.volatility) })),
    actors: npcRows.map((a) => ({ id: a.id, name: a.display_name, organizationId: a.organization_id, cash: Number(a.cash) })),
    markets: marketRows.map((m) => ({ id: m.id, yesShares: String(m.yesShares), noShares: String(m.noShares), resolutionDate: m.resolutionDate, rule: null })),
    pools: [],
  };
  const history = generateHistory({ seed: 'chatter-int', end: T0, days: DAYS, stepMinutes: 60, world });
  chatter = generateChatter({ seed: 'chatter-int', history, ...(await loadChatterWorld(db)) });
  before.posts = await countOf(posts);
  before.comments = await countOf(comments);
  before.tags = await countOf(postTags);
  before.postIds = new Set((await db.select({ id: posts.id }).from(posts)).map((r) => r.id));
  const t = performance.now();
  written = await writeChatter(db, chatter);
  console.log(`writeChatter: ${written.posts} posts, ${written.replies} replies, ${written.tags} tags in ${Math.round(performance.now() - t)} ms`);
}, 180_000);

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

describe('writeChatter', () => {
  it('writes every generated post, reply and tag as a row', async () => {
    expect(chatter.posts.length).toBeGreaterThan(DAYS * 600);
    expect(chatter.replies.length).toBeGreaterThan(DAYS * 500);
    const tags = chatter.posts.reduce((s, x) => s + parseTags(x.content).length, 0);
    expect(written).toEqual({ posts: chatter.posts.length, replies: chatter.replies.length, tags });
    expect((await countOf(posts)) - before.posts).toBe(chatter.posts.length);
    expect((await countOf(comments)) - before.comments).toBe(chatter.replies.length);
    expect((await countOf(postTags)) - before.tags).toBe(tags);
  });

  it('sets each post’s comments_count to its comments, each comment replying to the post’s author', async () => {
    const db = await getDb();
    const [bad] = rowsOf<{ n: number }>(
      await db.execute(sql`
        select count(*)::int as n from ${posts} p
        where p.comments_count <> (select count(*) from ${comments} c where c.post_id = p.id)`),
    );
    expect(Number(bad!.n)).toBe(0);
    const [wrongTarget] = rowsOf<{ n: number }>(
      await db.execute(sql`
        select count(*)::int as n from ${comments} c join ${posts} p on p.id = c.post_id
        where c.reply_to_user_id <> p.author_id or c.author_id = p.author_id or c.created_at <= p.created_at`),
    );
    expect(Number(wrongTarget!.n)).toBe(0);
    const [commented] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${posts} where comments_count > 0`));
    expect(Number(commented!.n)).toBeGreaterThan(100);
  });

  it('keeps the questions posts are about that exist, and no post refers to a missing one', async () => {
    const db = await getDb();
    const [orphans] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from ${posts} p where p.related_question_id is not null and not exists (select 1 from ${markets} m where m.id = p.related_question_id)`),
    );
    expect(Number(orphans!.n)).toBe(0);
    const [related] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${posts} where related_question_id is not null`));
    expect(Number(related!.n)).toBeGreaterThan(0);
  });

  it('GET /api/posts serves the chatter newest first with its comment counts', async () => {
    const res = await call(listPosts, '/api/posts', { query: { limit: '100' } });
    expect(res.status).toBe(200);
    const page = res.body.posts as { id: string; content: string; authorId: string; commentsCount: number; createdAt: string }[];
    expect(page).toHaveLength(100);
    // The chatter among the newest 100 (the seed's own posts aside) is the newest chatter, in order.
    const served = page.filter((p) => !before.postIds.has(p.id));
    expect(served.length).toBeGreaterThan(50);
    const newest = [...chatter.posts].sort((a, b) => b.at.getTime() - a.at.getTime() || b.index - a.index).slice(0, served.length);
    expect(served.map((p) => p.createdAt)).toEqual(newest.map((p) => p.at.toISOString()));
    expect(new Set(served.map((p) => p.content))).toEqual(new Set(newest.map((p) => p.content)));
    expect(res.body.pagination.total).toBe(before.posts + chatter.posts.length);
    const db = await getDb();
    const counts = new Map(
      rowsOf<{ post_id: string; n: number }>(await db.execute(sql`select post_id, count(*)::int as n from ${comments} group by post_id`)).map((r) => [r.post_id, Number(r.n)]),
    );
    for (const p of page) expect(p.commentsCount, p.id).toBe(counts.get(p.id) ?? 0);
    // Older posts carry their replies: the page a day back has some with comments.
    const older = await call(listPosts, '/api/posts', { query: { limit: '100', page: '10' } });
    expect(older.status).toBe(200);
    const olderPage = older.body.posts as { id: string; commentsCount: number }[];
    expect(olderPage.some((p) => p.commentsCount > 0)).toBe(true);
    for (const p of olderPage) expect(p.commentsCount, p.id).toBe(counts.get(p.id) ?? 0);
  });
});
