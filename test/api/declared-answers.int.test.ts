/**
 * Answers the OpenAPI document did not describe (issue 29, "the document says what the service
 * does"), through the real handlers: every answer here also passes the strict check of
 * test/setup-db.ts (an undeclared status or code, or a body outside its schema, turns into a 500).
 *   - a list filtered by a user that does not exist answers 200 with nothing, the posts list as
 *     the markets and trades lists (it answered an undeclared 404);
 *   - asking for one's own block or mute status is 400 CANNOT_TARGET_SELF (it was undeclared);
 *   - POST /api/a2a's results are the methods', tasks and messages the document lists.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as a2aRoute } from '@/app/api/a2a/route';
import { GET as predictionsRoute } from '@/app/api/markets/predictions/route';
import { GET as postsRoute, POST as createPostRoute } from '@/app/api/posts/route';
import { GET as tradesRoute } from '@/app/api/trades/route';
import { GET as blockStatusRoute } from '@/app/api/users/[userId]/block/route';
import { GET as muteStatusRoute } from '@/app/api/users/[userId]/mute/route';
import { GET as userPostsRoute } from '@/app/api/users/[userId]/posts/route';
import type { TUserRow } from '@/db/schema';
import { a2aRpc } from '@/lib/contracts/a2a';
import { createMarket } from '@/lib/markets/service/create-market';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import { setLimiter } from '@/lib/operations/rate-limit';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';
import { createResponseCheck } from '@/test/openapi/response-check';

let author: TUserRow;
let reader: TUserRow;
let readerToken: string;
let marketId: string;
const NOBODY = 'no-such-user-anywhere';

beforeAll(async () => {
  author = await seedUser({ username: 'declared_author' });
  reader = await seedUser({ username: 'declared_reader', balance: '1000' });
  readerToken = await tokenFor(reader);
  const res = await call(createPostRoute, '/api/posts', { method: 'POST', token: await tokenFor(author), body: { content: 'A post by a real author' } });
  expect(res.status).toBe(201);
  marketId = (await createMarket({ caller: null, text: 'Will the document say it?', resolutionDate: new Date(Date.now() + 30 * 86_400_000), liquidity: 10000 })).id;
});
beforeEach(() => setLimiter(pinnedLimiter()));

describe('a list filtered by a user that does not exist', () => {
  it('GET /api/posts?userId= (and actorId=) answers 200 with an empty page, in both page forms', async () => {
    const known = await call(postsRoute, `/api/posts?userId=${author.id}`, { query: { userId: author.id } });
    expect(known.status).toBe(200);
    expect(known.body.posts).toHaveLength(1);
    const queries: Record<string, string>[] = [{ userId: NOBODY }, { actorId: NOBODY }, { userId: NOBODY, page: '3', limit: '5' }];
    for (const query of queries) {
      const res = await call(postsRoute, `/api/posts?${new URLSearchParams(query)}`, { query });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({
        success: true,
        posts: [],
        nextCursor: null,
        pagination: { page: Number(query.page ?? 1), limit: Number(query.limit ?? 20), total: 0, pages: 0 },
      });
    }
    // The cursor form answers no pagination, as for a known author.
    const page = await call(postsRoute, `/api/posts?userId=${author.id}&limit=1`, { query: { userId: author.id, limit: '1' } });
    const cursor = page.body.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    const byCursor = await call(postsRoute, `/api/posts?userId=${NOBODY}&cursor=${cursor}`, { query: { userId: NOBODY, cursor } });
    expect([byCursor.status, byCursor.body]).toEqual([200, { success: true, posts: [], nextCursor: null }]);
  });

  it('the markets and trades lists answer the same 200; the path form stays a resource (404 USER_NOT_FOUND)', async () => {
    const markets = await call(predictionsRoute, `/api/markets/predictions?userId=${NOBODY}`, { query: { userId: NOBODY } });
    expect(markets.status).toBe(200);
    expect(markets.body.questions.map((q: { id: string }) => q.id)).toContain(marketId);
    for (const q of markets.body.questions) expect(q.userPosition).toBeNull();
    const trades = await call(tradesRoute, `/api/trades?userId=${NOBODY}`, { token: readerToken, query: { userId: NOBODY } });
    expect([trades.status, trades.body.trades, trades.body.total]).toEqual([200, [], 0]);
    const own = await call(userPostsRoute, `/api/users/${NOBODY}/posts`, { params: { userId: NOBODY } });
    expect([own.status, own.body.error.code]).toEqual([404, 'USER_NOT_FOUND']);
  });
});

describe("one's own block and mute status", () => {
  it('is 400 CANNOT_TARGET_SELF, declared, while another player\'s is answered', async () => {
    for (const route of [blockStatusRoute, muteStatusRoute]) {
      const self = await call(route, `/api/users/${reader.id}/status`, { token: readerToken, params: { userId: reader.id } });
      expect([self.status, self.body.error?.code]).toEqual([400, 'CANNOT_TARGET_SELF']);
      const other = await call(route, `/api/users/${author.id}/status`, { token: readerToken, params: { userId: author.id } });
      expect(other.status).toBe(200);
    }
  });
});

describe('POST /api/a2a answers as the document lists them', () => {
  const check = createResponseCheck(() => buildOpenApiDocument('0.0.0-test'));
  const rpc = async (body: unknown) => {
    const res = await call(a2aRoute, '/api/a2a', { method: 'POST', token: readerToken, body });
    expect(res.status).toBe(200);
    return res.body as { result?: Record<string, any>; error?: { code: number; data?: Record<string, unknown> } };
  };

  it('results, tasks (completed and failed), the methods message and errors with data all pass; a loose result does not', async () => {
    const answers = [
      await rpc({ jsonrpc: '2.0', id: 1, method: 'a2a.getMarketData', params: { marketId } }),
      await rpc({ jsonrpc: '2.0', id: 2, method: 'a2a.getUserWallet' }),
      await rpc({ jsonrpc: '2.0', id: 3, method: 'moderation.checkBlockStatus', params: { userId: author.id } }),
      await rpc({ jsonrpc: '2.0', id: 4, method: 'message/send', params: { message: { role: 'user', parts: [{ kind: 'data', data: { method: 'a2a.getMarketPrices', params: { marketId } } }] } } }),
      await rpc({ jsonrpc: '2.0', id: 5, method: 'message/send', params: { message: { role: 'user', parts: [{ kind: 'data', data: { method: 'a2a.getInfo', params: { agentId: NOBODY } } }] } } }),
      await rpc({ jsonrpc: '2.0', id: 6, method: 'message/send', params: { message: { role: 'user', parts: [{ kind: 'text', text: 'hello' }] } } }),
      await rpc({ jsonrpc: '2.0', id: 7, method: 'moderation.blockUser', params: { userId: reader.id } }),
      await rpc({ jsonrpc: '2.0', id: 8, method: 'a2a.getMarketData', params: { marketId: 1 } }),
    ];
    const [data, wallet, status, sent, failed, methods, self, invalid] = answers;
    expect(Object.keys(data!.result!)).toContain('prices');
    expect(Object.keys(wallet!.result!)).toEqual(['userId', 'balance', 'positions']);
    expect(status!.result).toMatchObject({ isBlocked: false });
    expect(sent!.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(failed!.result).toMatchObject({ kind: 'task', status: { state: 'failed' } });
    expect(methods!.result).toMatchObject({ kind: 'message', role: 'agent' });
    expect(self!.error).toMatchObject({ code: -32000, data: { code: 'CANNOT_TARGET_SELF', status: 400 } });
    expect(invalid!.error).toMatchObject({ code: -32602, data: { code: 'VALIDATION_ERROR', status: 400 } });
    const got = await rpc({ jsonrpc: '2.0', id: 9, method: 'tasks/get', params: { id: sent!.result!.id } });
    expect(got.result).toMatchObject({ kind: 'task', id: sent!.result!.id });
    for (const a of [...answers, got]) expect(check(a2aRpc, 200, a), JSON.stringify(a).slice(0, 300)).toBeNull();
    // The check can fail: a result no method answers, or an error's data of another shape.
    expect(check(a2aRpc, 200, { jsonrpc: '2.0', id: 1, result: { anything: true } })).not.toBeNull();
    expect(check(a2aRpc, 200, { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'm', data: { code: 1 } } })).not.toBeNull();
    expect(check(a2aRpc, 200, { ...data, result: { ...data!.result, extra: 1 } })).not.toBeNull();
  });
});
