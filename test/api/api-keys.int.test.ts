/**
 * API keys (issue 33, CONTRACT.md "API keys") through the real handlers, on PGlite and
 * PostgreSQL: creating, listing and revoking; a key authenticating REST and A2A as its owner;
 * scopes (INSUFFICIENT_SCOPE, nothing written); caps (per-order amount, daily limit with open
 * orders' reservations and concurrent calls, leverage; KEY_LIMIT_EXCEEDED, nothing written);
 * dry runs held to the caps; revoked and expired keys 401 at once; the heartbeat's dead-man
 * switch; trades and orders recording their key; the bot mark on profiles and the leaderboard.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as a2aRoute } from '@/app/api/a2a/route';
import { POST as createMarketRoute } from '@/app/api/admin/markets/route';
import { GET as leaderboardRoute } from '@/app/api/leaderboard/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { POST as placeRoute } from '@/app/api/markets/predictions/[id]/orders/route';
import { POST as openRoute } from '@/app/api/markets/perps/open/route';
import { POST as postsRoute } from '@/app/api/posts/route';
import { GET as meRoute } from '@/app/api/users/me/route';
import { GET as profileRoute } from '@/app/api/users/[userId]/profile/route';
import { POST as updateProfileRoute } from '@/app/api/users/[userId]/update-profile/route';
import { GET as listKeysRoute, POST as createKeyRoute } from '@/app/api/users/[userId]/api-keys/route';
import { DELETE as revokeKeyRoute } from '@/app/api/users/[userId]/api-keys/[keyId]/route';
import { POST as heartbeatRoute } from '@/app/api/users/[userId]/api-keys/[keyId]/heartbeat/route';
import { getDb } from '@/db/client';
import { apiKeys, apiKeySpend, perpPositions, predictionOrders, trades, users, type TUserRow } from '@/db/schema';
import { sweepStoppedHeartbeats } from '@/lib/api-keys/service';
import { hashApiKeySecret } from '@/lib/auth/api-key-credentials';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { dec } from '@/lib/money/decimal';
import { setLimiter } from '@/lib/operations/rate-limit';
import { resetLeaderboardFreshness } from '@/lib/standings/service/read-leaderboard';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';

beforeAll(async () => {
  await seedWorld(await getDb());
});

beforeEach(() => {
  setLimiter(pinnedLimiter());
  resetClock();
});

let admin: TUserRow;
const adminToken = async () => {
  admin ??= await seedUser({ isAdmin: true, balance: '0' });
  return tokenFor(admin);
};

const newMarket = async () => {
  const res = await call(createMarketRoute, '/api/admin/markets', {
    method: 'POST',
    token: await adminToken(),
    body: { text: 'Will the API keys keep their bots in line?', resolutionDate: new Date(Date.now() + 7 * 86_400_000).toISOString(), liquidity: 1000 },
  });
  expect(res.status).toBe(200);
  return res.body.market as { id: string };
};

type TKeyBody = { name?: string; scopes?: string[]; maxOrderAmount?: number | string | null; dailyLimit?: number | string | null; maxLeverage?: number | null; expiresAt?: string | null };

const createKey = async (owner: TUserRow, body: TKeyBody = {}, token?: string) =>
  call(createKeyRoute, `/api/users/${owner.id}/api-keys`, {
    method: 'POST',
    token: token ?? (await tokenFor(owner)),
    params: { userId: owner.id },
    body: { name: 'bot', scopes: ['read', 'trade', 'social'], ...body },
  });

const keyFor = async (owner: TUserRow, body: TKeyBody = {}) => {
  const res = await createKey(owner, body);
  expect(res.status).toBe(201);
  return { id: res.body.apiKey.id as string, secret: res.body.secret as string };
};

const buy = (token: string, marketId: string, body: Record<string, unknown>) =>
  call(buyRoute, `/api/markets/predictions/${marketId}/buy`, { method: 'POST', token, params: { id: marketId }, body });
const place = (token: string, marketId: string, body: Record<string, unknown>) =>
  call(placeRoute, `/api/markets/predictions/${marketId}/orders`, { method: 'POST', token, params: { id: marketId }, body });
const a2a = (token: string, method: string, params: Record<string, unknown> = {}) =>
  call(a2aRoute, '/api/a2a', { method: 'POST', token, body: { jsonrpc: '2.0', id: 1, method, params } });

const balanceOf = async (userId: string) => {
  const [u] = await (await getDb()).select().from(users).where(eq(users.id, userId));
  return dec(u!.virtualBalance);
};
const tradesOf = async (userId: string) => (await getDb()).select().from(trades).where(eq(trades.userId, userId));

describe('creating, listing and revoking keys', () => {
  it('answers the secret once, stores only its hash, and lists the key without it', async () => {
    const owner = await seedUser();
    const res = await createKey(owner, { name: 'my bot', scopes: ['read', 'trade'], maxOrderAmount: 50, dailyLimit: '200.5', maxLeverage: 3 });
    expect(res.status).toBe(201);
    const { apiKey, secret } = res.body;
    expect(secret).toMatch(/^pm_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({
      name: 'my bot',
      prefix: secret.slice(0, 11),
      scopes: ['read', 'trade'],
      maxOrderAmount: '50',
      dailyLimit: '200.5',
      maxLeverage: '3',
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
      heartbeat: null,
    });
    const [row] = await (await getDb()).select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row!.secretHash).toBe(hashApiKeySecret(secret));
    expect(JSON.stringify(row)).not.toContain(secret);

    const list = await call(listKeysRoute, `/api/users/${owner.id}/api-keys`, { token: await tokenFor(owner), params: { userId: owner.id } });
    expect(list.status).toBe(200);
    expect(list.body.apiKeys).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(secret);
  });

  it('refuses bad input, another player and a key creating keys', async () => {
    const owner = await seedUser();
    const other = await seedUser();
    expect((await createKey(owner, { scopes: [] })).status).toBe(400);
    expect((await createKey(owner, { scopes: ['admin'] })).status).toBe(400);
    expect((await createKey(owner, { name: 'x'.repeat(65) })).status).toBe(400);
    expect((await createKey(owner, { maxOrderAmount: 0 })).status).toBe(400);
    expect((await createKey(owner, { maxLeverage: 101 })).status).toBe(400);
    expect((await createKey(owner, { expiresAt: '2020-01-01T00:00:00Z' })).body.error.code).toBe('VALIDATION_ERROR');
    const foreign = await createKey(owner, {}, await tokenFor(other));
    expect(foreign.status).toBe(403);
    expect((await call(listKeysRoute, `/api/users/${owner.id}/api-keys`, { token: await tokenFor(other), params: { userId: owner.id } })).status).toBe(403);

    const key = await keyFor(owner);
    const byKey = await createKey(owner, {}, key.secret);
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect(await (await getDb()).$count(apiKeys, eq(apiKeys.userId, owner.id))).toBe(1);
  });

  it('revokes at once: REST and A2A answer 401 from the next request on', async () => {
    const owner = await seedUser();
    const key = await keyFor(owner, { scopes: ['read'] });
    const me = await call(meRoute, '/api/users/me', { token: key.secret });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(owner.id);
    expect(dec((await a2a(key.secret, 'a2a.getBalance')).body.result.balance).eq(await balanceOf(owner.id))).toBe(true);

    const other = await seedUser();
    expect((await call(revokeKeyRoute, `/api/users/${owner.id}/api-keys/${key.id}`, { method: 'DELETE', token: await tokenFor(other), params: { userId: owner.id, keyId: key.id } })).status).toBe(403);
    const revoked = await call(revokeKeyRoute, `/api/users/${owner.id}/api-keys/${key.id}`, { method: 'DELETE', token: await tokenFor(owner), params: { userId: owner.id, keyId: key.id } });
    expect(revoked.status).toBe(200);
    expect((await call(meRoute, '/api/users/me', { token: key.secret })).status).toBe(401);
    expect((await a2a(key.secret, 'a2a.getBalance')).status).toBe(401);
    const again = await call(revokeKeyRoute, `/api/users/${owner.id}/api-keys/${key.id}`, { method: 'DELETE', token: await tokenFor(owner), params: { userId: owner.id, keyId: key.id } });
    expect(again.body.error.code).toBe('API_KEY_NOT_FOUND');
  });

  it('an expired key and an unknown secret are 401; a key is never read from a cookie', async () => {
    const owner = await seedUser();
    const key = await keyFor(owner);
    await (await getDb()).update(apiKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiKeys.id, key.id));
    expect((await call(meRoute, '/api/users/me', { token: key.secret })).status).toBe(401);
    expect((await call(meRoute, '/api/users/me', { token: `pm_${'x'.repeat(43)}` })).status).toBe(401);
    const fresh = await keyFor(owner);
    const viaCookie = await call(meRoute, '/api/users/me', { cookie: `pm_session=${fresh.secret}` });
    expect(viaCookie.status).toBe(401);
  });

  it('keeps lastUsedAt to the minute, without a write per request', async () => {
    const owner = await seedUser();
    const key = await keyFor(owner, { scopes: ['read'] });
    await call(meRoute, '/api/users/me', { token: key.secret });
    const read = async () => (await (await getDb()).select().from(apiKeys).where(eq(apiKeys.id, key.id)))[0]!.lastUsedAt;
    await expect.poll(read).not.toBeNull();
    const first = (await read())!;
    await call(meRoute, '/api/users/me', { token: key.secret });
    await new Promise((r) => setTimeout(r, 50));
    expect((await read())!.getTime()).toBe(first.getTime());
  });
});

describe('scopes', () => {
  it('a key without trade is refused every money call on REST and A2A, with nothing written', async () => {
    const owner = await seedUser();
    const market = await newMarket();
    const key = await keyFor(owner, { scopes: ['read', 'social'] });
    const before = await balanceOf(owner.id);
    const res = await buy(key.secret, market.id, { outcome: 'YES', amount: 10 });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: ['trade'], scopes: ['read', 'social'] } });
    const rpc = await a2a(key.secret, 'a2a.placeOrder', { marketId: market.id, outcome: 'YES', amount: 10, limitPrice: 0.3 });
    expect(rpc.body.error.data.code).toBe('INSUFFICIENT_SCOPE');
    expect((await place(key.secret, market.id, { outcome: 'YES', amount: 10, limitPrice: 0.3 })).status).toBe(403);
    expect(await balanceOf(owner.id)).toEqual(before);
    expect(await tradesOf(owner.id)).toHaveLength(0);
    expect(await (await getDb()).$count(predictionOrders, eq(predictionOrders.userId, owner.id))).toBe(0);
  });

  it('social covers posts; read covers reads; a key never changes its owner\'s profile or acts as an administrator', async () => {
    const owner = await seedUser({ isAdmin: true });
    const reader = await keyFor(owner, { scopes: ['read'] });
    const post = await call(postsRoute, '/api/posts', { method: 'POST', token: reader.secret, body: { content: 'a bot speaks' } });
    expect(post.body.error.code).toBe('INSUFFICIENT_SCOPE');
    const social = await keyFor(owner, { scopes: ['social'] });
    expect((await call(postsRoute, '/api/posts', { method: 'POST', token: social.secret, body: { content: 'a bot speaks' } })).status).toBe(201);
    expect((await call(meRoute, '/api/users/me', { token: social.secret })).body.error.code).toBe('INSUFFICIENT_SCOPE');
    const profile = await call(updateProfileRoute, `/api/users/${owner.id}/update-profile`, {
      method: 'POST',
      token: social.secret,
      params: { userId: owner.id },
      body: { bio: 'changed by a bot' },
    });
    expect(profile.status).toBe(403);
    const asAdmin = await call(createMarketRoute, '/api/admin/markets', {
      method: 'POST',
      token: (await keyFor(owner)).secret,
      body: { text: 'A key posing as an administrator?', resolutionDate: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(asAdmin.status).toBe(403);
  });
});

describe('caps', () => {
  it('refuses an order above the per-order amount with the limit, and records the key on what it allows', async () => {
    const owner = await seedUser();
    const market = await newMarket();
    const key = await keyFor(owner, { maxOrderAmount: 50 });
    const over = await buy(key.secret, market.id, { outcome: 'YES', amount: 50.01 });
    expect(over.status).toBe(403);
    expect(over.body.error).toMatchObject({ code: 'KEY_LIMIT_EXCEEDED', details: { cap: 'maxOrderAmount', limit: '50', requested: '50.01' } });
    expect((await a2a(key.secret, 'a2a.placeOrder', { marketId: market.id, outcome: 'NO', amount: 51, limitPrice: 0.2 })).body.error.data).toMatchObject({
      code: 'KEY_LIMIT_EXCEEDED',
      status: 403,
    });
    expect(await tradesOf(owner.id)).toHaveLength(0);
    const ok = await buy(key.secret, market.id, { outcome: 'YES', amount: 50 });
    expect(ok.status).toBe(200);
    const [trade] = await tradesOf(owner.id);
    expect(trade!.apiKeyId).toBe(key.id);
    const order = await place(key.secret, market.id, { outcome: 'NO', amount: 20, limitPrice: 0.05 });
    expect(order.status).toBe(201);
    const [row] = await (await getDb()).select().from(predictionOrders).where(eq(predictionOrders.id, order.body.order.id));
    expect(row!.apiKeyId).toBe(key.id);
    // A trade by token records no key.
    await buy(await tokenFor(owner), market.id, { outcome: 'YES', amount: 5 });
    expect((await tradesOf(owner.id)).filter((t) => t.apiKeyId === null)).toHaveLength(1);
  });

  it('counts the day across trades and open orders, gives back what a failed call took, and previews without spending', async () => {
    const owner = await seedUser({ balance: '1000' });
    const market = await newMarket();
    const key = await keyFor(owner, { dailyLimit: 100 });
    expect((await buy(key.secret, market.id, { outcome: 'YES', amount: 60 })).status).toBe(200);
    expect((await place(key.secret, market.id, { outcome: 'NO', amount: 30, limitPrice: 0.05 })).status).toBe(201);
    const preview = await buy(key.secret, market.id, { outcome: 'YES', amount: 10, dryRun: true });
    expect(preview.status).toBe(200);
    const overPreview = await buy(key.secret, market.id, { outcome: 'YES', amount: 11, dryRun: true });
    expect(overPreview.body.error.code).toBe('KEY_LIMIT_EXCEEDED');
    const over = await buy(key.secret, market.id, { outcome: 'YES', amount: 11 });
    expect(over.status).toBe(403);
    expect(over.body.error.details).toMatchObject({ cap: 'dailyLimit', limit: '100', spent: '90', requested: '11' });
    expect(over.body.error.details.resetsAt).toMatch(/T00:00:00.000Z$/);
    // A call that fails after the caps (an unknown market) gives its room back.
    expect((await buy(key.secret, 'no-such-market', { outcome: 'YES', amount: 10 })).status).toBe(404);
    expect((await buy(key.secret, market.id, { outcome: 'YES', amount: 10 })).status).toBe(200);
    const [spend] = await (await getDb()).select().from(apiKeySpend).where(eq(apiKeySpend.keyId, key.id));
    expect(dec(spend!.amount).toFixed()).toBe('100');
  });

  it('two concurrent calls never both spend the last of the day', async () => {
    const owner = await seedUser({ balance: '1000' });
    const market = await newMarket();
    const key = await keyFor(owner, { dailyLimit: 100 });
    const results = await Promise.all(Array.from({ length: 5 }, () => buy(key.secret, market.id, { outcome: 'YES', amount: 30 })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 403).every((r) => r.body.error.code === 'KEY_LIMIT_EXCEEDED')).toBe(true);
    expect(await tradesOf(owner.id)).toHaveLength(3);
  });

  it('holds perps to the leverage cap and counts their margin', async () => {
    const owner = await seedUser({ balance: '1000' });
    const key = await keyFor(owner, { maxLeverage: 5, maxOrderAmount: 100 });
    const open = (body: Record<string, unknown>) => call(openRoute, '/api/markets/perps/open', { method: 'POST', token: key.secret, body });
    const tooMuch = await open({ ticker: 'HELX', side: 'long', size: 1000, leverage: 10 });
    expect(tooMuch.body.error).toMatchObject({ code: 'KEY_LIMIT_EXCEEDED', details: { cap: 'maxLeverage', limit: '5', requested: '10' } });
    const bigMargin = await open({ ticker: 'HELX', side: 'long', size: 1000, leverage: 5 });
    expect(bigMargin.body.error.details).toMatchObject({ cap: 'maxOrderAmount', requested: '200' });
    const ok = await open({ ticker: 'HELX', side: 'long', size: 500, leverage: 5 });
    expect(ok.status).toBe(200);
    const [pos] = await (await getDb()).select().from(perpPositions).where(eq(perpPositions.id, ok.body.position.id));
    expect(pos!.apiKeyId).toBe(key.id);
  });
});

describe('the heartbeat', () => {
  it('is the key\'s own call, and when it stops the key\'s open orders are cancelled and refunded', async () => {
    const owner = await seedUser({ balance: '1000' });
    const market = await newMarket();
    const key = await keyFor(owner);
    const beat = (token: string, timeoutSeconds = 5) =>
      call(heartbeatRoute, `/api/users/${owner.id}/api-keys/${key.id}/heartbeat`, { method: 'POST', token, params: { userId: owner.id, keyId: key.id }, body: { timeoutSeconds } });
    expect((await beat(await tokenFor(owner))).body.error.code).toBe('NOT_THIS_KEY');
    expect((await beat(key.secret, 4)).status).toBe(400);
    const t0 = new Date(Date.now() + 60_000);
    setFixedTime(t0);
    const armed = await beat(key.secret, 5);
    expect(armed.status).toBe(200);
    expect(armed.body).toMatchObject({ keyId: key.id, timeoutSeconds: 5, deadline: new Date(t0.getTime() + 5000).toISOString() });

    const byKey = await place(key.secret, market.id, { outcome: 'NO', amount: 40, limitPrice: 0.05 });
    const byToken = await place(await tokenFor(owner), market.id, { outcome: 'NO', amount: 40, limitPrice: 0.05 });
    expect(byKey.status).toBe(201);
    expect(byToken.status).toBe(201);
    const reserved = await balanceOf(owner.id);

    setFixedTime(new Date(t0.getTime() + 4000));
    expect(await sweepStoppedHeartbeats()).toEqual({ keys: 0, orders: 0 });
    setFixedTime(new Date(t0.getTime() + 6000));
    expect(await sweepStoppedHeartbeats()).toEqual({ keys: 1, orders: 1 });
    const status = async (id: string) => (await (await getDb()).select().from(predictionOrders).where(eq(predictionOrders.id, id)))[0]!.status;
    expect(await status(byKey.body.order.id)).toBe('cancelled');
    expect(await status(byToken.body.order.id)).toBe('open');
    expect((await balanceOf(owner.id)).minus(reserved).toFixed()).toBe('40');
    // Disarmed: a second sweep finds nothing; the list shows no heartbeat.
    expect(await sweepStoppedHeartbeats()).toEqual({ keys: 0, orders: 0 });
    const list = await call(listKeysRoute, `/api/users/${owner.id}/api-keys`, { token: await tokenFor(owner), params: { userId: owner.id } });
    expect(list.body.apiKeys[0].heartbeat).toBeNull();
  });
});

describe('the bot mark', () => {
  it('shows on the profile and the leaderboard once an account trades by key, and the board filters by it', async () => {
    const owner = await seedUser({ balance: '1000' });
    const human = await seedUser();
    const market = await newMarket();
    const profile = async (u: TUserRow) => (await call(profileRoute, `/api/users/${u.id}/profile`, { params: { userId: u.id } })).body.user;
    expect((await profile(owner)).isBot).toBe(false);
    const key = await keyFor(owner);
    // Reading by key is not trading by key.
    await call(meRoute, '/api/users/me', { token: key.secret });
    expect((await profile(owner)).isBot).toBe(false);
    expect((await buy(key.secret, market.id, { outcome: 'YES', amount: 5 })).status).toBe(200);
    expect((await profile(owner)).isBot).toBe(true);
    expect((await profile(human)).isBot).toBe(false);

    resetLeaderboardFreshness();
    const board = async (players: string) =>
      (await call(leaderboardRoute, '/api/leaderboard', { query: { players, pageSize: 100 } })).body as { players: string; leaderboard: { user: { id: string; isBot: boolean } }[]; pagination: { total: number } };
    const agents = await board('agents');
    expect(agents.players).toBe('agents');
    expect(agents.leaderboard.every((e) => e.user.isBot)).toBe(true);
    expect(agents.leaderboard.some((e) => e.user.id === owner.id)).toBe(true);
    const humans = await board('humans');
    expect(humans.leaderboard.some((e) => e.user.id === owner.id)).toBe(false);
    expect(humans.leaderboard.every((e) => !e.user.isBot)).toBe(true);
    const [row] = await (await getDb()).select().from(users).where(and(eq(users.id, owner.id)));
    expect(row!.botSince).not.toBeNull();
  });
});
