/**
 * Reads on a read replica (db/client.ts, lib/operations/read-routing.ts), proven by which pool
 * ran the statements (postgres.js's debug hook, db/client.ts observeQueries):
 *  - a declared read (GET /api/posts, `reads: 'replica'`) by a guest runs on the replica;
 *  - the same read by a user right after that user's write runs on the primary (read-your-writes),
 *    and on the replica again once the marker ended;
 *  - writes never run on the replica: a write operation, and the writes (insert, update, raw
 *    execute, transactions, executePrepared) a replica-routed handler might make.
 * The replica: the test server's replica when setup-db gave this file one (DATABASE_URL_REPLICA,
 * CI's .ci/replica.sh step), or TEST_REPLICA_BASE_URL's server, or else a second pool on this same
 * database whose sessions are read-only (`default_transaction_read_only`), as a hot standby's are.
 * On PGlite there are no replicas: the decision is the primary, and routing changes nothing.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST as a2aRoute } from '@/app/api/a2a/route';
import { POST as mcpRoute } from '@/app/api/mcp/route';
import { GET as listPosts, POST as createPost } from '@/app/api/posts/route';
import { closeDb, executePrepared, getDb, getRootDb, observeQueries, readsMayUseReplica, replicasConfigured, withReplicaReads, withRequestTransaction, withTransaction } from '@/db/client';
import { users, type TUserRow } from '@/db/schema';
import type { TEndpoint } from '@/lib/contracts/endpoint';
import { postsCreate, postsList } from '@/lib/contracts/posts';
import { resetEnvCache } from '@/lib/env';
import { readsTarget, resetWriteMarkers, setReadYourWritesMs } from '@/lib/operations/read-routing';
import { spyOnStatements } from '@/test/db-spies';
import { seedUser } from '@/test/factories';
import { call, tokenFor, type TCallResult } from '@/test/http';

const onPostgres = !!process.env.DATABASE_URL;
const counts = new Map<string, number>();
const counted = () => ({ primary: counts.get('primary') ?? 0, replica: counts.get('replica0') ?? 0 });
/** What fn sent to each pool. */
const sentBy = async (fn: () => Promise<unknown>) => {
  const before = counted();
  await fn();
  const after = counted();
  return { primary: after.primary - before.primary, replica: after.replica - before.replica };
};

const replicaUrlFor = (primaryUrl: string) => {
  const name = new URL(primaryUrl).pathname;
  const external = process.env.TEST_REPLICA_BASE_URL;
  if (external) {
    const u = new URL(external);
    u.pathname = name;
    return u.toString();
  }
  const u = new URL(primaryUrl);
  u.searchParams.set('default_transaction_read_only', 'on');
  return u.toString();
};

const savedReplica = process.env.DATABASE_URL_REPLICA;

beforeAll(async () => {
  if (!onPostgres) return;
  // The file's database (setup-db), reopened with pools that report their statements.
  await closeDb();
  // The stand-in replica is a read-only session on the direct server: behind a pooler (CI's
  // PgBouncer step) DATABASE_URL is the pooler, which refuses the startup parameter.
  if (!process.env.DATABASE_URL_REPLICA) process.env.DATABASE_URL_REPLICA = replicaUrlFor(process.env.DATABASE_URL_UNPOOLED || process.env.DATABASE_URL!);
  resetEnvCache();
  observeQueries((pool) => counts.set(pool, (counts.get(pool) ?? 0) + 1));
  await getDb();
});

afterAll(async () => {
  setReadYourWritesMs(undefined);
  resetWriteMarkers();
  if (!onPostgres) return;
  await closeDb();
  observeQueries(undefined);
  if (savedReplica === undefined) delete process.env.DATABASE_URL_REPLICA;
  else process.env.DATABASE_URL_REPLICA = savedReplica;
  resetEnvCache();
});

const post = async (user: TUserRow, content: string) => {
  const res = await call(createPost, '/api/posts', { method: 'POST', token: await tokenFor(user), body: { content } });
  expect(res.status).toBe(201);
  return res.body.post as { id: string };
};
const idsOf = (res: { body: { posts: { id: string }[] } }) => res.body.posts.map((p) => p.id);

if (onPostgres) describe('reads on a replica (PostgreSQL)', () => {
  it('is configured: a declared read by a guest may use the replica, an undeclared one not', async () => {
    expect(replicasConfigured()).toBe(true);
    expect(postsList.reads).toBe('replica');
    expect((postsCreate as TEndpoint).reads).toBeUndefined();
    expect(await readsTarget(postsList, null)).toBe('replica');
    expect(await readsTarget(postsCreate, null)).toBe('primary');
  });

  it("a guest's declared read runs on the replica; the writer's own read right after a write on the primary", async () => {
    // A marker that outlives the test's slow first calls (the OpenAPI response check is built on
    // first use); its expiry is read-routing.test.ts's subject, here it is cleared instead.
    setReadYourWritesMs(60_000);
    const author = await seedUser();
    const token = await tokenFor(author);

    let created: { id: string } | undefined;
    const write = await sentBy(async () => (created = await post(author, 'Written on the primary, read where it may be')));
    expect(write.primary).toBeGreaterThan(0);
    expect(write.replica).toBe(0);

    // Right after the write: the author's read stays on the primary, and sees the post.
    let mine: TCallResult | undefined;
    const own = await sentBy(async () => (mine = await call(listPosts, '/api/posts', { token, query: { userId: author.id } })));
    expect(mine!.status).toBe(200);
    expect(idsOf(mine!)).toContain(created!.id);
    expect(own.replica).toBe(0);
    expect(own.primary).toBeGreaterThan(0);

    // A guest reads the replica (a real replica applies the commit within moments; CI's is synchronous).
    await expect
      .poll(
        async () => {
          let res: TCallResult | undefined;
          const guest = await sentBy(async () => (res = await call(listPosts, '/api/posts', { query: { userId: author.id } })));
          expect(res!.status).toBe(200);
          expect(guest.replica).toBeGreaterThan(0);
          expect(guest.primary).toBe(0);
          return idsOf(res!);
        },
        { timeout: 5_000, interval: 100 },
      )
      .toContain(created!.id);

    // Once the marker is gone, the author reads the replica too.
    resetWriteMarkers();
    const later = await sentBy(async () => expect((await call(listPosts, '/api/posts', { token, query: { userId: author.id } })).status).toBe(200));
    expect(later.replica).toBeGreaterThan(0);
  });

  it('agents read there too: an A2A and an MCP read declared `reads` run on the replica, their writes and undeclared reads on the primary', async () => {
    resetWriteMarkers();
    const agent = await seedUser();
    const token = await tokenFor(agent);
    const a2a = (method: string, params: unknown) =>
      call(a2aRoute, '/api/a2a', { method: 'POST', token, body: { jsonrpc: '2.0', id: 1, method, params } });
    const mcp = (name: string, args: unknown) =>
      call(mcpRoute, '/api/mcp', {
        method: 'POST',
        token,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } },
      });

    let answer: TCallResult | undefined;
    const listed = await sentBy(async () => (answer = await a2a('a2a.getPredictions', {})));
    expect(answer!.status).toBe(200);
    expect(answer!.body.error).toBeUndefined();
    expect(listed.replica).toBeGreaterThan(0);

    const viaMcp = await sentBy(async () => (answer = await mcp('a2a.getPerpetuals', {})));
    expect(answer!.status).toBe(200);
    expect(answer!.body.result?.isError).not.toBe(true);
    expect(viaMcp.replica).toBeGreaterThan(0);

    // The caller's own balance is not declared: the primary.
    const own = await sentBy(async () => (answer = await a2a('a2a.getBalance', {})));
    expect(answer!.body.error).toBeUndefined();
    expect(own.replica).toBe(0);
  });

  it('test/db-spies.ts sees the statements of a read on the replica (a spy on getDb() alone would not)', async () => {
    const author = await seedUser();
    await post(author, 'Counted wherever it is read');
    const spies = await spyOnStatements();
    const onlyPrimary = vi.spyOn(await getDb(), 'select');
    try {
      const res = await call(listPosts, '/api/posts', { query: { userId: author.id } });
      expect(res.status).toBe(200);
      expect(spies.execCalls().length + spies.selectCalls().length).toBeGreaterThan(0);
      expect(onlyPrimary).not.toHaveBeenCalled();
    } finally {
      onlyPrimary.mockRestore();
      spies.restore();
    }
  });

  it('writes made inside a replica-routed read go to the primary', async () => {
    const user = await seedUser();
    const primary = await getRootDb();
    const sent = await sentBy(() =>
      withReplicaReads(async () => {
        expect(readsMayUseReplica()).toBe(true);
        const db = await getDb();
        expect(db).not.toBe(primary);
        // A read: the replica.
        const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, user.id));
        expect(row?.id).toBe(user.id);
        // Writes: the primary (the replica refuses them: a hot standby, or read-only sessions).
        const before = counted().replica;
        await db.update(users).set({ displayName: 'Renamed on the primary' }).where(eq(users.id, user.id));
        await db.transaction(async (tx) => tx.update(users).set({ bio: 'in a transaction' }).where(eq(users.id, user.id)));
        await withTransaction(async (tx) => tx.update(users).set({ displayName: 'withTransaction' }).where(eq(users.id, user.id)));
        await executePrepared(sql`update ${users} set display_name = 'prepared' where id = ${user.id}`);
        expect(counted().replica - before).toBe(0);
        // A raw write through execute(): refused by the replica (25006), then run on the primary.
        await db.execute(sql`update ${users} set display_name = 'raw' where id = ${user.id}`);
      }),
    );
    expect(sent.replica).toBeGreaterThan(0);
    const [after] = await primary.select({ displayName: users.displayName, bio: users.bio }).from(users).where(eq(users.id, user.id));
    expect(after).toEqual({ displayName: 'raw', bio: 'in a transaction' });
  });

  it('never inside a request transaction; outside the context the primary', async () => {
    const primary = await getRootDb();
    await withReplicaReads(async () => {
      expect(await getDb()).not.toBe(primary);
      await withRequestTransaction(async (tx) => {
        expect(readsMayUseReplica()).toBe(false);
        expect(await getDb()).toBe(tx);
      });
    });
    // Outside the context: the primary.
    expect(await getDb()).toBe(primary);
  });
});

if (!onPostgres) describe('reads on a replica (PGlite: none)', () => {
  it('the decision is the primary, and routing hands out the one database', async () => {
    expect(replicasConfigured()).toBe(false);
    expect(await readsTarget(postsList, null)).toBe('primary');
    const author = await seedUser();
    const created = await post(author, 'One database, one place to read');
    expect(await readsTarget(postsList, author.authSubject)).toBe('primary');
    const primary = await getRootDb();
    await withReplicaReads(async () => {
      expect(readsMayUseReplica()).toBe(false);
      expect(await getDb()).toBe(primary);
    });
    const res = await call(listPosts, '/api/posts', { query: { userId: author.id } });
    expect(res.status).toBe(200);
    expect(idsOf(res)).toContain(created.id);
  });
});
