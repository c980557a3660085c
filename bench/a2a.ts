/**
 * Figure "A2A getMarketData" (BENCH_ONLY=a2a): calls per second at 32 clients through the A2A
 * endpoint beside the same REST read, measured in the same run at the same concurrency.
 *
 * Fixture: 20 prediction markets created through POST /api/admin/markets (as the buy figure does),
 * and 2,000 callers with a token: the run's 400 bench users (`bench|<i>`) and 1,600 more
 * (`bench-a2a|<i>`), each provisioned once before the run. Both sides carry a bearer token, so each
 * call counts against its caller's counter, never the client address's: the A2A read against the
 * caller's general rule ('authenticated', 1,000 a minute), the REST read against the caller's
 * 'predictionsList' rule (100 a minute, the endpoint's own rule), which is why the callers are
 * 2,000: 200,000 REST reads a minute before any caller could be refused.
 *
 * The figure, for BENCH_SECONDS each, autocannon with 32 keep-alive connections:
 * - A2A: POST /api/a2a, `{"jsonrpc":"2.0","id":n,"method":"a2a.getMarketData","params":{"marketId":…}}`,
 *   a random market of the 20 and the bearer token of a random caller; an answer counts when it
 *   is a 200 whose JSON has `result.marketId` equal to the market asked for.
 * - Reference: GET /api/markets/predictions/{id}, the same random market and caller distribution;
 *   an answer counts when it is a 200 whose JSON has `market.id`.
 * Anything else (non-200, a JSON-RPC error code, a wrong body) is counted and printed by kind.
 * Printed: calls/s, p50 and p99 of both, and the ratio a2a/rest. Goal: 0.8 or better.
 */
import autocannon from 'autocannon';
import type { TFigure } from './figures';

const CONNECTIONS = 32;
export const MARKETS = 20;
/** Extra callers beyond the run's 400: the REST side's 'predictionsList' rule allows each 100 reads a minute. */
export const EXTRA_CALLERS = 1_600;
const GOAL = 0.8;

type TSide = { ok: number; failures: Map<string, number>; p50: number; p99: number; rps: number; total: number };

const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;

/** Runs one side: `request` builds call n (path, method, body) for a random market and caller; `check` says whether an answer counts. */
export const runSide = async (
  base: string,
  seconds: number,
  build: (n: number, marketId: string, token: string) => { method: 'GET' | 'POST'; path: string; body?: string },
  check: (status: number, body: string, marketId: string, token: string) => string | null,
  marketIds: readonly string[],
  tokens: readonly string[],
): Promise<TSide> => {
  const failures = new Map<string, number>();
  let ok = 0;
  let n = 0;
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        setupRequest: (req, context) => {
          const marketId = pick(marketIds);
          const token = pick(tokens);
          (context as { marketId?: string; token?: string }).marketId = marketId;
          (context as { marketId?: string; token?: string }).token = token;
          const r = build(n++, marketId, token);
          return {
            ...req,
            method: r.method,
            path: r.path,
            headers: { ...req.headers, authorization: `Bearer ${token}`, ...(r.body ? { 'content-type': 'application/json' } : {}) },
            ...(r.body ? { body: r.body } : {}),
          };
        },
        onResponse: (status, body, context) => {
          const c = context as { marketId?: string; token?: string };
          const failure = check(status, body, c.marketId ?? '', c.token ?? '');
          if (failure === null) ok++;
          else failures.set(failure, (failures.get(failure) ?? 0) + 1);
        },
      },
    ],
  });
  if (result.errors > 0) failures.set('connection errors', result.errors);
  if (result.timeouts > 0) failures.set('timeouts', result.timeouts);
  return { ok, failures, p50: result.latency.p50, p99: result.latency.p99, rps: ok / seconds, total: result.requests.total };
};

export const parse = (body: string): Record<string, unknown> | null => {
  try {
    const v = JSON.parse(body) as unknown;
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

const a2aBody = (n: number, marketId: string) => JSON.stringify({ jsonrpc: '2.0', id: n, method: 'a2a.getMarketData', params: { marketId } });
const a2aCheck = (status: number, body: string, marketId: string): string | null => {
  if (status !== 200) return `http ${status}`;
  const json = parse(body);
  if (!json) return 'not JSON';
  const error = json.error as { code?: number; data?: { code?: string } } | undefined;
  if (error) return `rpc ${error.code}${error.data?.code ? ` ${error.data.code}` : ''}`;
  const result = json.result as { marketId?: string } | undefined;
  if (!result?.marketId) return 'no result.marketId';
  if (result.marketId !== marketId) return 'wrong marketId';
  return null;
};
const restCheck = (status: number, body: string, marketId: string): string | null => {
  if (status !== 200) return `http ${status}`;
  const json = parse(body);
  if (!json) return 'not JSON';
  const market = json.market as { id?: string } | undefined;
  if (!market?.id) return 'no market.id';
  if (market.id !== marketId) return 'wrong market.id';
  return null;
};

const describe = (failures: Map<string, number>) => [...failures].map(([k, v]) => `${k}: ${v}`).join(', ');

/**
 * The read figures' fixture (A2A, MCP): MARKETS questions created through the admin route, and
 * EXTRA_CALLERS more callers (`<prefix>|<i>`) provisioned once, so the runs measure reads.
 */
export const readFixture = async (ctx: { base: string; tokens: string[]; token: (sub: string) => Promise<string> }, label: string, prefix: string) => {
  const { base } = ctx;
  const adminToken = await ctx.token('bench|admin');
  const marketIds: string[] = [];
  for (let i = 0; i < MARKETS; i++) {
    const res = await fetch(`${base}/api/admin/markets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: `${label} benchmark question number ${i + 1}?`, resolutionDate: new Date(Date.now() + 30 * 86_400_000).toISOString(), liquidity: 100000 }),
    });
    const body = (await res.json()) as { market?: { id: string } };
    if (!body.market) throw new Error(`could not create a market: ${JSON.stringify(body)}`);
    marketIds.push(body.market.id);
  }
  const extra = await Promise.all(Array.from({ length: EXTRA_CALLERS }, (_, i) => ctx.token(`${prefix}|${i}`)));
  // Provision each extra caller once (first sight creates the account), so the run measures reads.
  for (let i = 0; i < extra.length; i += 20) {
    await Promise.all(extra.slice(i, i + 20).map((t) => fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${t}` } }).then((r) => r.arrayBuffer())));
  }
  return { marketIds, tokens: [...ctx.tokens, ...extra] };
};

export const benchA2aMarketData = async (ctx: {
  base: string;
  tokens: string[];
  figures: TFigure[];
  seconds: number;
  token: (sub: string) => Promise<string>;
}) => {
  const { base, figures, seconds } = ctx;
  console.log(`\nA2A a2a.getMarketData beside REST GET /api/markets/predictions/{id}: creating ${MARKETS} markets and ${EXTRA_CALLERS} more callers…`);
  const { marketIds, tokens } = await readFixture(ctx, 'A2A', 'bench-a2a');

  // A sample of each side (also loads both routes before the timed runs).
  for (let k = 0; k < 20; k++) {
    const marketId = marketIds[k % MARKETS]!;
    const token = tokens[k]!;
    const a = await fetch(`${base}/api/a2a`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: a2aBody(k, marketId),
    });
    const aFail = a2aCheck(a.status, await a.text(), marketId);
    const r = await fetch(`${base}/api/markets/predictions/${marketId}`, { headers: { authorization: `Bearer ${token}` } });
    const rFail = restCheck(r.status, await r.text(), marketId);
    if (aFail || rFail) console.log(`  note: sample ${k}: a2a ${aFail ?? 'ok'}, rest ${rFail ?? 'ok'}`);
  }

  console.log(`POST /api/a2a a2a.getMarketData: ${CONNECTIONS} connections, ${MARKETS} markets, ${tokens.length} callers, ${seconds}s…`);
  const a2a = await runSide(
    base,
    seconds,
    (n, marketId) => ({ method: 'POST', path: '/api/a2a', body: a2aBody(n, marketId) }),
    a2aCheck,
    marketIds,
    tokens,
  );
  if (a2a.failures.size > 0) console.log(`  note: ${a2a.total - a2a.ok} answers did not count: ${describe(a2a.failures)}`);

  console.log(`  reference: GET /api/markets/predictions/{id}, same markets, callers and concurrency, ${seconds}s…`);
  const rest = await runSide(base, seconds, (_n, marketId) => ({ method: 'GET', path: `/api/markets/predictions/${marketId}` }), restCheck, marketIds, tokens);
  if (rest.failures.size > 0) console.log(`  note: ${rest.total - rest.ok} reference answers did not count: ${describe(rest.failures)}`);

  console.log(
    `  a2a ${a2a.rps.toFixed(1)} calls/s (p50 ${a2a.p50.toFixed(1)} ms, p99 ${a2a.p99.toFixed(1)} ms); ` +
      `rest ${rest.rps.toFixed(1)} calls/s (p50 ${rest.p50.toFixed(1)} ms, p99 ${rest.p99.toFixed(1)} ms); ratio ${(a2a.rps / rest.rps).toFixed(3)} (goal ${GOAL})`,
  );
  const referenceIs = 'REST GET of the market';
  figures.push({ name: 'a2a getMarketData calls/s', project: a2a.rps, reference: rest.rps, unit: 'call/s', higherIsBetter: true, referenceIs });
  figures.push({ name: 'a2a getMarketData p50', project: a2a.p50, reference: rest.p50, unit: 'ms', higherIsBetter: false, referenceIs });
  figures.push({ name: 'a2a getMarketData p99', project: a2a.p99, reference: rest.p99, unit: 'ms', higherIsBetter: false, referenceIs });
};
