/**
 * Two production instances on one PostgreSQL and one Redis behave as one (issue 20, item 2):
 *  - rate limits are shared: one user's buys alternate between the instances, and the request
 *    past the buy rule's limit is refused whichever instance gets it;
 *  - SSE: subscribers on both instances receive every committed event of their channels, in log
 *    order; one that drops and reconnects to the OTHER instance with Last-Event-ID gets what it
 *    missed with no gap and no duplicate;
 *  - the game tick runs once per game minute however many instances the scheduler calls.
 * Why real processes: counters in Redis, LISTEN/NOTIFY fan-out and the tick's advisory lock only
 * exist between processes. Needs a production build (test/ops/servers.ts), PostgreSQL and Redis.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '@/lib/contracts/rate-limits';
import { readFrames, type TFrame } from '@/test/sse';
import { createDatabase, dropDatabase, OPS_CRON_SECRET, opsToken, redisUrl, requestJson, startServer, type TServer } from './servers';

const PORT_A = Number(process.env.OPS_PORT_A ?? 3421);
const PORT_B = Number(process.env.OPS_PORT_B ?? 3422);
const run = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

let db: { name: string; url: string };
let sql: postgres.Sql;
let a: TServer;
let b: TServer;

beforeAll(async () => {
  db = await createDatabase('instances');
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  const env = { DATABASE_URL: db.url, REDIS_URL: redisUrl() };
  // One at a time: the first start migrates and seeds; the second finds the world there.
  a = await startServer({ port: PORT_A, env, label: 'A' });
  b = await startServer({ port: PORT_B, env, label: 'B' });
}, 600_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await sql?.end();
  if (db) await dropDatabase(db.name);
}, 60_000);

const userToken = (label: string) => opsToken(`ops-instances-${run}-${label}`);

const firstMarket = async () => {
  const res = await requestJson(`${a.base}/api/markets/predictions?status=active&limit=5`);
  expect(res.status).toBe(200);
  return res.body.questions[0].id as string;
};

const buy = (server: TServer, token: string, marketId: string) =>
  requestJson(`${server.base}/api/markets/predictions/${marketId}/buy`, {
    token,
    body: { outcome: 'YES', amount: 1 },
    headers: { 'idempotency-key': randomUUID() },
  });

describe('rate limits', () => {
  it('are shared: the buy past the limit in a minute is refused whichever instance gets it', async () => {
    const { limit } = RATE_LIMITS.predictionsTrade;
    const token = await userToken('rate');
    expect((await requestJson(`${a.base}/api/users/me`, { token })).status).toBe(200);
    const marketId = await firstMarket();
    // The sliding window's estimate admits one more across a window boundary: stay inside one minute.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 35_000) await sleep(60_000 - intoMinute + 250);

    const answers: { via: string; status: number; remaining: string | null; code?: string }[] = [];
    for (let i = 0; i < limit + 2; i++) {
      const server = i % 2 === 0 ? a : b;
      const res = await buy(server, token, marketId);
      answers.push({ via: server === a ? 'A' : 'B', status: res.status, remaining: res.headers.get('x-ratelimit-remaining'), code: res.body?.error?.code });
    }
    const allowed = answers.slice(0, limit);
    expect(allowed.map((x) => x.status), JSON.stringify(answers)).toEqual(Array(limit).fill(200));
    // One counter: each answer's remaining is one less than the previous, alternating instances.
    expect(allowed.map((x) => Number(x.remaining))).toEqual(Array.from({ length: limit }, (_, i) => limit - 1 - i));
    // The next on A and the one after on B: both refused.
    expect(answers.slice(limit)).toEqual([
      { via: limit % 2 === 0 ? 'A' : 'B', status: 429, remaining: '0', code: 'RATE_LIMIT_EXCEEDED' },
      { via: limit % 2 === 0 ? 'B' : 'A', status: 429, remaining: '0', code: 'RATE_LIMIT_EXCEEDED' },
    ]);
  }, 120_000);
});

/** An SSE stream over HTTP: its frames as they arrive, and a way to close it. */
const openStream = async (server: TServer, lastEventId?: string) => {
  const abort = new AbortController();
  const res = await fetch(`${server.base}/api/sse/events?channels=feed,markets`, {
    headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  const { frames, close } = readFrames(res.body!);
  return {
    frames,
    /** Event frames only (no retry, ping or reset): what a client acts on. */
    events: () => frames.filter((f: TFrame) => f.event && f.event !== 'reset' && f.id),
    close: async () => {
      await close();
      abort.abort();
    },
  };
};

type TStream = Awaited<ReturnType<typeof openStream>>;

const waitFor = async (what: string, ok: () => boolean, timeoutMs = 20_000) => {
  const until = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
};

const postVia = async (server: TServer, token: string, content: string) => {
  const res = await requestJson(`${server.base}/api/posts`, { token, body: { content } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.post.id as string;
};

const seesPost = (s: TStream, postId: string) => () => s.events().some((f) => f.data?.data?.post?.id === postId);
const idOfPost = (s: TStream, postId: string) => s.events().find((f) => f.data?.data?.post?.id === postId)!.id!;

describe('SSE across instances', () => {
  it('delivers every event to subscribers on both; a reconnect to the other instance resumes with no gap or duplicate', async () => {
    const author = await userToken('author');
    const trader = await userToken('trader');
    const marketId = await firstMarket();
    const onA = await openStream(a);
    const onB = await openStream(b);
    const moving = await openStream(a);
    let resumed: TStream | undefined;
    try {
      // A warm-up post every stream sees: the comparison starts after it.
      const warm = await postVia(a, author, `warm-up ${run}`);
      for (const s of [onA, onB, moving]) await waitFor('the warm-up post', seesPost(s, warm));
      const from = idOfPost(onA, warm);
      expect(idOfPost(onB, warm)).toBe(from);

      const round = async (i: number) => {
        await postVia(i % 2 === 0 ? a : b, author, `round ${i} ${run}`);
        const res = await buy(i % 2 === 0 ? b : a, trader, marketId);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      };
      for (let i = 0; i < 4; i++) await round(i);
      // The moving subscriber drops (on A) while writes go on through both, then resumes on B.
      await waitFor('round 3 on the moving stream', () => moving.events().length >= 1 + 4 * 2 - 1);
      await moving.close();
      const seenBefore = moving.events().slice();
      for (let i = 4; i < 8; i++) await round(i);
      resumed = await openStream(b, seenBefore.at(-1)!.id);
      for (let i = 8; i < 12; i++) await round(i);
      const last = await postVia(b, author, `last ${run}`);
      for (const s of [onA, onB, resumed]) await waitFor('the last post', seesPost(s, last));

      // Every committed event of the two channels after the warm-up, in log order, from the database.
      const [fromTx = '', fromId = ''] = from.split('-');
      const logged = await sql<{ pos: string }[]>`
        select tx_id::text || '-' || id::text as pos from event_log
        where channel in ('feed', 'markets') and (tx_id, id) > (${fromTx}::xid8, ${fromId}::bigint)
        order by tx_id, id`;
      const expected = logged.map((r) => r.pos);
      const upToLast = (s: TStream) => {
        const ids = s.events().map((f) => f.id!);
        return ids.slice(ids.indexOf(from) + 1, ids.indexOf(idOfPost(s, last)) + 1);
      };
      expect(expected.length).toBeGreaterThanOrEqual(12 * 2 + 1);
      expect(upToLast(onA)).toEqual(expected);
      expect(upToLast(onB)).toEqual(expected);
      const afterResume = resumed.events().map((f) => f.id!);
      expect(resumed.frames.some((f) => f.event === 'reset'), 'the resumed stream was reset').toBe(false);
      const joined = [...seenBefore.map((f) => f.id!), ...afterResume.slice(0, afterResume.indexOf(idOfPost(resumed, last)) + 1)];
      expect(joined.slice(joined.indexOf(from) + 1)).toEqual(expected);
    } finally {
      await Promise.all([onA.close(), onB.close(), moving.close(), resumed?.close()]);
    }
  }, 120_000);
});

describe('the game tick', () => {
  const clock = async () => {
    const [row] = await sql<{ at: Date; count: number }[]>`select last_tick_at as at, tick_count as count from game_clock where id = 'main'`;
    return row ?? { at: new Date(0), count: 0 };
  };
  const tickPointsAt = async (at: string) => {
    const [r] = await sql<{ n: string }[]>`select count(*)::text as n from perp_price_points where source = 'tick' and created_at = ${at}::timestamptz`;
    return Number(r!.n);
  };
  const tick = (server: TServer, now: string) =>
    requestJson(`${server.base}/api/cron/game-tick`, { token: OPS_CRON_SECRET, body: { now }, timeoutMs: 90_000 });
  let perpTickers = 0;
  let nextMinute = 0;

  beforeAll(async () => {
    const [r] = await sql<{ n: string }[]>`select count(*)::text as n from perp_markets`;
    perpTickers = Number(r!.n);
    const start = Math.max((await clock()).at.getTime(), Date.now());
    nextMinute = Math.floor(start / 60_000) * 60_000 + 60_000;
  });

  it('called on both instances at once, runs on exactly one each minute', async () => {
    expect(perpTickers).toBeGreaterThan(0);
    for (let k = 0; k < 3; k++) {
      const now = new Date(nextMinute).toISOString();
      nextMinute += 60_000;
      const before = await clock();
      const answers = await Promise.all([tick(a, now), tick(b, now)]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      const ran = answers.filter((r) => r.body.skipped === false);
      expect(ran, JSON.stringify(answers.map((r) => r.body.skipped))).toHaveLength(1);
      expect(answers.filter((r) => r.body.skipped === true)).toHaveLength(1);
      expect(ran[0]!.body.gameTime).toBe(now);
      const after = await clock();
      expect(after.count).toBe(before.count + 1);
      expect(after.at.toISOString()).toBe(now);
      expect(await tickPointsAt(now)).toBe(perpTickers);
    }
  }, 300_000);

  it('a later call in the same game minute, on the other instance, does not tick again', async () => {
    const now = new Date(nextMinute).toISOString();
    nextMinute += 60_000;
    const first = await tick(a, now);
    expect(first.body.skipped).toBe(false);
    const count = (await clock()).count;
    // The scheduler calling the other instance later in that minute, then the first one again.
    const again = [await tick(b, now), await tick(a, new Date(Date.parse(now) + 30_000).toISOString())];
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    expect((await clock()).count, JSON.stringify(again.map((r) => r.body.skipped))).toBe(count);
    expect(await tickPointsAt(now)).toBe(perpTickers);
  }, 300_000);
});
