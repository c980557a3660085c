/**
 * The fuzz suite's machinery: the seeded world and its callers, raw request building (any body,
 * content type, Content-Length, header), calling a route handler the way Next.js does, the
 * database fingerprint that proves nothing was written, and the concurrent health probe.
 *
 * Why a raw builder instead of test/http.ts `call`: the cases need bodies that are not JSON
 * (bytes, broken text, streams with and without Content-Length), no Content-Type at all, and
 * Authorization headers that are not `Bearer <token>`.
 *
 * Why the fingerprint is the whole database: "nothing written" must hold for every table a
 * mistaken write could reach (the caller's ledger, positions, posts, counters, notifications,
 * the outbox). For each public table: count(*) (catches deletes) and sum(xmin) (xmin changes on
 * every insert and update). One statement, built once from pg_tables. It is only recomputed when
 * the database has handed out a transaction id since the last look (pg_current_snapshot's xmax
 * moves on every writing transaction, committed or not), which keeps a read-only case to one
 * trivial query.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { NextRequest } from 'next/server';
import { getDb, rowsOf } from '@/db/client';
import { markets, perpMarkets, pools, posts, reports, users, type TUserRow } from '@/db/schema';
import { seedUser } from '@/test/factories';
import { seedWorld } from '@/lib/world/seed/world';
import { env } from '@/lib/env';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { callerOfUser } from '@/lib/auth/caller';
import { addComment } from '@/lib/comments/service/add-comment';
import { joinGroup } from '@/lib/groups/service/membership';
import { tokenFor } from '@/test/http';
import { letters, type TAuth, type TBody, type TCase, type TOperation } from './cases';

export type THandler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

// ---------------------------------------------------------------------------------------------
// The world and its callers.

export type TCaller = { user: TUserRow; token: string; commentId: string };

export type TWorld = {
  callers: TCaller[];
  admins: TCaller[];
  marketId: string;
  postId: string;
  ticker: string;
  actorId: string;
  /** A seeded pool, and the actor who manages it. */
  poolId: string;
  poolManagerId: string;
  /** A pending report about the seeded post, so report actions reach their body checks. */
  reportId: string;
  /** An open seeded group every caller joined, and its chat (message sends reach their body checks). */
  groupId: string;
  chatId: string;
};

/**
 * The seeded world (markets, tickers, actors, posts), `n` players and a few administrators, each
 * with a token and a comment of their own (owner-only comment routes need one to reach their body
 * checks). Everything here is written before the first fingerprint.
 */
export const setupWorld = async (n: number, adminCount = 4): Promise<TWorld> => {
  const db = await getDb();
  await seedWorld(db);
  const [market] = await db.select({ id: markets.id }).from(markets).where(eq(markets.status, 'active')).limit(1);
  const [post] = await db.select({ id: posts.id }).from(posts).limit(1);
  const [perp] = await db.select({ ticker: perpMarkets.ticker }).from(perpMarkets).limit(1);
  const [actor] = await db.select({ id: users.id }).from(users).where(eq(users.isActor, true)).limit(1);
  const [pool] = await db.select({ id: pools.id, managerId: pools.npcActorId }).from(pools).where(eq(pools.id, 'seed-pool-1'));
  if (!market || !post || !perp || !actor || !pool) throw new Error('the world seed has no market, post, ticker, actor or pool');
  const make = async (isAdmin: boolean): Promise<TCaller> => {
    const user = await seedUser({ isAdmin, balance: '1000' });
    const { comment } = await addComment({ caller: callerOfUser(user), postId: post.id, content: 'A comment the fuzz suite owns' });
    return { user, token: await tokenFor(user), commentId: comment.id };
  };
  const callers: TCaller[] = [];
  for (let i = 0; i < n; i++) callers.push(await make(false));
  const admins: TCaller[] = [];
  for (let i = 0; i < adminCount; i++) admins.push(await make(true));
  const { group } = await joinGroup({ caller: callerOfUser(callers[0]?.user ?? admins[0]!.user), groupId: FUZZ_GROUP_ID });
  for (const c of [...callers.slice(1), ...(callers.length ? admins : admins.slice(1))]) await joinGroup({ caller: callerOfUser(c.user), groupId: FUZZ_GROUP_ID });
  const t = new Date();
  const [report] = await db
    .insert(reports)
    .values({
      reporterId: callers[0]?.user.id ?? admins[0]!.user.id,
      reportedUserId: actor.id,
      reportedPostId: post.id,
      reportType: 'post',
      category: 'spam',
      reason: 'A report the fuzz suite owns',
      priority: 'low',
      createdAt: t,
      updatedAt: t,
    })
    .returning({ id: reports.id });
  return {
    callers,
    admins,
    marketId: market.id,
    postId: post.id,
    ticker: perp.ticker,
    actorId: actor.id,
    poolId: pool.id,
    poolManagerId: pool.managerId,
    reportId: report!.id,
    groupId: group.id,
    chatId: group.chatId,
  };
};

/** The seeded open group the fuzz callers join (lib/world/seed/world-data.ts GROUPS). */
const FUZZ_GROUP_ID = 'group-org-nexa';

/** A fresh id the API has never seen, within the parameter's declared length. */
const unknownId = (maxLength: number | undefined) => {
  if (maxLength === undefined || maxLength >= 36) return randomUUID();
  const digits = String(Math.floor(Math.random() * 1e12)).padStart(12, '0');
  return `ZZ${digits}`.slice(0, Math.max(1, maxLength));
};

/**
 * A real value for a path parameter, so that a case reaches the check it is aimed at (a body
 * mutation of a buy needs a market that exists). By name and place in the path:
 *   id under /markets/predictions or /admin/markets: a market; under /posts: a post; under
 *   /comments: the caller's own comment; under /pools: a seeded pool (its deposit and withdraw
 *   then reach their body checks); userId: the caller (so /pools/deposits/{userId} answers the
 *   owner), except for bodiless writes (follow, favorite), which act on someone else, so that a
 *   body the server wrongly accepted would write and be seen; username: the caller's; actorId: an
 *   actor, under /npc one that manages a pool (its invest and portfolio reach their checks);
 *   ticker: a real ticker; tag: a tag; reportId: a seeded pending report; id under /chats: the
 *   chat of a seeded open group every caller joined; groupId: that group; anything else
 *   (positionId, key, names added later): a fresh unknown id.
 */
export const realParam = (op: TOperation, name: string, caller: TCaller, world: TWorld): string => {
  const p = op.path;
  switch (name) {
    case 'id':
      if (p.startsWith('/api/comments/')) return caller.commentId;
      if (p.startsWith('/api/posts/')) return world.postId;
      if (p.startsWith('/api/pools/')) return world.poolId;
      if (p.startsWith('/api/chats/')) return world.chatId;
      if (p.includes('/markets/')) return world.marketId;
      break;
    case 'userId':
      return op.method !== 'GET' && !op.body ? world.actorId : caller.user.id;
    case 'username':
      return caller.user.username;
    case 'actorId':
      return p.startsWith('/api/npc/') ? world.poolManagerId : world.actorId;
    case 'ticker':
      return world.ticker;
    case 'tag':
      return 'markets';
    case 'reportId':
      return world.reportId;
    case 'groupId':
      return world.groupId;
  }
  return unknownId(op.pathParams.find((x) => x.name === name)?.schema.maxLength);
};

// ---------------------------------------------------------------------------------------------
// Requests.

const BASE = 'http://localhost:3000';
const BOUNDARY = 'fuzzboundary';
const enc = new TextEncoder();

/** A path segment as a client would send it (a lone surrogate travels as its UTF-8 bytes, ED A0 80). */
const encodeSegment = (value: string) => {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const isHigh = c >= 0xd800 && c <= 0xdbff;
    const next = value.charCodeAt(i + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else out += encodeURIComponent(value[i]!);
  }
  return out;
};

const secretKey = (s: string) => enc.encode(s);
const b64url = (s: string) => Buffer.from(s).toString('base64url');

const authHeader = async (auth: TAuth, caller: TCaller): Promise<string> => {
  const subject = caller.user.authSubject!;
  switch (auth.kind) {
    case 'caller':
      return `Bearer ${caller.token}`;
    case 'header':
      return auth.value;
    case 'junkBearer': {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
      let junk = '';
      for (let i = 0; i < auth.length; i++) junk += alphabet[(i * 7919 + 13) % alphabet.length];
      return `Bearer ${junk}`;
    }
    case 'wrongSecret':
      return `Bearer ${await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(subject).setIssuedAt().setExpirationTime('1h').sign(secretKey('not-the-secret-of-this-server-at-all'))}`;
    case 'expired': {
      const past = Math.floor(Date.now() / 1000) - 3600;
      return `Bearer ${await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(subject).setIssuedAt(past - 60).setExpirationTime(past).sign(secretKey(env().jwtSecret!))}`;
    }
    case 'noneAlg':
      return `Bearer ${b64url('{"alg":"none","typ":"JWT"}')}.${b64url(JSON.stringify({ sub: subject, iat: Math.floor(Date.now() / 1000) }))}.`;
    case 'noSubject':
      return `Bearer ${await new SignJWT({ name: 'nobody' }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(secretKey(env().jwtSecret!))}`;
  }
};

/** A body of exactly `size` bytes, produced in chunks as it is read (never held whole). */
const sizedStream = (size: number, head: string, tail: string, fill: number) => {
  const h = enc.encode(head);
  const t = enc.encode(tail);
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(fill);
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0 && h.byteLength > 0) {
        controller.enqueue(h.slice(0, size));
        sent += Math.min(h.byteLength, size);
        return;
      }
      const fillEnd = size - t.byteLength;
      if (sent < fillEnd) {
        const n = Math.min(chunk.byteLength, fillEnd - sent);
        controller.enqueue(chunk.slice(0, n));
        sent += n;
        return;
      }
      if (sent < size) {
        controller.enqueue(t.slice(0, size - sent));
        sent = size;
        return;
      }
      controller.close();
    },
  });
};

const formText = (fields: [string, string][]) =>
  fields.map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, '%22')}"\r\n\r\n${v}\r\n`).join('') + `--${BOUNDARY}--\r\n`;

type TBuiltBody = { body?: BodyInit; contentType?: string | null; contentLength?: number };

const buildBody = (b: TBody): TBuiltBody => {
  const bytes = (s: string) => enc.encode(s);
  switch (b.kind) {
    case 'none':
      return { contentType: b.contentType };
    case 'json':
      return { body: bytes(JSON.stringify(b.value)), contentType: b.contentType };
    case 'text':
      return { body: bytes(b.text), contentType: b.contentType };
    case 'bytes':
      return { body: new Uint8Array(b.bytes), contentType: b.contentType };
    case 'rawNumber':
      return { body: bytes(JSON.stringify({ ...b.base, [b.field]: '__N__' }).replace('"__N__"', b.literal)), contentType: b.contentType };
    case 'deep': {
      const nest = b.style === 'array' ? '['.repeat(b.depth) + ']'.repeat(b.depth) : '{"a":'.repeat(b.depth) + '1' + '}'.repeat(b.depth);
      const text = b.base ? JSON.stringify({ ...b.base, nested: '__D__' }).replace('"__D__"', nest) : nest;
      return { body: bytes(text), contentType: b.contentType };
    }
    case 'oversize': {
      const multipart = (b.contentType ?? '').startsWith('multipart/');
      const stream = multipart
        ? sizedStream(b.size, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`, `\r\n--${BOUNDARY}--\r\n`, 0)
        : sizedStream(b.size, '{"pad":"', '"}', 0x61);
      return { body: stream, contentType: b.contentType, contentLength: b.streamed ? undefined : b.size };
    }
    case 'form':
      return { body: bytes(formText(b.fields)), contentType: `multipart/form-data; boundary=${BOUNDARY}` };
    case 'rawForm':
      return { body: bytes(b.text), contentType: b.contentType };
  }
};

/** A client address per request, so anonymous limits (per address) never add up across cases. */
export const addressFor = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

export type TBuilt = { req: NextRequest; params: Record<string, string>; url: string };

export const buildRequest = async (op: TOperation, c: TCase, caller: TCaller, world: TWorld, address: string): Promise<TBuilt> => {
  const params: Record<string, string> = {};
  const segments: Record<string, string> = {};
  for (const p of op.pathParams) {
    const v = c.params[p.name] ?? { kind: 'real' };
    params[p.name] =
      v.kind === 'real'
        ? realParam(op, p.name, caller, world)
        : v.kind === 'unknown'
          ? unknownId(p.schema.maxLength)
          : v.kind === 'long'
            ? letters(v.length)
            : v.kind === 'encoded'
              ? v.raw
              : v.value;
    // An undecodable segment travels as it is (Next.js would never route it to the handler; the
    // route wrapper must refuse it from the URL whatever params it is handed).
    segments[p.name] = v.kind === 'encoded' ? v.raw : encodeSegment(params[p.name]!);
  }
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => segments[name] ?? '');
  const url = new URL(BASE + path);
  for (const [k, v] of c.query) url.searchParams.append(k, v);
  for (let i = 0; i < (c.manyParams ?? 0); i++) url.searchParams.append(`p${i}`, '1');
  if (c.pad) url.searchParams.append('pad', letters(c.pad));
  if (c.rawQuery) url.search = url.search ? `${url.search}&${c.rawQuery}` : `?${c.rawQuery}`;

  const headers = new Headers();
  for (const [k, v] of Object.entries(c.headers)) headers.set(k, v);
  headers.set('host', 'localhost:3000');
  headers.set('x-client-socket-address', address);
  headers.set('authorization', await authHeader(c.auth, caller));
  const built = buildBody(c.body);
  if (built.contentType) headers.set('content-type', built.contentType);
  if (built.contentLength !== undefined) headers.set('content-length', String(built.contentLength));
  if (c.contentLength !== undefined) headers.set('content-length', c.contentLength);
  const init: RequestInit & { duplex?: 'half' } = { method: op.method, headers };
  if (built.body !== undefined) {
    init.body = built.body;
    if (built.body instanceof ReadableStream) init.duplex = 'half';
  }
  return { req: new NextRequest(url, init as ConstructorParameters<typeof NextRequest>[1]), params, url: url.pathname + url.search };
};

export type TAnswer = { status: number; headers: Headers; text: string; json: unknown; eventStream: boolean; ms: number };

/** Calls the handler; an event stream (a valid SSE request, which no case should be) is cancelled unread. */
export const send = async (handler: THandler, built: TBuilt): Promise<TAnswer> => {
  const t0 = performance.now();
  const res = await handler(built.req, { params: Promise.resolve(built.params) });
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) {
    await res.body?.cancel().catch(() => {});
    return { status: res.status, headers: res.headers, text: '', json: undefined, eventStream: true, ms: performance.now() - t0 };
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json, eventStream: false, ms: performance.now() - t0 };
};

// ---------------------------------------------------------------------------------------------
// Rate limits: spread over callers and addresses, and a fresh counter store now and then.

/**
 * Cases go round-robin over the callers and each gets its own client address. A fresh in-memory
 * limiter (the one tests use anyway) is installed every `every` cases: with 40 callers and
 * every = 160 a caller makes at most 4 requests per counter, below the strictest rule (5 a minute).
 */
export const createRotation = (world: TWorld, every: number) => {
  let n = 0;
  return {
    next: (admin: boolean) => {
      if (n % every === 0) setLimiter(createMemoryLimiter());
      const pool = admin ? world.admins : world.callers;
      const caller = pool[n % pool.length]!;
      const address = addressFor(n + 1);
      n++;
      return { caller, address };
    },
    reset: () => {
      setLimiter(createMemoryLimiter());
      n = 0;
    },
  };
};

// ---------------------------------------------------------------------------------------------
// The fingerprint.

export type TFingerprint = {
  /** Tables whose count or xmin sum changed since the last call (empty when nothing was written). */
  changedSince: () => Promise<string[]>;
  tables: string[];
  /** How often the full statement ran, and its total time (FUZZ_TIMINGS). */
  stats: () => { checks: number; full: number; fullMs: number };
};

export const createFingerprint = async (): Promise<TFingerprint> => {
  const db = await getDb();
  const tables = rowsOf<{ tablename: string }>(await db.execute(sql.raw(`select tablename from pg_tables where schemaname = 'public' order by tablename`))).map(
    (r) => r.tablename,
  );
  const full = `select ${tables
    .map((t) => `(select count(*)::text || ':' || coalesce(sum(xmin::text::numeric), 0)::text from "public"."${t.replace(/"/g, '""')}") as "${t.replace(/"/g, '""')}"`)
    .join(', ')}`;
  const xidQuery = `select pg_snapshot_xmax(pg_current_snapshot())::text as x`;
  const readFull = async () => rowsOf<Record<string, string>>(await db.execute(sql.raw(full)))[0]!;
  const readXid = async () => rowsOf<{ x: string }>(await db.execute(sql.raw(xidQuery)))[0]!.x;
  let xid = await readXid();
  let last = await readFull();
  const stats = { checks: 0, full: 0, fullMs: 0 };
  return {
    tables,
    stats: () => ({ ...stats, fullMs: Math.round(stats.fullMs) }),
    changedSince: async () => {
      stats.checks++;
      const now = await readXid();
      if (now === xid) return [];
      const t0 = performance.now();
      const fresh = await readFull();
      stats.full++;
      stats.fullMs += performance.now() - t0;
      xid = await readXid();
      const changed = tables.filter((t) => fresh[t] !== last[t]);
      last = fresh;
      return changed;
    },
  };
};

// ---------------------------------------------------------------------------------------------
// The health probe.

/**
 * Calls GET /api/health every `intervalMs` while the cases run, and keeps the worst latency,
 * measured from when the probe was due (so an event loop held by a hostile request shows up as
 * the time the probe could not even start), and any answer that was not a 200.
 */
export const startHealthProbe = (handler: THandler, intervalMs = 100) => {
  let stopped = false;
  let worst = 0;
  let worstAt = '';
  const failures: string[] = [];
  let n = 0;
  let label = '';
  const loop = (async () => {
    let due = performance.now() + intervalMs;
    while (!stopped) {
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (stopped) break;
      n++;
      try {
        const url = new URL(`${BASE}/api/health`);
        const headers = new Headers({ host: 'localhost:3000', 'x-client-socket-address': `192.0.2.${n % 250}` });
        const res = await handler(new NextRequest(url, { headers }), { params: Promise.resolve({}) });
        await res.text();
        if (res.status !== 200 && res.status !== 429) failures.push(`${label}: health answered ${res.status}`);
      } catch (e) {
        failures.push(`${label}: health threw ${String(e)}`);
      }
      const latency = performance.now() - due;
      if (latency > worst) {
        worst = latency;
        worstAt = label;
      }
      due = Math.max(due + intervalMs, performance.now());
    }
  })();
  return {
    /** Names the window (the operation under test) that latencies and failures are charged to. */
    window: (name: string) => {
      label = name;
      worst = 0;
      worstAt = name;
      failures.length = 0;
    },
    worst: () => ({ ms: Math.round(worst), at: worstAt, failures: [...failures], probes: n }),
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
};

// ---------------------------------------------------------------------------------------------
// The verdict on one answer.

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** A JSON-RPC error answer: one error object, or a non-empty batch of nothing else. */
const isRpcRefusal = (json: unknown): boolean => {
  const isError = (r: unknown) => {
    const e = (r as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } } | null)?.error;
    return (r as { jsonrpc?: unknown } | null)?.jsonrpc === '2.0' && Number.isInteger(e?.code) && typeof e?.message === 'string' && !('result' in (r as object));
  };
  return Array.isArray(json) ? json.length > 0 && json.every(isError) : isError(json);
};

/**
 * What is wrong with an answer to a case (empty when it is a proper refusal). A JSON-RPC
 * operation refuses a body it could read inside the protocol (HTTP 200, JSON-RPC errors only),
 * as JSON-RPC 2.0 requires; what it refuses before reading one is a REST refusal like any other.
 */
export const problemsOf = (c: TCase, a: TAnswer, written: string[], jsonRpc = false): string[] => {
  const out: string[] = [];
  const beforeProtocol = Array.isArray(c.expect) && c.expect.some((s) => s === 413 || s === 415);
  if (jsonRpc && a.status === 200 && c.family.startsWith('body.') && !beforeProtocol) {
    if (!isRpcRefusal(a.json)) out.push(`200 without a JSON-RPC error: ${a.text.slice(0, 200)}`);
  } else if (a.status === 429) out.push('429: rate limited (the caller pool is too small; this masks validation)');
  else if (a.status >= 500) out.push(`${a.status}: a server error`);
  else if (a.status < 400) out.push(`${a.status}: accepted`);
  else if (c.expect !== '4xx' && !c.expect.includes(a.status)) out.push(`${a.status} where ${c.expect.join(' or ')} was expected`);
  if (a.eventStream) out.push('opened an event stream');
  const type = a.headers.get('content-type') ?? '';
  if (!a.eventStream && !type.startsWith('application/json')) out.push(`Content-Type ${type || 'none'}, not application/json`);
  if (a.status >= 400) {
    const b = a.json as { success?: unknown; error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined;
    const detailsOk = b?.error?.details === undefined || (typeof b.error.details === 'object' && b.error.details !== null && !Array.isArray(b.error.details));
    if (!b || b.success !== false || typeof b.error?.code !== 'string' || typeof b.error?.message !== 'string' || !detailsOk) {
      out.push(`not the error envelope: ${a.text.slice(0, 200)}`);
    }
  }
  const missing = RATE_HEADERS.filter((h) => !a.headers.has(h));
  if (missing.length) out.push(`missing ${missing.join(', ')}`);
  if (a.headers.get('x-content-type-options') !== 'nosniff') out.push('missing X-Content-Type-Options: nosniff');
  if (written.length) out.push(`wrote to ${written.join(', ')}`);
  return out;
};
