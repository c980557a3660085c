/**
 * Regressions for the defects outside clients found with hostile input (issue "Bad input never
 * hurts the service"), against the real route handlers: each answered a 500 or held the CPU.
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as createMarketRoute } from '@/app/api/admin/markets/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { POST as createPostRoute } from '@/app/api/posts/route';
import { getDb, rowsOf } from '@/db/client';
import type { TUserRow } from '@/db/schema';
import { seedUser } from '@/test/factories';
import { endpoints } from '@/lib/contracts';
import { setLimiter } from '@/lib/operations/rate-limit';
import { call, pinnedLimiter, tokenFor } from '@/test/http';

let player: TUserRow;
let token: string;
let marketId: string;

/** Rows that any trade or post writes: nothing of it may change on a refused request. */
const footprint = async () =>
  rowsOf<Record<string, number>>(
    await (await getDb()).execute(sql`select
      (select count(*)::int from balance_transactions) as tx,
      (select count(*)::int from market_positions) as positions,
      (select count(*)::int from posts) as posts,
      (select virtual_balance::text from users where id = ${player.id}) as balance`),
  )[0];

beforeEach(() => setLimiter(pinnedLimiter()));

beforeAll(async () => {
  player = await seedUser();
  token = await tokenFor(player);
  const admin = await seedUser({ isAdmin: true });
  const created = await call(createMarketRoute, '/api/admin/markets', {
    method: 'POST',
    token: await tokenFor(admin),
    body: { text: 'Will hostile input ever reach the database?', resolutionDate: new Date(Date.now() + 7 * 86_400_000).toISOString() },
  });
  expect(created.status).toBe(200);
  marketId = created.body.market.id;
});

describe('hostile input on real routes', () => {
  it('a buy of a huge but valid JSON number is 400 INVALID_TRADE_SIZE, never a numeric overflow 500', async () => {
    const before = await footprint();
    for (const amount of [1e21, 1e22, 1e30, 1e308, '1' + '0'.repeat(30), -1e22]) {
      const res = await call(buyRoute, `/api/markets/predictions/${marketId}/buy`, { method: 'POST', token, params: { id: marketId }, body: { outcome: 'YES', amount } });
      expect(res.status, String(amount)).toBe(400);
      expect(['INVALID_TRADE_SIZE', 'VALIDATION_ERROR']).toContain(res.body.error.code);
    }
    const overflow = await call(buyRoute, `/api/markets/predictions/${marketId}/buy`, { method: 'POST', token, params: { id: marketId }, body: { outcome: 'YES', amount: 1e22 } });
    expect(overflow.body.error.code).toBe('INVALID_TRADE_SIZE');
    expect(await footprint()).toEqual(before);
  });

  it('a NUL byte or a lone surrogate in a post is 400, and no post is written', async () => {
    const before = await footprint();
    for (const content of ['nul \u0000 inside', 'half a pair \ud83d', 'other half \ude00', 'escape \u001b[31m']) {
      const res = await call(createPostRoute, '/api/posts', { method: 'POST', token, body: { content } });
      expect(res.status, JSON.stringify(content)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect(await footprint()).toEqual(before);
  });

  it('an oversized post is refused fast: 413 past the body limit, 400 past the raw length, never minutes of CPU', async () => {
    const huge = await call(createPostRoute, '/api/posts', { method: 'POST', token, body: { content: 'a'.repeat(1_000_000) } });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    // Just under the body limit: the schema's raw cap refuses it before any grapheme counting.
    const long = await call(createPostRoute, '/api/posts', { method: 'POST', token, body: { content: 'ab'.repeat(30_000) } });
    expect(long.status).toBe(400);
    // The one issue is the raw cap's (a length compare, aborting the rest): the grapheme count's
    // refinement never ran, or it would be an issue of its own. text-cost.test.ts holds every
    // schema's cost linear in the input.
    expect(long.body.error.details.issues.map((i: { path: string; code: string }) => [i.path, i.code])).toEqual([['content', 'too_big']]);
  });

  it('a NUL in a path parameter or a query value is 400 on every GET route with one, never a 500', async () => {
    const root = path.resolve(import.meta.dirname, '..', '..');
    let checked = 0;
    // (The scheduler's route checks its secret first.)
    for (const e of endpoints.filter((x) => x.method === 'GET' && !x.hidden && x.auth !== 'cron')) {
      const names = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const file = path.join(root, 'app', e.path.replace(/\{(\w+)\}/g, '[$1]'), 'route.ts');
      const mod = (await import(/* @vite-ignore */ file)) as Record<string, Parameters<typeof call>[0]>;
      const handler = mod.GET!;
      if (names.length) {
        const params = Object.fromEntries(names.map((n) => [n, '\u0000']));
        const res = await call(handler, e.path.replace(/\{\w+\}/g, '%00'), { token, params });
        expect(res.status, `${e.path} with NUL`).toBe(400);
        expect(res.body.error.code).toBe('INVALID_PARAMETER');
        checked++;
      }
      if (e.path !== '/api/sse/events') {
        const params = Object.fromEntries(names.map((n) => [n, 'x']));
        const res = await call(handler, `${e.path}?q=%00`, { token, params, query: { q: '\u0000', limit: '\u0000' } });
        expect(res.status, `${e.path} with NUL in the query`).toBe(400);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(7);
  });
});
