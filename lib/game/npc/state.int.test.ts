/**
 * The NPCs' valued snapshot on a real database: a ticker's realized volatility in SQL (log moves
 * of its index, Σ r² over the days they span) equals the same figure computed here, and each open
 * question comes with the value value.ts gives its rule and evidence.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { markets, organizations, perpMarkets, perpPricePoints, questionRules, worldEvents } from '@/db/schema';
import { loadTickerVolatilities, loadValuedMarkets } from './state';
import { eventProbability, eventWindow } from '../outcomes';
import { dailyVolatility, eventQuestionValue, priceQuestionValue, volatilityPerDay } from './value';

const AT = new Date('2031-05-01T12:00:00.000Z');
const MIN = 60_000;
const DAY = 86_400_000;

/** 120 minute-apart index prices: a seeded zig-zag walk (deterministic, not flat). */
const path = Array.from({ length: 120 }, (_, i) => 100 * Math.exp(0.01 * Math.sin(i * 1.7) + 0.002 * i));

beforeAll(async () => {
  const db = await getDb();
  const t0 = new Date(AT.getTime() - 3 * DAY);
  await db.insert(organizations).values([
    { id: 'org-vol', name: 'Volatile Corp', ticker: 'VOLA', initialPrice: '100', currentPrice: '110', volatility: '0.005', createdAt: t0 },
    { id: 'org-calm', name: 'Calm Corp', ticker: 'CALM', initialPrice: '50', currentPrice: '50', volatility: '0.004', createdAt: t0 },
  ]);
  await db.insert(perpMarkets).values(
    ['VOLA', 'CALM'].map((ticker) => ({
      ticker,
      organizationId: ticker === 'VOLA' ? 'org-vol' : 'org-calm',
      markPrice: ticker === 'VOLA' ? '110' : '50',
      depth: '5000000',
      lastFundingAt: t0,
      createdAt: t0,
      updatedAt: t0,
    })),
  );
  // VOLA: a tick point a minute over the last two hours, and trade points between them (left out);
  // one point older than the window (left out). CALM: three points only (the model's figure).
  await db.insert(perpPricePoints).values([
    ...path.map((p, i) => ({ ticker: 'VOLA', markPrice: p.toFixed(4), indexPrice: p.toFixed(4), source: 'tick' as const, createdAt: new Date(AT.getTime() - (119 - i) * MIN) })),
    ...path.slice(0, 50).map((p, i) => ({ ticker: 'VOLA', markPrice: p.toFixed(4), indexPrice: (p * 1.5).toFixed(4), source: 'trade' as const, createdAt: new Date(AT.getTime() - (119 - i) * MIN + 1000) })),
    { ticker: 'VOLA', markPrice: '10', indexPrice: '10', source: 'tick' as const, createdAt: new Date(AT.getTime() - DAY) },
    ...[50, 51, 50].map((p, i) => ({ ticker: 'CALM', markPrice: String(p), indexPrice: String(p), source: 'tick' as const, createdAt: new Date(AT.getTime() - (3 - i) * MIN) })),
  ]);
});

describe('the valued snapshot', () => {
  it('measures realized volatility in SQL as value.ts does by hand; too short a history gives the model’s', async () => {
    const vols = await loadTickerVolatilities(await getDb(), AT);
    const stored = path.map((p) => Number(p.toFixed(4)));
    let ss = 0;
    for (let i = 1; i < stored.length; i++) ss += Math.log(stored[i]! / stored[i - 1]!) ** 2;
    const expected = volatilityPerDay({ perTick: 0.005, realized: { sumSquares: ss, days: (119 * MIN) / DAY, moves: 119 }, minMoves: 60 });
    expect(expected).not.toBeCloseTo(dailyVolatility(0.005), 3);
    expect(vols.get('VOLA')).toBeCloseTo(expected, 9);
    expect(vols.get('CALM')).toBeCloseTo(dailyVolatility(0.004), 12);
  });

  it('values a price question from its ticker and an event question from its base rate and evidence; a question without a rule has none', async () => {
    const db = await getDb();
    const created = new Date(AT.getTime() - DAY);
    const end = new Date(AT.getTime() + 2 * DAY);
    const rows = await db
      .insert(markets)
      .values(['price', 'event-quiet', 'event-done', 'plain'].map((text) => ({ text, yesShares: '5000', noShares: '5000', liquidity: '5000', resolutionDate: end, createdAt: created })))
      .returning({ id: markets.id, text: markets.text });
    const id = (t: string) => rows.find((r) => r.text === t)!.id;
    await db.insert(questionRules).values([
      { marketId: id('price'), kind: 'price', organizationId: 'org-vol', ticker: 'VOLA', comparison: 'above', threshold: '100', createdAt: created },
      { marketId: id('event-quiet'), kind: 'event', organizationId: 'org-calm', eventKind: 'scandal', createdAt: created },
      { marketId: id('event-done'), kind: 'event', organizationId: 'org-vol', eventKind: 'product_launch', createdAt: created },
    ]);
    await db.insert(worldEvents).values({ id: 'ev-launch', kind: 'product_launch', title: 'Launch', content: '', organizationId: 'org-vol', impact: '0.02', createdAt: new Date(AT.getTime() - 60 * MIN) });
    const vols = await loadTickerVolatilities(db, AT);
    const valued = new Map((await loadValuedMarkets(db, AT)).map((m) => [m.text, m]));
    expect(valued.get('price')!.fair).toBeCloseTo(priceQuestionValue({ spot: 110, strike: 100, comparison: 'above', volatility: vols.get('VOLA')!, days: 2 }), 12);
    const w = eventWindow(created, end);
    const p = eventProbability({ eventKind: 'scandal', volatility: 0.004, createdAt: created, resolutionDate: end });
    const quiet = (AT.getTime() - created.getTime()) / (w.end.getTime() - w.start.getTime());
    expect(valued.get('event-quiet')!.fair).toBeCloseTo(eventQuestionValue({ baseRate: p, fulfilled: false, elapsed: quiet }), 12);
    expect(valued.get('event-quiet')!.fair).toBeLessThan(p);
    expect(valued.get('event-done')!.fair).toBe(0.99);
    expect(valued.get('plain')!.fair).toBeNull();
    expect(valued.get('plain')!.yesPrice).toBe(0.5);
  });
});
