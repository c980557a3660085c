/**
 * Realtime delivery end to end: the real SSE route handler's stream is read frame by frame while
 * real services write through the outbox. Runs on PGlite and on PostgreSQL; the late-commit case
 * needs two concurrent transactions, which only PostgreSQL has.
 */
import { sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { POST as createMarketRoute } from '@/app/api/admin/markets/route';
import { POST as resolveRoute } from '@/app/api/admin/markets/[id]/resolve/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { GET as getMarketRoute } from '@/app/api/markets/predictions/[id]/route';
import { POST as shareRoute } from '@/app/api/posts/[id]/share/route';
import { POST as createPostRoute } from '@/app/api/posts/route';
import { GET as sseRoute } from '@/app/api/sse/events/route';
import { POST as placeOrderRoute } from '@/app/api/markets/predictions/[id]/orders/route';
import { GET as statsRoute } from '@/app/api/sse/stats/route';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { eventLog, type TUserRow } from '@/db/schema';
import { seedUser } from '@/test/factories';
import { SESSION_COOKIE } from '@/lib/principals/principal';
import { resetClock } from '@/lib/clock/clock';
import { emitEvent } from '@/lib/events/outbox';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { ensureRealtime, pokeRealtime, pruneEventLog, stopRealtime } from '@/lib/realtime';
import { comparePositions, parsePosition } from '@/lib/realtime/position';
import { LIVE_QUEUE_LIMIT_BYTES, setSseTimings } from '@/lib/realtime/sse';
import { call, tokenFor } from '@/test/http';
import { DELIVERY_WAIT, parseFrame, type TFrame } from '@/test/sse';

const onPostgres = !!process.env.DATABASE_URL;
const SLOW_MACHINE = DELIVERY_WAIT;


/** Streams opened by a test, closed after it. */
const open: { close: () => Promise<unknown> }[] = [];

/**
 * Calls the SSE route like Next.js does and reads its body in the background (unless `read` is
 * false: a client that never reads).
 */
const openStream = async (query: Record<string, string>, opts: { token?: string; cookie?: string; lastEventId?: string; read?: boolean } = {}) => {
  const url = new URL('http://localhost:3000/api/sse/events');
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const headers = new Headers({ host: 'localhost:3000', 'x-client-socket-address': '203.0.113.9' });
  if (opts.token) headers.set('authorization', `Bearer ${opts.token}`);
  if (opts.cookie) headers.set('cookie', opts.cookie);
  if (opts.lastEventId) headers.set('last-event-id', opts.lastEventId);
  const abort = new AbortController();
  const res = await sseRoute(new NextRequest(url, { headers, signal: abort.signal }), { params: Promise.resolve({}) });
  const frames: TFrame[] = [];
  let done = false;
  const reader = res.status === 200 ? res.body!.getReader() : null;
  const decoder = new TextDecoder();
  let buf = '';
  const readAll = async () => {
    for (;;) {
      const r = await reader!.read();
      if (r.done) break;
      buf += decoder.decode(r.value, { stream: true });
      for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
        frames.push(parseFrame(buf.slice(0, i)));
        buf = buf.slice(i + 2);
      }
    }
    done = true;
  };
  if (reader && opts.read !== false) void readAll().catch(() => (done = true));
  const stream = {
    res,
    frames,
    readAll,
    events: () => frames.filter((f) => f.event),
    isDone: () => done,
    abort: () => abort.abort(),
    close: async () => reader?.cancel().catch(() => {}),
    waitForEvents: (n: number) => vi.waitFor(() => expect(stream.events().length).toBeGreaterThanOrEqual(n), { timeout: 5000, interval: 10 }),
  };
  if (reader) open.push(stream);
  return stream;
};

let admin: TUserRow;
const adminToken = async () => tokenFor((admin ??= await seedUser({ isAdmin: true, balance: '0' })));

const post = async (user: TUserRow, content: string) => {
  const res = await call(createPostRoute, '/api/posts', { method: 'POST', token: await tokenFor(user), body: { content } });
  expect(res.status).toBe(201);
  return res.body.post as { id: string; content: string; authorId: string; timestamp: string };
};

const newMarket = async () => {
  const res = await call(createMarketRoute, '/api/admin/markets', {
    method: 'POST',
    token: await adminToken(),
    body: { text: 'Will the realtime test pass?', resolutionDate: new Date(Date.now() + 7 * 86_400_000).toISOString() },
  });
  expect(res.status).toBe(200);
  return res.body.market as { id: string; questionNumber: number };
};

const stats = async () => (await call(statsRoute, '/api/sse/stats')).body;

beforeAll(async () => {
  // The hub starts with the first subscriber; starting it here keeps the first test's events
  // from racing the hub's starting position.
  await ensureRealtime();
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
  resetClock();
});

afterEach(async () => {
  setSseTimings();
  while (open.length) await open.pop()!.close();
});

afterAll(async () => {
  await stopRealtime();
});

describe('GET /api/sse/events', () => {
  it('answers an event stream with the protocol headers and opens with a retry hint', async () => {
    const s = await openStream({ channels: 'feed' });
    expect(s.res.status).toBe(200);
    expect(s.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(s.res.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(s.res.headers.get('x-accel-buffering')).toBe('no');
    expect(s.res.headers.get('connection')).toBe('keep-alive');
    await vi.waitFor(() => expect(s.frames[0]).toEqual({ retry: 3000 }), SLOW_MACHINE);
  });

  it('delivers feed_update after a post with the specification fields', async () => {
    const s = await openStream({ channels: 'feed' });
    const author = await seedUser();
    const p = await post(author, 'Live from the realtime test');
    await s.waitForEvents(1);
    const [f] = s.events();
    expect(f!.event).toBe('feed_update');
    expect(parsePosition(f!.id!)).not.toBeNull();
    expect(f!.data).toEqual({ type: 'feed_update', data: { post: { id: p.id, content: p.content, authorId: author.id, timestamp: p.timestamp } } });
  });

  it('delivers a repost on the feed', async () => {
    const author = await seedUser();
    const sharer = await seedUser();
    const p = await post(author, 'Worth sharing');
    await pokeRealtime(); // the post's own event is delivered before the client connects
    const s = await openStream({ channels: 'feed' });
    const res = await call(shareRoute, `/api/posts/${p.id}/share`, { method: 'POST', token: await tokenFor(sharer), params: { id: p.id } });
    expect(res.status).toBe(201);
    await vi.waitFor(() => expect(s.events().filter((f) => f.data.data.post.repostId)).toHaveLength(1), SLOW_MACHINE);
    expect(s.events().find((f) => f.data.data.post.repostId)!.data.data.post).toMatchObject({ id: p.id, content: p.content, authorId: sharer.id, repostId: res.body.share.id });
  });

  it('delivers market_update after a buy with exactly the specification fields and the market’s new prices', async () => {
    const s = await openStream({ channels: 'markets' });
    const m = await newMarket();
    await s.waitForEvents(1); // the new market's own market_update
    const buyer = await seedUser({ balance: '1000' });
    const res = await call(buyRoute, `/api/markets/predictions/${m.id}/buy`, {
      method: 'POST',
      token: await tokenFor(buyer),
      params: { id: m.id },
      body: { outcome: 'YES', amount: 50 },
    });
    expect(res.status).toBe(200);
    await s.waitForEvents(2);
    const f = s.events()[1]!;
    expect(f.event).toBe('market_update');
    expect(f.data.type).toBe('market_update');
    const d = f.data.data;
    expect(Object.keys(d).sort()).toEqual(['marketId', 'noPrice', 'noShares', 'timestamp', 'yesPrice', 'yesShares']);
    const market = (await call(getMarketRoute, `/api/markets/predictions/${m.id}`, { params: { id: m.id } })).body.market;
    expect(d.marketId).toBe(m.id);
    expect(d.yesPrice).toBeCloseTo(res.body.yesPrice, 12);
    expect(d.noPrice).toBeCloseTo(res.body.noPrice, 12);
    expect(d.yesShares).toBeCloseTo(market.yesShares, 6);
    expect(d.noShares).toBeCloseTo(market.noShares, 6);
    expect(new Date(d.timestamp).toISOString()).toBe(d.timestamp);
  });

  it('announces a new question on upcoming-events and its resolution on markets', async () => {
    const s = await openStream({ channels: 'upcoming-events,markets' });
    const m = await newMarket();
    await s.waitForEvents(2);
    const created = s.events().find((f) => f.event === 'question_created')!;
    expect(created.data.data).toMatchObject({ id: m.id, questionNumber: m.questionNumber, text: 'Will the realtime test pass?' });
    const res = await call(resolveRoute, `/api/admin/markets/${m.id}/resolve`, { method: 'POST', token: await adminToken(), params: { id: m.id }, body: { outcome: 'NO' } });
    expect(res.status).toBe(200);
    await s.waitForEvents(3);
    expect(s.events()[2]!.data.data).toMatchObject({ marketId: m.id, yesPrice: 0, noPrice: 1 });
    // Resolving again changes nothing and announces nothing.
    await call(resolveRoute, `/api/admin/markets/${m.id}/resolve`, { method: 'POST', token: await adminToken(), params: { id: m.id }, body: { outcome: 'YES' } });
    await pokeRealtime();
    expect(s.events()).toHaveLength(3);
  });

  it('a client that reconnects with Last-Event-ID receives exactly what it missed, then live events', async () => {
    const author = await seedUser();
    const first = await openStream({ channels: 'feed' });
    await post(author, 'seen before the disconnect');
    await first.waitForEvents(1);
    const lastSeen = first.events()[0]!.id!;
    await first.close();

    const missed = [await post(author, 'missed one'), await post(author, 'missed two')];
    await newMarket(); // another channel: not replayed to a feed subscriber

    const again = await openStream({ channels: 'feed' }, { lastEventId: lastSeen });
    await again.waitForEvents(2);
    const live = await post(author, 'live after the reconnect');
    await again.waitForEvents(3);
    await pokeRealtime();
    const got = again.events();
    expect(got.map((f) => f.data.data.post.id)).toEqual([missed[0]!.id, missed[1]!.id, live.id]);
    // Positions strictly increase: no duplicate, in log order.
    const positions = got.map((f) => parsePosition(f.id!)!);
    for (let i = 1; i < positions.length; i++) expect(comparePositions(positions[i]!, positions[i - 1]!)).toBe(1);

    // The query parameter works the same way (for clients that cannot set headers).
    const viaQuery = await openStream({ channels: 'feed', lastEventId: lastSeen });
    await viaQuery.waitForEvents(3);
    expect(viaQuery.events().map((f) => f.id)).toEqual(got.map((f) => f.id));
    // An id the log holds is honoured: no reset notice.
    expect([...again.events(), ...viaQuery.events()].some((f) => f.event === 'reset')).toBe(false);
  });

  it('refuses unknown channels with 400', async () => {
    const unknown = await openStream({ channels: 'feed,stocks' });
    expect(unknown.res.status).toBe(400);
    expect(await unknown.res.json()).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER' } });
    expect((await openStream({ channels: 'chat:' })).res.status).toBe(400);
  });

  it('chat channels refuse anonymous subscribers (401) and non-members (403), by bearer or cookie', async () => {
    const anon = await openStream({ channels: 'feed,chat:abc' });
    expect(anon.res.status).toBe(401);
    expect(await anon.res.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    const u = await seedUser();
    const token = await tokenFor(u);
    expect((await openStream({ channels: 'chat:abc' }, { token })).res.status).toBe(403);
    const byCookie = await openStream({ channels: 'chat:abc' }, { cookie: `${SESSION_COOKIE}=${token}` });
    expect(byCookie.res.status).toBe(403);
    expect(await byCookie.res.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it('sends a heartbeat comment and ends the stream at its maximum duration', async () => {
    setSseTimings({ heartbeatMs: 20, maxDurationMs: 150 });
    const s = await openStream({ channels: 'feed' });
    await vi.waitFor(() => expect(s.isDone()).toBe(true), SLOW_MACHINE);
    expect(s.frames.filter((f) => f.comment === 'ping').length).toBeGreaterThanOrEqual(3);
    expect(s.frames.at(-1)).toEqual({ retry: 3000 }); // the hint again before the end
    await vi.waitFor(async () => expect((await stats()).totalClients).toBe(0), SLOW_MACHINE);
  });

  it('uses the 15 s heartbeat and the 300 s limit by default', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'setTimeout', 'clearInterval', 'clearTimeout'] });
    try {
      const s = await openStream({ channels: 'feed' });
      await vi.advanceTimersByTimeAsync(14_999);
      expect(s.frames.some((f) => f.comment === 'ping')).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(s.frames.filter((f) => f.comment === 'ping')).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(284_999);
      expect(s.isDone()).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await vi.waitFor(() => expect(s.isDone()).toBe(true), SLOW_MACHINE);
      expect(s.frames.filter((f) => f.comment === 'ping')).toHaveLength(20);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('GET /api/sse/stats', () => {
  it('counts connected clients per channel and forgets them when they leave', async () => {
    expect(await stats()).toMatchObject({ success: true, totalClients: 0, channels: {} });
    const a = await openStream({ channels: 'feed,markets' });
    const b = await openStream({ channels: 'feed' });
    expect(await stats()).toMatchObject({ totalClients: 2, channels: { feed: 2, markets: 1 } });
    a.abort(); // the browser went away
    await b.close();
    await vi.waitFor(async () => expect(await stats()).toMatchObject({ totalClients: 0, channels: {} }), SLOW_MACHINE);
  });
});

describe('the outbox and its reader', () => {
  it('a rolled-back transaction emits nothing', async () => {
    const s = await openStream({ channels: 'breaking-news' });
    await expect(
      withTransaction(async (tx) => {
        await emitEvent(tx, 'breaking-news', { type: 'breaking_news', data: { id: 'rolled-back', title: 't', content: 'c', relatedQuestions: [], timestamp: new Date().toISOString() } });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await withTransaction((tx) =>
      emitEvent(tx, 'breaking-news', { type: 'breaking_news', data: { id: 'committed', title: 't', content: 'c', relatedQuestions: [1], timestamp: new Date().toISOString() } }),
    );
    await s.waitForEvents(1);
    await pokeRealtime();
    expect(s.events().map((f) => f.data.data.id)).toEqual(['committed']);
    const rows = await (await getDb()).select().from(eventLog).where(sql`${eventLog.data}->>'id' = 'rolled-back'`);
    expect(rows).toHaveLength(0);
  });

  it('a slow client is closed when its buffer overflows and never delays the others', async () => {
    const slow = await openStream({ channels: 'breaking-news' }, { read: false });
    const fast = await openStream({ channels: 'breaking-news' });
    // Events of about 2 KB: together well past the slow client's queue limit.
    const n = Math.ceil((LIVE_QUEUE_LIMIT_BYTES * 1.5) / 2000);
    await (await getDb()).execute(sql`
      with e as (
        insert into ${eventLog} (channel, type, data)
        select 'breaking-news', 'breaking_news', jsonb_build_object('id', i::text, 'title', 't', 'content', repeat('x', 2000), 'relatedQuestions', '[]'::jsonb, 'timestamp', now()::text)
        from generate_series(1, ${n}) i returning id
      ) select pg_notify('playmoney_events', '') from e limit 1`);
    await fast.waitForEvents(n);
    expect(fast.isDone()).toBe(false);
    // The slow one was closed: its stream ends after what it had queued, short of the last event.
    await slow.readAll();
    expect(slow.isDone()).toBe(true);
    expect(slow.events().length).toBeLessThan(n);
    expect(slow.events().length).toBeGreaterThan(0);
  });

  it('prunes events older than a given time', async () => {
    const db = await getDb();
    await db.insert(eventLog).values({ channel: 'feed', type: 'feed_update', data: { old: true }, createdAt: new Date('2020-01-01T00:00:00Z') });
    const removed = await pruneEventLog(new Date('2021-01-01T00:00:00Z'));
    expect(removed).toBe(1);
    const left = rowsOf<{ n: number | string }>(await db.execute(sql`select count(*) as n from ${eventLog} where created_at < '2021-01-01'`));
    expect(Number(left[0]!.n)).toBe(0);
  });

  // Two transactions at once exist only on PostgreSQL (PGlite is one connection).
  it('delivers an event whose id was taken before a delivered one but committed after it', async () => {
    // The race an id cursor loses, laid out in sequence so it runs on both databases: one event takes
    // its id first, another takes a larger one and is delivered, then the first commits (in a later
    // transaction). Paging by (tx_id, id) still delivers it; paging by id alone would not.
    const s = await openStream({ channels: 'breaking-news' });
    const db = await getDb();
    const [reserved] = rowsOf<{ id: string }>(await db.execute(sql`select nextval(pg_get_serial_sequence('event_log', 'id'))::text as id`));
    const event = (id: string) => ({ id, title: id, content: id, relatedQuestions: [], timestamp: new Date().toISOString() });
    await withTransaction((tx) => emitEvent(tx, 'breaking-news', { type: 'breaking_news', data: event('taken-second') }));
    const seen = () => s.events().filter((f) => ['taken-first', 'taken-second'].includes(f.data.data.id)).map((f) => f.data.data.id);
    await pokeRealtime();
    await vi.waitFor(() => expect(seen()).toEqual(['taken-second']), SLOW_MACHINE);
    await withTransaction(async (tx) => {
      await tx.execute(sql`insert into ${eventLog} (id, channel, type, data)
        values (${reserved!.id}::bigint, 'breaking-news', 'breaking_news', ${JSON.stringify(event('taken-first'))}::jsonb)`);
      await tx.execute(sql`select pg_notify('playmoney_events', '')`);
    });
    await pokeRealtime();
    await vi.waitFor(() => expect(seen()).toEqual(['taken-second', 'taken-first']), SLOW_MACHINE);
  });

  // Two transactions open at once exist only on PostgreSQL (PGlite is one connection), so this
  // one is declared there alone: the xmin rule holding back B until A, still open, has ended.
  if (onPostgres) it('never skips an event whose transaction commits after a later one (smaller id, committed last)', async () => {
    const s = await openStream({ channels: 'breaking-news' });
    let openGate = () => {};
    const gate = new Promise<void>((r) => (openGate = r));
    let inserted = () => {};
    const firstInserted = new Promise<void>((r) => (inserted = r));
    const event = (id: string) => ({ type: 'breaking_news', data: { id, title: id, content: id, relatedQuestions: [], timestamp: new Date().toISOString() } });
    // A takes the smaller transaction id and the smaller event id, then waits; B commits first.
    const a = withTransaction(async (tx) => {
      await emitEvent(tx, 'breaking-news', event('A'));
      inserted();
      await gate;
    });
    await firstInserted;
    // A failed assertion must still let A finish, or the database never closes.
    onTestFinished(() => openGate());
    await withTransaction((tx) => emitEvent(tx, 'breaking-news', event('B')));
    const ab = () => s.events().filter((f) => ['A', 'B'].includes(f.data.data.id));
    await pokeRealtime();
    await new Promise((r) => setTimeout(r, 50));
    expect(ab()).toHaveLength(0);
    openGate();
    await a;
    await vi.waitFor(() => expect(ab()).toHaveLength(2), SLOW_MACHINE);
    expect(ab().map((f) => f.data.data.id)).toEqual(['A', 'B']);
    // The case that breaks an id cursor: A holds the smaller event id (and transaction id), yet
    // committed after B.
    const rows = rowsOf<{ id: string; n: string; tx: string }>(
      await (await getDb()).execute(sql`select data->>'id' as id, e.id::text as n, e.tx_id::text as tx from ${eventLog} e
        where data->>'id' in ('A', 'B') order by e.id`),
    );
    expect(rows.map((r) => r.id)).toEqual(['A', 'B']);
    expect(BigInt(rows[0]!.tx)).toBeLessThan(BigInt(rows[1]!.tx));
  });
});

describe('resuming from an id the log does not hold', () => {
  let author: TUserRow;
  let n = 0;
  const postNow = async () => post((author ??= await seedUser()), `resume test post ${++n}`);

  /** A feed event that every stream opened so far has been handed (the hub's position is past it). */
  const logged = async () => {
    const watcher = await openStream({ channels: 'feed' });
    const p = await postNow();
    await vi.waitFor(() => expect(watcher.events().some((f) => f.data.data.post.id === p.id)).toBe(true), { timeout: 5000, interval: 10 });
    const id = watcher.events().find((f) => f.data.data.post.id === p.id)!.id!;
    await watcher.close();
    return { post: p, id, position: parsePosition(id)! };
  };

  /** The stream opens with the retry hint, then a reset notice; returns that notice. */
  const expectReset = async (s: Awaited<ReturnType<typeof openStream>>, reason: string, sent: string) => {
    expect(s.res.status).toBe(200);
    await vi.waitFor(() => expect(s.frames.length).toBeGreaterThanOrEqual(2), { timeout: 5000, interval: 10 });
    expect(s.frames[0]).toEqual({ retry: 3000 });
    const reset = s.frames[1]!;
    expect(reset.event).toBe('reset');
    expect(reset.data).toMatchObject({ type: 'reset', data: { reason, lastEventId: sent.slice(0, 64) } });
    expect(new Date(reset.data.data.timestamp).toISOString()).toBe(reset.data.data.timestamp);
    expect(reset.id).toBeDefined(); // always an id: line, so the client's id is replaced
    return reset;
  };

  /** Never silence: an event written after connecting arrives, after the notice. */
  const expectLive = async (s: Awaited<ReturnType<typeof openStream>>) => {
    const p = await postNow();
    await vi.waitFor(() => expect(s.events().some((f) => f.event === 'feed_update' && f.data.data.post.id === p.id)).toBe(true), { timeout: 5000, interval: 10 });
    const at = s.frames.findIndex((f) => f.event === 'feed_update' && f.data.data.post.id === p.id);
    expect(at).toBeGreaterThan(1);
    expect(s.frames.filter((f) => f.event === 'reset')).toHaveLength(1);
    return p;
  };

  it('a malformed id starts live after a reset notice whose id resumes with a replay', async () => {
    const last = await logged();
    const s = await openStream({ channels: 'feed' }, { lastEventId: 'yesterday' });
    const reset = await expectReset(s, 'malformed', 'yesterday');
    // The newest logged position: the browser's next reconnect sends an id that replays.
    expect(reset.id).toBe(last.id);
    const live = await expectLive(s);

    // Reconnecting with the notice's id is an ordinary replay: exactly what came after it.
    const again = await openStream({ channels: 'feed' }, { lastEventId: reset.id });
    await again.waitForEvents(1);
    await pokeRealtime();
    expect(again.events().map((f) => [f.event, f.data.data.post?.id])).toEqual([['feed_update', live.id]]);

    // Long junk (the header has no length limit) is echoed truncated; the query parameter too.
    const junk = '"}\\\u00e9' + 'x'.repeat(500);
    await expectReset(await openStream({ channels: 'feed' }, { lastEventId: junk }), 'malformed', junk);
    await expectLive(await openStream({ channels: 'feed', lastEventId: '12-' }));
  });

  it('an id ahead of the log (never issued) starts live after a reset notice instead of silence', async () => {
    const last = await logged();
    const ahead = `${last.position.txId + 1_000_000n}-${last.position.id + 1_000_000n}`;
    const s = await openStream({ channels: 'feed' }, { lastEventId: ahead });
    const reset = await expectReset(s, 'ahead_of_log', ahead);
    expect(reset.id).toBe(last.id);
    await expectLive(s);
    // Through the query parameter (a fresh EventSource cannot set the header) the same.
    const viaQuery = await openStream({ channels: 'feed', lastEventId: ahead });
    await expectReset(viaQuery, 'ahead_of_log', ahead);
    await expectLive(viaQuery);
  });

  it('an id inside the log that was never written starts live after a reset notice', async () => {
    const first = await logged();
    const last = await logged();
    expect(comparePositions(last.position, first.position)).toBe(1);
    // After `first` in its own transaction, but no such event: not a position this log issued.
    const bogus = `${first.position.txId}-${first.position.id + 1_000_000_000n}`;
    const s = await openStream({ channels: 'feed' }, { lastEventId: bogus });
    const reset = await expectReset(s, 'not_in_log', bogus);
    expect(reset.id).toBe(last.id);
    await expectLive(s);
  });

  it('an id older than the retained log (pruned) starts live after a reset notice', async () => {
    const old = await logged();
    const kept = await logged();
    const db = await getDb();
    // Everything up to `old` ages past the retention and is pruned, as the tick does.
    await db.execute(sql`update ${eventLog} set created_at = '2020-01-01T00:00:00Z'
      where (tx_id, id) <= (${old.position.txId.toString()}::xid8, ${old.position.id.toString()}::bigint)`);
    expect(await pruneEventLog(new Date('2021-01-01T00:00:00Z'))).toBeGreaterThanOrEqual(1);

    const s = await openStream({ channels: 'feed' }, { lastEventId: old.id });
    const reset = await expectReset(s, 'older_than_log', old.id);
    expect(reset.id).toBe(kept.id);
    await expectLive(s);
  });

  it('with an empty log the reset notice carries an empty id (clearing the client’s), and live events follow', async () => {
    const last = await logged();
    const db = await getDb();
    await db.execute(sql`update ${eventLog} set created_at = '2020-01-01T00:00:00Z'`);
    await pruneEventLog(new Date('2021-01-01T00:00:00Z'));
    const s = await openStream({ channels: 'feed' }, { lastEventId: last.id });
    const reset = await expectReset(s, 'older_than_log', last.id);
    expect(reset.id).toBe('');
    const live = await expectLive(s);
    const liveId = s.events().find((f) => f.data.data.post?.id === live.id)!.id!;
    expect(parsePosition(liveId)).not.toBeNull();
  });
});

describe('a player\'s own channel (user:{userId})', () => {
  it('carries order_update to its owner only; another player is refused, a guest must sign in; the book change goes to markets', async () => {
    const owner = await seedUser({ balance: '100' });
    const other = await seedUser();
    expect((await openStream({ channels: `user:${owner.id}` }, { token: await tokenFor(other) })).res.status).toBe(403);
    expect((await openStream({ channels: `user:${owner.id}` })).res.status).toBe(401);
    const m = await newMarket();
    await pokeRealtime();
    const s = await openStream({ channels: `user:${owner.id},markets` }, { token: await tokenFor(owner) });
    expect(s.res.status).toBe(200);
    const res = await call(placeOrderRoute, `/api/markets/predictions/${m.id}/orders`, {
      method: 'POST',
      token: await tokenFor(owner),
      params: { id: m.id },
      body: { outcome: 'YES', amount: 10, limitPrice: 0.2 },
    });
    expect(res.status).toBe(201);
    // A market_update of the new question's creation may still be in flight (a pooler delays NOTIFY): not this test's subject.
    await vi.waitFor(() => expect(s.events().map((f) => f.event).filter((e) => e !== 'market_update').sort()).toEqual(['order_book', 'order_update']), SLOW_MACHINE);
    const update = s.events().find((f) => f.event === 'order_update')!;
    expect(update.data.data).toMatchObject({ event: 'placed', order: { id: res.body.order.id, kind: 'prediction', status: 'open' } });
    expect(s.events().find((f) => f.event === 'order_book')!.data.data.marketId).toBe(m.id);
  });
});
