/**
 * The feed of everyone's total (GET /api/posts, page form) is the kept total less the kept counts
 * of the authors the caller may not see (post_counts and post_totals, migration 0035), not a count
 * of every post. Here it is held equal to counting the feed item by item for an anonymous caller,
 * a player who muted one author, blocked another and is blocked by a third, a banned player (who
 * still sees their own posts), with and without each type and the NPC filter; through the route
 * too; the kept counts equal the posts' own; and the statement reads no posts.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as postsRoute } from '@/app/api/posts/route';
import { getDb, rowsOf } from '@/db/client';
import { blocks, mutes, posts, users, type TUserRow } from '@/db/schema';
import { buildFeedCountQuery, buildFeedExactCountQuery, type TFeedSource } from '@/lib/posts/queries';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';

const countOf = async (query: ReturnType<typeof sql>) => Number(rowsOf<{ n: string | number }>(await (await getDb()).execute(query))[0]!.n);

let viewer: TUserRow;
let banned: TUserRow;
let npc: TUserRow;

describe("the feed of everyone's total, kept", () => {
  beforeAll(async () => {
    const db = await getDb();
    await seedWorld(db);
    viewer = await seedUser();
    const [muted, blocked, blocker, plain] = [await seedUser(), await seedUser(), await seedUser(), await seedUser()];
    banned = await seedUser({ isBanned: true });
    npc = await seedUser({ isActor: true });
    const authors = [viewer, muted, blocked, blocker, plain, banned, npc];
    const at = Date.now();
    let i = 0;
    for (const [k, author] of authors.entries()) {
      for (let j = 0; j < 2 + k; j++) {
        const when = new Date(at - ++i * 1000);
        await db.insert(posts).values({ authorId: author.id, type: j % 3 === 2 ? 'article' : 'post', content: `Post ${i} of the kept total`, createdAt: when, updatedAt: when } as typeof posts.$inferInsert);
      }
    }
    // Several rows in one statement, as the tick and the backfill write them.
    await db.insert(posts).values(
      Array.from({ length: 5 }, (_, n) => ({ authorId: n % 2 ? plain.id : npc.id, type: 'post' as const, content: `Batch post ${n}`, createdAt: new Date(at - 60_000 - n), updatedAt: new Date(at) })),
    );
    const now = new Date();
    await db.insert(mutes).values({ muterId: viewer.id, mutedId: muted.id, createdAt: now } as typeof mutes.$inferInsert);
    await db.insert(blocks).values({ blockerId: viewer.id, blockedId: blocked.id, createdAt: now } as typeof blocks.$inferInsert);
    await db.insert(blocks).values({ blockerId: blocker.id, blockedId: viewer.id, createdAt: now } as typeof blocks.$inferInsert);
  });

  it('keeps each author and type count, and the total, equal to the posts', async () => {
    const db = await getDb();
    const off = rowsOf(
      await db.execute(sql`
        select coalesce(c.author_id, p.author_id) as author_id, coalesce(c.type, p.type) as type, c.n as kept, p.n as counted
        from post_counts c full join (select author_id, type, count(*) as n from posts group by 1, 2) p on p.author_id = c.author_id and p.type = c.type
        where c.n is distinct from p.n`),
    );
    expect(off).toEqual([]);
    const [kept, counted] = [await countOf(sql`select sum(n) as n from post_totals`), await countOf(sql`select count(*) as n from posts`)];
    expect(kept).toBe(counted);
    expect(counted).toBeGreaterThan(30);
  });

  it('answers what counting the feed item by item answers, for every caller, type and filter', async () => {
    const callers = [null, viewer.id, banned.id, npc.id];
    let differing = 0;
    for (const callerId of callers) {
      for (const type of [undefined, 'post', 'article'] as const) {
        for (const filter of [undefined, { hideNpcs: true }]) {
          const source: TFeedSource = { kind: 'all', type, filter };
          const kept = await countOf(buildFeedCountQuery(source, callerId));
          const exact = await countOf(buildFeedExactCountQuery(source, callerId));
          expect(kept, JSON.stringify({ callerId, type, filter })).toBe(exact);
          if (exact !== (await countOf(buildFeedExactCountQuery({ kind: 'all', type }, null)))) differing++;
        }
      }
    }
    // The hidden authors really changed the answers (blocks, mutes, bans and NPCs were in play).
    expect(differing).toBeGreaterThan(10);
  });

  it('gives the route its total, and reads no posts for it', async () => {
    const exact = await countOf(buildFeedExactCountQuery({ kind: 'all' }, viewer.id));
    const res = await call(postsRoute, '/api/posts?page=1&limit=5', { token: await tokenFor(viewer) });
    expect(res.status).toBe(200);
    expect(res.body.pagination.total).toBe(exact);
    const plan = rowsOf<Record<string, string>>(await (await getDb()).execute(sql`explain ${buildFeedCountQuery({ kind: 'all' }, viewer.id)}`))
      .map((r) => Object.values(r)[0])
      .join('\n');
    expect(plan).toMatch(/post_totals/);
    expect(plan).not.toMatch(/ on posts\b/);
    // A user who is banned after posting leaves everyone's total at once.
    await (await getDb()).execute(sql`update ${users} set is_banned = true where id = ${viewer.id}`);
    expect(await countOf(buildFeedCountQuery({ kind: 'all' }, null))).toBe(await countOf(buildFeedExactCountQuery({ kind: 'all' }, null)));
  });
});
