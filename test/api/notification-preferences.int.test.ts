/**
 * Per-kind notification preferences (issue 35): the caller reads and sets a channel per kind
 * (in_app, digest, off); a kind set to off is never written, a digest one is hidden from the list
 * and the unread count and listed with ?delivery=digest and on the grouped digest; the daily
 * digest notification is written once per player and day; price moves are framed by the side held.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as createMarketRoute } from '@/app/api/admin/markets/route';
import { POST as resolveRoute } from '@/app/api/admin/markets/[id]/resolve/route';
import { POST as adminPriceRoute } from '@/app/api/admin/perps/[ticker]/price/route';
import { POST as openRoute } from '@/app/api/markets/perps/open/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { GET as digestRoute } from '@/app/api/notifications/digest/route';
import { GET as preferencesGet, PUT as preferencesPut } from '@/app/api/notifications/preferences/route';
import { GET as notificationsRoute } from '@/app/api/notifications/route';
import { POST as followRoute } from '@/app/api/users/[userId]/follow/route';
import { getDb, rowsOf } from '@/db/client';
import { notifications, type TUserRow } from '@/db/schema';
import { now, resetClock } from '@/lib/clock/clock';
import { insertSystemNotices } from '@/lib/notifications/delivery';
import { writeDailyDigests } from '@/lib/notifications/digest';
import { notifyPriceMoves } from '@/lib/notifications/trading';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';

beforeAll(async () => {
  await seedWorld(await getDb());
});
beforeEach(() => setLimiter(createMemoryLimiter()));
afterEach(() => resetClock());

type TListed = { id: string; type: string; kind: string | null; link: string | null; title: string; message: string; read: boolean };

let admin: TUserRow;
const adminToken = async () => tokenFor((admin ??= await seedUser({ isAdmin: true, balance: '0' })));

const setPrefs = async (user: TUserRow, preferences: { kind: string; channel: string }[]) =>
  call(preferencesPut, '/api/notifications/preferences', { method: 'PUT', token: await tokenFor(user), body: { preferences } });
const listOf = async (user: TUserRow, query: Record<string, string> = {}) => {
  const res = await call(notificationsRoute, '/api/notifications', { token: await tokenFor(user), query });
  expect(res.status).toBe(200);
  return res.body as { notifications: TListed[]; unreadCount: number };
};
const newMarket = async (text: string) => {
  const res = await call(createMarketRoute, '/api/admin/markets', {
    method: 'POST',
    token: await adminToken(),
    body: { text, resolutionDate: new Date(Date.now() + 7 * 86_400_000).toISOString(), liquidity: 1000 },
  });
  expect(res.status).toBe(200);
  return res.body.market as { id: string };
};
const buy = async (user: TUserRow, marketId: string, outcome: 'YES' | 'NO', amount: number) => {
  const res = await call(buyRoute, `/api/markets/predictions/${marketId}/buy`, { method: 'POST', token: await tokenFor(user), params: { id: marketId }, body: { outcome, amount } });
  expect(res.status).toBe(200);
};
const follow = async (who: TUserRow, target: TUserRow) => {
  const res = await call(followRoute, `/api/users/${target.id}/follow`, { method: 'POST', token: await tokenFor(who), params: { userId: target.id } });
  expect(res.status).toBeLessThan(300);
};
const stored = async (userId: string) => (await getDb()).select().from(notifications).where(eq(notifications.userId, userId));

describe('GET and PUT /api/notifications/preferences', () => {
  it('answers every kind in_app by default, saves the given ones and keeps the others', async () => {
    const user = await seedUser();
    const first = await call(preferencesGet, '/api/notifications/preferences', { token: await tokenFor(user) });
    expect(first.status).toBe(200);
    const kinds = (first.body.preferences as { kind: string; channel: string }[]).map((p) => p.kind);
    expect(kinds).toEqual(expect.arrayContaining(['order_filled', 'payout', 'price_move', 'report_outcome', 'moderation', 'digest', 'comment', 'follow', 'mention']));
    expect(new Set((first.body.preferences as { channel: string }[]).map((p) => p.channel))).toEqual(new Set(['in_app']));

    const put = await setPrefs(user, [
      { kind: 'order_filled', channel: 'off' },
      { kind: 'price_move', channel: 'digest' },
    ]);
    expect(put.status).toBe(200);
    const again = await call(preferencesGet, '/api/notifications/preferences', { token: await tokenFor(user) });
    const byKind = Object.fromEntries((again.body.preferences as { kind: string; channel: string }[]).map((p) => [p.kind, p.channel]));
    expect(byKind).toMatchObject({ order_filled: 'off', price_move: 'digest', payout: 'in_app', follow: 'in_app' });
    // Changing one back keeps the other.
    await setPrefs(user, [{ kind: 'price_move', channel: 'in_app' }]);
    const third = await call(preferencesGet, '/api/notifications/preferences', { token: await tokenFor(user) });
    const third_ = Object.fromEntries((third.body.preferences as { kind: string; channel: string }[]).map((p) => [p.kind, p.channel]));
    expect(third_).toMatchObject({ order_filled: 'off', price_move: 'in_app' });
  });

  it('refuses unknown kinds and channels, the digest of the digest, and anonymous callers', async () => {
    const user = await seedUser();
    expect((await setPrefs(user, [{ kind: 'nonsense', channel: 'off' }])).status).toBe(400);
    expect((await setPrefs(user, [{ kind: 'payout', channel: 'email' }])).status).toBe(400);
    expect((await setPrefs(user, [{ kind: 'digest', channel: 'digest' }])).status).toBe(400);
    expect((await setPrefs(user, [])).status).toBe(400);
    expect((await call(preferencesGet, '/api/notifications/preferences')).status).toBe(401);
  });
});

describe('delivery by preference', () => {
  it('off writes nothing (social through notify, system through the shared writer)', async () => {
    const target = await seedUser();
    const fan = await seedUser();
    await setPrefs(target, [
      { kind: 'follow', channel: 'off' },
      { kind: 'order_expired', channel: 'off' },
    ]);
    await follow(fan, target);
    await insertSystemNotices(await getDb(), [
      { userId: target.id, kind: 'order_expired', link: '/markets/x', title: 'Limit order expired', message: 'gone', createdAt: now() },
      { userId: target.id, kind: 'order_filled', link: '/markets/x', title: 'Limit order filled', message: 'kept', createdAt: now() },
    ]);
    const rows = await stored(target.id);
    expect(rows.map((r) => r.kind ?? r.type).sort()).toEqual(['order_filled']);
    // A player without preferences gets the follow, in-app.
    const other = await seedUser();
    await follow(fan, other);
    expect((await stored(other.id)).map((r) => [r.type, r.delivery])).toEqual([['follow', 'in_app']]);
  });

  it('digest is hidden from the list and the unread count, listed with ?delivery=digest and grouped on the digest', async () => {
    const target = await seedUser();
    const fans = [await seedUser(), await seedUser(), await seedUser()];
    await setPrefs(target, [{ kind: 'follow', channel: 'digest' }]);
    for (const f of fans) await follow(f, target);
    await insertSystemNotices(await getDb(), [{ userId: target.id, kind: 'payout', link: null, title: 'Payout: 5.00', message: 'paid', createdAt: now() }]);

    const inApp = await listOf(target);
    expect(inApp.notifications.map((n) => n.kind ?? n.type)).toEqual(['payout']);
    expect(inApp.unreadCount).toBe(1);
    const unreadOnly = await listOf(target, { unread: 'true' });
    expect(unreadOnly.unreadCount).toBe(1);

    const digest = await listOf(target, { delivery: 'digest' });
    expect(digest.notifications).toHaveLength(3);
    expect(new Set(digest.notifications.map((n) => n.type))).toEqual(new Set(['follow']));
    expect(digest.unreadCount).toBe(1);

    const grouped = await call(digestRoute, '/api/notifications/digest', { token: await tokenFor(target) });
    expect(grouped.status).toBe(200);
    expect(grouped.body.groups).toHaveLength(1);
    expect(grouped.body.groups[0]).toMatchObject({ kind: 'follow', count: 3, unread: 3, summary: '3 new followers' });
  });
});

describe('writeDailyDigests', () => {
  it('writes one digest notification per player for the day just ended, never twice', async () => {
    const a = await seedUser();
    const b = await seedUser();
    const none = await seedUser();
    const off = await seedUser();
    const db = await getDb();
    await setPrefs(off, [{ kind: 'digest', channel: 'off' }]);
    // Yesterday's digest rows (a: two kinds, b: one; `off` turned the digest notification off).
    const day = new Date(Date.UTC(2031, 4, 10, 12));
    const rows = [a, a, a, b, off].map((u, i) => ({ userId: u.id, kind: i === 1 ? 'payout' : 'order_filled', link: '/markets/m1', title: 't', message: 'm', createdAt: day }));
    await insertSystemNotices(db, rows);
    await db.update(notifications).set({ delivery: 'digest' }).where(and(eq(notifications.title, 't'), eq(notifications.createdAt, day)));
    const next = new Date(Date.UTC(2031, 4, 11, 0, 5));
    const first = await writeDailyDigests(db, next);
    expect(first).toBe(2);
    expect(await writeDailyDigests(db, new Date(next.getTime() + 3_600_000))).toBe(0);
    const digests = rowsOf<{ user_id: string; title: string; message: string; link: string; delivery: string }>(
      await db.execute(sql`select user_id, title, message, link, delivery from notifications where kind = 'digest' and link = '/notifications/digest?day=2031-05-10'`),
    );
    expect(digests.map((d) => d.user_id).sort()).toEqual([a.id, b.id].sort());
    const ofA = digests.find((d) => d.user_id === a.id)!;
    expect(ofA).toMatchObject({ title: 'Your daily digest: 3 notifications', delivery: 'in_app' });
    expect(ofA.message).toBe('On 2031-05-10: 2 orders filled, 1 payout.');
    expect(digests.find((d) => d.user_id === b.id)!.message).toBe('On 2031-05-10: 1 order filled.');
    expect(await stored(none.id)).toHaveLength(0);
    expect((await stored(off.id)).filter((r) => r.kind === 'digest')).toHaveLength(0);
  });
});

describe('price moves framed by the side held', () => {
  it('a NO holder of a market that fell is told it is up for them, a YES holder that it is down', async () => {
    const noHolder = await seedUser({ balance: '5000' });
    const yesHolder = await seedUser({ balance: '5000' });
    const seller = await seedUser({ balance: '20000' });
    const digestHolder = await seedUser({ balance: '5000' });
    const offHolder = await seedUser({ balance: '5000' });
    const m = await newMarket('Will the framing of a price move follow the side one holds?');
    await buy(noHolder, m.id, 'NO', 10);
    await buy(yesHolder, m.id, 'YES', 10);
    await buy(digestHolder, m.id, 'NO', 10);
    await buy(offHolder, m.id, 'NO', 10);
    await setPrefs(digestHolder, [{ kind: 'price_move', channel: 'digest' }]);
    await setPrefs(offHolder, [{ kind: 'price_move', channel: 'off' }]);
    await buy(seller, m.id, 'NO', 800);
    await notifyPriceMoves(await getDb(), now());

    const moveOf = async (u: TUserRow, q: Record<string, string> = {}) => (await listOf(u, q)).notifications.filter((n) => n.kind === 'price_move' && n.link === `/markets/${m.id}`);
    const [no] = await moveOf(noHolder);
    expect(no!.title).toMatch(/^Up \d+ points for your NO shares$/);
    expect(no!.message).toMatch(/moved from 50% to \d+% YES in 24 h: up for you, as you hold NO\.$/);
    const [yes] = await moveOf(yesHolder);
    expect(yes!.title).toMatch(/^Down \d+ points for your YES shares$/);
    expect(yes!.message).toMatch(/down for you, as you hold YES\.$/);
    expect(await moveOf(digestHolder)).toHaveLength(0);
    expect(await moveOf(digestHolder, { delivery: 'digest' })).toHaveLength(1);
    expect((await stored(offHolder.id)).filter((r) => r.kind === 'price_move')).toHaveLength(0);
  });
});

describe("the set-based writers of lib/markets and lib/perps honour the preferences", () => {
  it('a resolution skips a payout turned off and keeps a resolution for the digest; a liquidation goes to the digest', async () => {
    const yes = await seedUser({ balance: '1000' });
    const no = await seedUser({ balance: '1000' });
    const m = await newMarket('Will the resolution notices follow the preferences of each holder?');
    await buy(yes, m.id, 'YES', 50);
    await buy(no, m.id, 'NO', 30);
    await setPrefs(yes, [{ kind: 'payout', channel: 'off' }]);
    await setPrefs(no, [{ kind: 'resolution', channel: 'digest' }]);
    const res = await call(resolveRoute, `/api/admin/markets/${m.id}/resolve`, { method: 'POST', token: await adminToken(), params: { id: m.id }, body: { outcome: 'YES' } });
    expect(res.status).toBe(200);
    expect((await stored(yes.id)).filter((r) => r.kind === 'payout' || r.kind === 'resolution')).toHaveLength(0);
    const noRows = (await stored(no.id)).filter((r) => r.kind === 'resolution');
    expect(noRows.map((r) => r.delivery)).toEqual(['digest']);

    const trader = await seedUser({ balance: '10000' });
    await setPrefs(trader, [{ kind: 'liquidation', channel: 'digest' }]);
    const setPrice = async (price: number) =>
      expect((await call(adminPriceRoute, '/api/admin/perps/HELX/price', { method: 'POST', token: await adminToken(), params: { ticker: 'HELX' }, body: { price } })).status).toBe(200);
    await setPrice(100);
    const opened = await call(openRoute, '/api/markets/perps/open', { method: 'POST', token: await tokenFor(trader), body: { ticker: 'HELX', side: 'long', size: 1000, leverage: 50 } });
    expect(opened.status).toBe(200);
    await setPrice(90);
    const liq = (await stored(trader.id)).filter((r) => r.kind === 'liquidation');
    expect(liq.map((r) => r.delivery)).toEqual(['digest']);
    expect((await listOf(trader)).notifications.filter((n) => n.kind === 'liquidation')).toHaveLength(0);
    await setPrice(100);
  });
});
