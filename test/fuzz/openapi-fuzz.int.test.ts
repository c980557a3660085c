/**
 * Fuzzing every operation of the OpenAPI document (test/fuzz/README.md). One test per path and
 * method, generated from the document at load time, so a route added later is fuzzed with no
 * work. Each case (cases.ts) is invalid by construction; each must be answered with a 4xx in the
 * JSON error envelope, with the rate-limit headers, writing nothing, while a concurrent probe
 * sees GET /api/health answer within a second (or, on a slow machine, 5,000 median cases).
 *
 * npm test: a fixed seed and FUZZ_RUNS (default below) cases per operation, on whichever database
 * DATABASE_URL names. npm run fuzz (FUZZ_CAMPAIGN=1): FUZZ_RUNS (default 300) and FUZZ_SEED (default
 * random, printed). FUZZ_ONLY="POST /api/posts" limits the run to operations whose "METHOD path"
 * contains it ("a|b": either); FUZZ_PATH replays one counterexample of fast-check exactly; FUZZ_REPORT=1 runs every
 * case and lists one example per kind of failure (triage); FUZZ_TIMINGS=1 prints the cost.
 */
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '@/package.json';
import { isPrivileged } from '@/lib/auth/permissions';
import { endpoints } from '@/lib/contracts';
import { DEFAULT_JSON_BODY_LIMIT } from '@/lib/http/limits';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import { caseArb, describeCase, documentAgrees, operationsOf, validatorsFor, type TCase } from './cases';
import {
  buildRequest,
  createFingerprint,
  createRotation,
  problemsOf,
  send,
  setupWorld,
  startHealthProbe,
  type TFingerprint,
  type THandler,
  type TWorld,
} from './harness';

const campaign = process.env.FUZZ_CAMPAIGN === '1';
const envInt = (name: string) => (process.env[name] && /^\d+$/.test(process.env[name]!) ? Number(process.env[name]) : undefined);
/** npm test: 160 cases per operation (measured: see test/fuzz/README.md "Budget"). */
const RUNS = envInt('FUZZ_RUNS') ?? (campaign ? 300 : 160);
const SEED = envInt('FUZZ_SEED') ?? (campaign ? Math.floor(Math.random() * 2 ** 31) : 20260101);
const ONLY = process.env.FUZZ_ONLY;
const PATH = process.env.FUZZ_PATH;
/** Triage: run every case, then fail once with one example per family and kind of problem. */
const REPORT = process.env.FUZZ_REPORT === '1';
/** Players the cases go round-robin over (harness.ts createRotation: at most 4 requests each per limiter). */
const CALLERS = 40;
/**
 * The longest GET /api/health may wait while an operation is fuzzed: as long as this many of the
 * operation's median cases (a case costs about 0.2 ms on an idle machine, so about a second), and
 * never less than HEALTH_LIMIT_MS. A request that holds the event loop costs thousands of cases.
 */
const HEALTH_LIMIT_CASES = 5000;
const HEALTH_LIMIT_MS = 1000;

const root = path.resolve(import.meta.dirname, '..', '..');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
const routeFileFor = (apiPath: string) => path.join(root, 'app', apiPath.replace(/\{(\w+)\}/g, '[$1]'), 'route.ts');

const doc = buildOpenApiDocument(pkg.version);
const registry = new Map(endpoints.map((e) => [e.id, e]));
const operations = operationsOf(doc as Parameters<typeof operationsOf>[0], (id) => {
  const e = registry.get(id);
  // The body limit is not in the document; the registry holds it (lib/contracts/endpoint.ts).
  return { bodyLimit: e?.bodyLimit ?? DEFAULT_JSON_BODY_LIMIT, cron: e?.auth === 'cron' };
}).filter((op) => !ONLY || ONLY.split('|').some((part) => `${op.method} ${op.path}`.includes(part)));

if (campaign) console.log(`[fuzz] campaign: seed ${SEED}, ${RUNS} cases per operation, ${operations.length} operations`);

let world: TWorld;
let fingerprint: TFingerprint;
let rotation: ReturnType<typeof createRotation>;
let probe: ReturnType<typeof startHealthProbe>;
const timings: string[] = [];

describe('fuzz: every operation of the OpenAPI document refuses hostile input', () => {
  beforeAll(async () => {
    const t0 = performance.now();
    world = await setupWorld(CALLERS);
    fingerprint = await createFingerprint();
    rotation = createRotation(world, CALLERS * 4);
    const health = (await import(routeFileFor('/api/health'))).GET as THandler;
    probe = startHealthProbe(health);
    timings.push(`setup: ${Math.round(performance.now() - t0)} ms`);
  }, 120_000);

  afterAll(async () => {
    await probe?.stop();
    if (process.env.FUZZ_TIMINGS) console.log(`${timings.join('\n')}\nfingerprint: ${JSON.stringify(fingerprint?.stats())}`);
  });

  it('the document lists operations, each one declared in the registry', () => {
    expect(operations.length).toBeGreaterThan(0);
    for (const op of operations) expect(registry.get(op.operationId), `${op.method} ${op.path}`).toBeDefined();
  });

  for (const op of operations) {
    const name = `${op.method} ${op.path}`;
    it(
      name,
      async () => {
        const mod = (await import(routeFileFor(op.path))) as Record<string, THandler | undefined>;
        const handler = mod[op.method];
        expect(handler, `${routeFileFor(op.path)} exports ${op.method}`).toBeTypeOf('function');
        const endpoint = registry.get(op.operationId)!;
        const validators = validatorsFor(op);
        const admin = isPrivileged(endpoint.requires);
        rotation.reset();
        probe.window(name);
        // Anything written before this operation's first case is not its doing.
        await fingerprint.changedSince();
        const t0 = performance.now();
        let sent = 0;
        const caseMs: number[] = [];
        const found = new Map<string, string>();

        const property = fc.asyncProperty(caseArb(op), async (c: TCase) => {
          fc.pre(documentAgrees(op, validators, c));
          // Requests arrive over the network, each in a turn of the event loop of its own. Without
          // this the cases (PGlite answers without I/O) would chain in microtasks and starve the
          // health probe's timer, charging the harness's own loop to the server.
          await nextTurn();
          const { caller, address } = rotation.next(admin);
          const built = await buildRequest(op, c, caller, world, address);
          const answer = await send(handler!, built);
          sent++;
          caseMs.push(answer.ms);
          const written = await fingerprint.changedSince();
          const problems = problemsOf(c, answer, written, op.jsonRpc);
          if (problems.length > 0) {
            const message = `${describeCase(c)}\n  request: ${op.method} ${built.url.length > 300 ? `${built.url.slice(0, 300)}…` : built.url}\n  answer: ${answer.status} ${answer.text.slice(0, 400)}\n  problems: ${problems.join('; ')}`;
            if (!REPORT) throw new Error(message);
            const key = `${c.family.replace(/ \(.*/, '')} | ${problems.map((p) => p.replace(/[0-9]{3}:? .*/, (m) => m.slice(0, 3))).join('; ')}`;
            if (!found.has(key)) found.set(key, message);
          }
        });
        const timed = () => timings.push(`${name}: ${sent} cases in ${Math.round(performance.now() - t0)} ms, health worst ${probe.worst().ms} ms`);
        try {
          await fc.assert(property, {
            seed: SEED,
            numRuns: RUNS,
            maxSkipsPerRun: 1000,
            ...(PATH ? { path: PATH } : {}),
            // The shrinker re-sends requests; in npm test one counterexample is enough to act on.
            endOnFailure: !campaign,
            includeErrorInReport: true,
          });
          if (found.size > 0) throw new Error(`${found.size} kinds of failure:\n${[...found.entries()].map(([k, m]) => `* ${k}\n  ${m}`).join('\n')}`);
        } catch (e) {
          timed();
          const at = /path: "([^"]+)"/.exec((e as Error).message)?.[1];
          const replay = `FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} FUZZ_ONLY='${name}'${at ? ` FUZZ_PATH='${at}'` : ''} npx vitest run test/fuzz`;
          throw new Error(`fuzz failure in ${name} (seed ${SEED}). Replay: ${replay}\n${(e as Error).message}`);
        }

        timed();
        const health = probe.worst();
        expect(health.failures, 'health probe failures').toEqual([]);
        // The wait is weighed in this window's own cases, so a machine that is slow or busy for
        // everything (it slows the cases and the probe alike) is not a server that stalls.
        const limit = Math.max(HEALTH_LIMIT_MS, HEALTH_LIMIT_CASES * median(caseMs));
        expect(health.ms, `GET /api/health waited ${health.ms} ms (limit ${Math.round(limit)}: ${HEALTH_LIMIT_CASES} median cases) while ${name} was fuzzed`).toBeLessThan(limit);
      },
      campaign ? 30 * 60_000 : 60_000,
    );
  }
});

