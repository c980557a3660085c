/**
 * Figure "api key auth" (BENCH_ONLY=api-keys): what authenticating by API key costs beside a
 * bearer JWT, on the same read at the same concurrency in the same run.
 *
 * Fixture: each of the run's 400 bench users (`bench|<i>`) creates one key (read scope) through
 * POST /api/users/{userId}/api-keys. Then, for BENCH_SECONDS each, autocannon with 32 keep-alive
 * connections:
 * - keys: GET /api/users/me with `Authorization: Bearer pm_…` of a random user; an answer counts
 *   when it is a 200 whose `user.id` is that key's owner;
 * - reference: the same route with the same users' HS256 JWTs (verified once, then remembered
 *   until they expire: lib/auth/jwt.ts), the cheapest bearer the service accepts.
 * Printed: calls/s, p50 and p99 of both and the ratio keys/jwt. A key costs one indexed lookup
 * that also loads the user (nothing cached, so a revoke counts at once); a JWT costs the user's
 * lookup by subject: the ratio shows what the hash and the join add.
 */
import type { TFigure } from './figures';
import { parse, runSide } from './a2a';

export const benchApiKeyAuth = async (ctx: { base: string; tokens: string[]; figures: TFigure[]; seconds: number }) => {
  const { base, tokens, figures, seconds } = ctx;
  console.log(`\nAPI key authentication beside bearer JWTs: creating ${tokens.length} keys…`);
  const owners: string[] = [];
  const secrets: string[] = [];
  for (let i = 0; i < tokens.length; i += 20) {
    const made = await Promise.all(
      tokens.slice(i, i + 20).map(async (t) => {
        const me = (await (await fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${t}` } })).json()) as { user: { id: string } };
        const res = await fetch(`${base}/api/users/${me.user.id}/api-keys`, {
          method: 'POST',
          headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'bench', scopes: ['read'] }),
        });
        const body = (await res.json()) as { secret?: string };
        if (!body.secret) throw new Error(`could not create a key: ${JSON.stringify(body)}`);
        return { owner: me.user.id, secret: body.secret };
      }),
    );
    for (const m of made) {
      owners.push(m.owner);
      secrets.push(m.secret);
    }
  }
  const ownerOf = new Map<string, string>();
  secrets.forEach((s, i) => ownerOf.set(s, owners[i]!));
  const jwtOwner = new Map<string, string>();
  tokens.forEach((t, i) => jwtOwner.set(t, owners[i]!));

  // runSide picks a "market" and a token per call: the market slot carries nothing here.
  const check = (who: Map<string, string>) => (status: number, body: string, _m: string, token: string) => {
    if (status !== 200) return `http ${status}`;
    const json = parse(body) as { user?: { id?: string } } | null;
    if (!json?.user?.id) return 'no user.id';
    if (who.get(token) !== json.user.id) return 'wrong user';
    return null;
  };
  console.log(`GET /api/users/me by API key: 32 connections, ${secrets.length} keys, ${seconds}s…`);
  const keys = await runSide(base, seconds, () => ({ method: 'GET', path: '/api/users/me' }), check(ownerOf), ['-'], secrets);
  console.log(`  reference: the same by bearer JWT, ${seconds}s…`);
  const jwt = await runSide(base, seconds, () => ({ method: 'GET', path: '/api/users/me' }), check(jwtOwner), ['-'], tokens);
  for (const [name, side] of [['keys', keys], ['jwt', jwt]] as const) {
    if (side.failures.size > 0) console.log(`  note: ${name}: ${side.total - side.ok} answers did not count: ${[...side.failures].map(([k, v]) => `${k}: ${v}`).join(', ')}`);
  }
  console.log(
    `  keys ${keys.rps.toFixed(1)} calls/s (p50 ${keys.p50.toFixed(1)} ms, p99 ${keys.p99.toFixed(1)} ms); ` +
      `jwt ${jwt.rps.toFixed(1)} calls/s (p50 ${jwt.p50.toFixed(1)} ms, p99 ${jwt.p99.toFixed(1)} ms); ratio ${(keys.rps / jwt.rps).toFixed(3)}`,
  );
  const referenceIs = 'the same read by bearer JWT';
  figures.push({ name: 'api key users/me calls/s', project: keys.rps, reference: jwt.rps, unit: 'call/s', higherIsBetter: true, referenceIs });
  figures.push({ name: 'api key users/me p50', project: keys.p50, reference: jwt.p50, unit: 'ms', higherIsBetter: false, referenceIs });
};
