/**
 * The framework floor in process (no build, no HTTP): CPU ms per call of the real route handlers
 * GET /api/users/me, GET /api/markets/predictions?limit=20 and a buy (POST …/buy, 1 to 10 coins on
 * one of 20 markets) beside an empty async handler that
 * answers Response.json({}), each called with a NextRequest built as test/http.ts builds it. What
 * it measures is our own work per request (wrapper, token, SQL building, driver, answer), not
 * Next.js's server: a quick before/after check for bench/floor.ts's ratios.
 *
 * Opens a scratch database of its own on BENCH_INPROC_DATABASE_URL's server (default
 * postgres://postgres@127.0.0.1:5432/postgres; a database named inproc_floor_<pid> is created,
 * migrated by opening db/client.ts, seeded with seedWorld, 8 users and BENCH_INPROC_MARKETS
 * markets (default 200), and dropped at the end). BENCH_INPROC_N calls per phase (default 2000),
 * three rounds, the phases taking turns; the best round of each is printed.
 *
 * BENCH_INPROC_ONLY=users/me (or =markets, =buy) measures that call alone beside the empty handler;
 * BENCH_INPROC_PROFILE=/tmp/x.cpuprofile writes a CPU profile of the measured rounds (not the seeding).
 *
 * Run: npx tsx --conditions=react-server bench/inproc-floor.ts
 */
import postgres from 'postgres';
import { SignJWT } from 'jose';
import { NextRequest } from 'next/server';

const N = Number(process.env.BENCH_INPROC_N ?? 2000);
const MARKETS = Number(process.env.BENCH_INPROC_MARKETS ?? 200);
const ROUNDS = 3;
const baseUrl = process.env.BENCH_INPROC_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type THandler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** The i-th call of a phase: its path, and for a POST its JSON body and the route's params. */
type TCall = (i: number) => { path: string; body?: unknown; params?: Record<string, string> };

const request = (path: string, token?: string, body?: unknown) => {
  const headers = new Headers();
  headers.set('host', 'localhost:3000');
  headers.set('x-client-socket-address', '203.0.113.7');
  if (token) headers.set('authorization', `Bearer ${token}`);
  if (body === undefined) return new NextRequest(new URL(`http://localhost:3000${path}`), { method: 'GET', headers });
  headers.set('content-type', 'application/json');
  return new NextRequest(new URL(`http://localhost:3000${path}`), { method: 'POST', headers, body: JSON.stringify(body) });
};

const once = async (handler: THandler, call: ReturnType<TCall>, token?: string) => {
  const res = await handler(request(call.path, token, call.body), { params: Promise.resolve(call.params ?? {}) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${call.path}: ${res.status} ${text.slice(0, 300)}`);
  return text;
};

/** CPU ms per call (user + system of this process) and wall ms per call, `n` calls in sequence. */
const measure = async (handler: THandler, call: TCall, tokens: string[], n: number) => {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await once(handler, call(i), tokens.length ? tokens[i % tokens.length] : undefined);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { cpuMs: (cpu.user + cpu.system) / 1000 / n, wallMs: wall / n };
};

/** A CPU profile of the measured rounds only (not the seeding), written where BENCH_INPROC_PROFILE says. */
const startProfile = async () => {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    stop: async (file: string) => {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
};

const main = async () => {
  const dbName = `inproc_floor_${process.pid}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(baseUrl);
  url.pathname = `/${dbName}`;
  process.env.DATABASE_URL = url.toString();
  process.env.AUTH_JWT_SECRET ??= 'inproc-floor-secret-0123456789abcdef0123456789';
  process.env.LOCAL_SCHEDULER = '0';
  // The buy phase spends up to 10 coins a call from 8 users.
  process.env.STARTING_BALANCE = '1000000';
  try {
    const { resetEnvCache, env } = await import('@/lib/env');
    resetEnvCache();
    const { getDb, closeDb } = await import('@/db/client');
    const { setLimiter, createMemoryLimiter } = await import('@/lib/operations/rate-limit');
    // The memory limiter does its usual work, but its clock moves an hour a call, so every call
    // opens a fresh window: the bench measures the handlers, not 429s.
    let limiterClock = Date.UTC(2026, 0, 1);
    setLimiter(createMemoryLimiter(() => (limiterClock += 3_600_000)));
    const db = await getDb();
    const { seedWorld } = await import('@/lib/world/seed/world');
    await seedWorld(db);
    const { createMarket } = await import('@/lib/markets/service/create-market');
    const marketIds: string[] = [];
    for (let i = 0; i < MARKETS; i++) {
      const market = await createMarket({ caller: null, text: `In-process floor question number ${i + 1}?`, resolutionDate: new Date(Date.now() + (30 + i) * 86_400_000) });
      marketIds.push(market.id);
    }
    const secret = new TextEncoder().encode(env().jwtSecret!);
    const tokens: string[] = [];
    for (let i = 0; i < 8; i++) {
      tokens.push(await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(`inproc-floor-${i}`).setIssuedAt().setExpirationTime('1h').sign(secret));
    }
    const { GET: health } = await import('@/app/api/health/route');
    const { GET: me } = await import('@/app/api/users/me/route');
    const { GET: list } = await import('@/app/api/markets/predictions/route');
    const { POST: buy } = await import('@/app/api/markets/predictions/[id]/buy/route');
    const empty: THandler = async () => Response.json({});
    // One round trip and nothing else: what the driver alone costs a request.
    const { executePrepared } = await import('@/db/client');
    const { sql } = await import('drizzle-orm');
    const roundTrip: THandler = async () => Response.json(await executePrepared(sql`select 1 as one`));
    const get = (path: string): TCall => () => ({ path });
    // Provision the users and warm every path (JIT, prepared statements, caches).
    for (const t of tokens) await once(me as THandler, { path: '/api/users/me' }, t);
    // A buy of 1 to 10 coins on one of the first 20 markets (deep liquidity: prices barely move).
    const buyCall: TCall = (i) => {
      const id = marketIds[i % Math.min(20, marketIds.length)]!;
      return { path: `/api/markets/predictions/${id}/buy`, body: { outcome: i % 3 ? 'YES' : 'NO', amount: 1 + (i % 10) }, params: { id } };
    };
    const only = process.env.BENCH_INPROC_ONLY; // a phase's name contains it (the empty handler always runs)
    const phases = (
      [
        ['empty handler', empty, get('/api/bench/empty'), []],
        ['one round trip (select 1)', roundTrip, get('/api/bench/empty'), []],
        ['GET /api/health', health as THandler, get('/api/health'), []],
        ['GET /api/users/me', me as THandler, get('/api/users/me'), tokens],
        ['GET /api/markets/predictions?limit=20', list as THandler, get('/api/markets/predictions?limit=20'), tokens],
        ['POST /api/markets/predictions/{id}/buy', buy as THandler, buyCall, tokens],
      ] as [string, THandler, TCall, string[]][]
    ).filter(([name]) => !only || name === 'empty handler' || name.includes(only));
    for (const [, h, p, t] of phases) await measure(h, p, t, Math.min(200, N));
    const profile = process.env.BENCH_INPROC_PROFILE ? await startProfile() : undefined;
    const best = new Map<string, { cpuMs: number; wallMs: number }>();
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, h, p, t] of phases) {
        const m = await measure(h, p, t, N);
        const prev = best.get(name);
        if (!prev || m.cpuMs < prev.cpuMs) best.set(name, m);
      }
    }
    if (profile) await profile.stop(process.env.BENCH_INPROC_PROFILE!);
    const floor = best.get('empty handler')!.cpuMs;
    console.log(`In process, ${N} calls per phase, best of ${ROUNDS} rounds, ${MARKETS} markets (${process.env.DATABASE_URL?.replace(/\/\/[^@]*@/, '//')}):`);
    for (const [name, m] of best) {
      console.log(`  ${name.padEnd(40)} ${m.cpuMs.toFixed(3)} CPU ms/call  ${m.wallMs.toFixed(3)} wall ms/call  (+${(m.cpuMs - floor).toFixed(3)} over empty)`);
    }
    await closeDb();
  } finally {
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
};

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
