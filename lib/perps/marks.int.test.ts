/**
 * service/marks.ts: `setMarks` sets many marks in one statement, records a price point per ticker
 * only when asked (the admin's), and announces `perp_update` exactly once per ticker set (with
 * the index only when given); `recordPerpTickPoints` writes the tick's point per ticker.
 */
import { and, asc, count, eq, gt, inArray, max } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, withTransaction } from '@/db/client';
import { eventLog, organizations, perpMarkets, perpPricePoints } from '@/db/schema';
import { dec } from '@/lib/money/decimal';
import { seedWorld } from '@/lib/world/seed/world';
import { recordPerpTickPoints, setMarks } from './service/marks';

beforeAll(async () => {
  await seedWorld(await getDb());
});

/** The newest event id, to read what a call wrote after it. */
const lastEventId = async () => {
  const [r] = await (await getDb()).select({ id: max(eventLog.id) }).from(eventLog);
  return r?.id ?? 0;
};

const updatesAfter = async (id: number) =>
  (await (await getDb()).select().from(eventLog).where(and(gt(eventLog.id, id), eq(eventLog.type, 'perp_update'))).orderBy(asc(eventLog.id))).map((e) => ({
    channel: e.channel,
    data: e.data,
  }));

describe('setMarks', () => {
  it('sets each mark, announces perp_update once per ticker in order, and skips an unknown ticker', async () => {
    const db = await getDb();
    const at = new Date('2031-01-01T00:00:00.000Z');
    const before = await lastEventId();
    const [points] = await db.select({ n: count() }).from(perpPricePoints);
    const set = await withTransaction((tx) =>
      setMarks(
        tx,
        [
          { ticker: 'QBIT', markPrice: '91.2345', indexPrice: 90.5 },
          { ticker: 'NOPE', markPrice: '1' },
          { ticker: 'NEXA', markPrice: '150.1' },
        ],
        at,
      ),
    );
    expect(set).toEqual(['QBIT', 'NEXA']);
    const rows = await db.select().from(perpMarkets).where(inArray(perpMarkets.ticker, ['QBIT', 'NEXA'])).orderBy(perpMarkets.ticker);
    expect(rows.map((r) => [r.ticker, r.markPrice, r.updatedAt.toISOString()])).toEqual([
      ['NEXA', '150.100000000000000000', at.toISOString()],
      ['QBIT', '91.234500000000000000', at.toISOString()],
    ]);
    expect(await updatesAfter(before)).toEqual([
      { channel: 'markets', data: { ticker: 'QBIT', markPrice: 91.2345, indexPrice: 90.5, timestamp: at.toISOString() } },
      { channel: 'markets', data: { ticker: 'NEXA', markPrice: 150.1, timestamp: at.toISOString() } },
    ]);
    // No price point unless asked: the tick records its own after its price step.
    const [after] = await db.select({ n: count() }).from(perpPricePoints);
    expect(after!.n).toBe(points!.n);
    expect(await db.select().from(perpPricePoints).where(eq(perpPricePoints.createdAt, at))).toEqual([]);
  });

  it("records one point per ticker set with the asked source and the organization's price as index", async () => {
    const db = await getDb();
    const at = new Date('2031-01-02T00:00:00.000Z');
    const before = await lastEventId();
    const set = await withTransaction((tx) => setMarks(tx, [{ ticker: 'HELX', markPrice: '55.5' }], at, { pricePoint: 'admin' }));
    expect(set).toEqual(['HELX']);
    const [org] = await db.select().from(organizations).where(eq(organizations.ticker, 'HELX'));
    const pts = await db.select().from(perpPricePoints).where(eq(perpPricePoints.createdAt, at));
    expect(pts.map((p) => [p.ticker, p.markPrice, dec(p.indexPrice).toFixed(), p.source])).toEqual([['HELX', '55.500000000000000000', dec(org!.currentPrice).toFixed(), 'admin']]);
    expect((await updatesAfter(before)).length).toBe(1);
  });

  it('refuses a ticker given twice, and writes nothing for none', async () => {
    const db = await getDb();
    const before = await lastEventId();
    await expect(
      withTransaction((tx) => setMarks(tx, [{ ticker: 'NEXA', markPrice: '1' }, { ticker: 'NEXA', markPrice: '2' }], new Date())),
    ).rejects.toThrow(/twice/);
    expect(await withTransaction((tx) => setMarks(tx, [], new Date()))).toEqual([]);
    expect(await lastEventId()).toBe(before);
    const [nexa] = await db.select().from(perpMarkets).where(eq(perpMarkets.ticker, 'NEXA'));
    expect(nexa!.markPrice).toBe('150.100000000000000000');
  });
});

describe('recordPerpTickPoints', () => {
  it("writes one 'tick' point per ticker at its mark and its organization's price", async () => {
    const db = await getDb();
    const at = new Date('2031-01-03T00:00:00.000Z');
    const tickers = await db.select().from(perpMarkets).innerJoin(organizations, eq(organizations.ticker, perpMarkets.ticker)).orderBy(perpMarkets.ticker);
    expect(await recordPerpTickPoints(db, at)).toBe(tickers.length);
    const pts = await db.select().from(perpPricePoints).where(eq(perpPricePoints.createdAt, at)).orderBy(perpPricePoints.ticker);
    expect(pts.map((p) => [p.ticker, p.markPrice, dec(p.indexPrice).toFixed(), p.source])).toEqual(
      tickers.map((t) => [t.perp_markets.ticker, t.perp_markets.markPrice, dec(t.organizations.currentPrice).toFixed(), 'tick']),
    );
  });
});
