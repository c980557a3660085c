/**
 * The YES price in SQL (sql.ts) against the pure prices of cpmm.ts and dto.ts `marketPrices`, on
 * a real database. PostgreSQL divides with the scale it picks (at least 16 significant digits,
 * rounded half away from zero at the last); decimal.js keeps 40 significant digits. So each
 * fragment must equal the pure value rounded, half up, at the scale PostgreSQL answered with,
 * digit for digit, and the stored forms (trunc to 18 places, float8) follow from that value.
 */
import fc from 'fast-check';
import Decimal from 'decimal.js';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, rowsOf } from '@/db/client';
import { marketPricePoints, markets } from '@/db/schema';
import { D, dec, type TDecimal } from '@/lib/money/decimal';
import { priceOf, prices, toPool, type TOutcome } from './cpmm';
import { marketPrices } from './dto';
import { recordMarketTickPoints } from './service/price-points';
import { marketYesPriceSql, noPriceSql, positionValueSql, storedYesPriceSql, yesPriceSql } from './sql';

/** A stored weight or share count: numeric(38, 18), from 10⁻⁶ to 10⁹. */
const arbQuantity = fc.bigInt({ min: 10n ** 12n, max: 10n ** 27n }).map((c) => dec(c.toString()).div('1e18').toFixed());
const arbSide = fc.constantFrom<TOutcome>('YES', 'NO');

const scaleOf = (shown: string) => (shown.includes('.') ? shown.split('.')[1]!.length : 0);
/** The pure value as PostgreSQL shows a division: rounded half up at the scale it answered with. */
const asShown = (pure: TDecimal, shown: string) => pure.toDecimalPlaces(scaleOf(shown), D.ROUND_HALF_UP);
/** Exact enough for a product of two numeric(38, 18) over their sum (PostgreSQL keeps more digits than decimal.js's 40 there). */
const Wide = Decimal.clone({ precision: 200 });

let marketId: string;

beforeAll(async () => {
  const db = await getDb();
  const [m] = await db
    .insert(markets)
    .values({ text: 'Price SQL market', yesShares: '1000', noShares: '1000', liquidity: '1000', resolutionDate: new Date(Date.now() + 86_400_000), createdAt: new Date() })
    .returning({ id: markets.id });
  marketId = m!.id;
});

type TRow = { yes: string; no: string; stored: string; yes_f: number | string; no_f: number | string; now_p: string; value: string };

const read = async (shares: string, side: TOutcome) => {
  const db = await getDb();
  const [row] = rowsOf<TRow>(
    await db.execute(sql`
      select ${yesPriceSql('m')}::text as yes, ${noPriceSql('m')}::text as no, ${storedYesPriceSql('m')}::text as stored,
        ${yesPriceSql('m')}::float8 as yes_f, ${noPriceSql('m')}::float8 as no_f, ${marketYesPriceSql('m')}::text as now_p,
        ${positionValueSql('m', sql`${shares}::numeric(38, 18)`, sql`${side}::text`)}::text as value
      from ${markets} m where m.id = ${marketId}`),
  );
  return row!;
};

describe('SQL prices agree with cpmm.ts and marketPrices', () => {
  it("example: the README's worked example (a YES buy of 100 on 1000/1000) reads 0.5475 YES in SQL", async () => {
    const db = await getDb();
    // After the buy the public weights are yes_shares 1099.9 (the NO reserve), no_shares 909.17… (the YES reserve).
    await db.update(markets).set({ yesShares: '1099.9', noShares: '909.173560323665787798', status: 'active', resolvedOutcome: null }).where(eq(markets.id, marketId));
    const row = await read('100', 'YES');
    expect(row.yes).toBe('0.54746626590556689211');
    expect(row.stored).toBe('0.547466265905566892');
    expect(Number(row.yes_f)).toBeCloseTo(0.5475, 4);
    expect(Number(row.no_f)).toBeCloseTo(0.4525, 4);
    expect(row.now_p).toBe(row.yes);
    // 100 YES shares are worth 100 × the YES price: the YES side is priced by yes_shares.
    expect(dec(row.value).toDecimalPlaces(12).toFixed()).toBe('54.746626590557');
  });

  it('property: YES, NO, stored, float8, marketPrices and position values equal the pure functions at PostgreSQL scale', async () => {
    const db = await getDb();
    await fc.assert(
      fc.asyncProperty(
        arbQuantity,
        arbQuantity,
        arbQuantity,
        arbSide,
        fc.constantFrom<{ status: 'active' | 'resolved'; resolvedOutcome: TOutcome | null }>(
          { status: 'active', resolvedOutcome: null },
          { status: 'resolved', resolvedOutcome: 'YES' },
          { status: 'resolved', resolvedOutcome: 'NO' },
        ),
        async (yesShares, noShares, shares, side, state) => {
          await db.update(markets).set({ yesShares, noShares, ...state }).where(eq(markets.id, marketId));
          const row = await read(shares, side);
          const pool = toPool({ yesShares, noShares });
          const pure = prices(pool);

          // The pool's prices, whatever the status (the pool still has them).
          expect(dec(row.yes).eq(asShown(pure.yes, row.yes)), `yes ${row.yes} vs ${pure.yes.toFixed()}`).toBe(true);
          const yesShown = asShown(pure.yes, row.yes);
          expect(dec(row.no).eq(dec(1).minus(yesShown))).toBe(true);
          expect(dec(row.no).minus(pure.no).abs().lte(dec(10).pow(-scaleOf(row.yes)))).toBe(true);
          // What trades and price points store, and what market_update says.
          expect(row.stored).toBe(yesShown.toDecimalPlaces(18, D.ROUND_DOWN).toFixed(18));
          expect(Number(row.yes_f)).toBe(Number(yesShown.toFixed()));
          expect(Number(row.no_f)).toBe(Number(dec(1).minus(yesShown).toFixed()));

          // marketPrices: the outcome once resolved, else the pool's price.
          const m = marketPrices({ yesShares, noShares, ...state });
          if (state.status === 'resolved') expect(dec(row.now_p).eq(m.yes)).toBe(true);
          else expect(dec(row.now_p).eq(asShown(m.yes, row.now_p))).toBe(true);

          // A position's value: shares × the side's price, the side's weight taken from the right column.
          const weight = side === 'YES' ? yesShares : noShares;
          const exact = new Wide(shares).times(weight).div(new Wide(yesShares).plus(noShares));
          expect(row.value).toBe(exact.toDecimalPlaces(scaleOf(row.value), Decimal.ROUND_HALF_UP).toFixed(scaleOf(row.value)));
          // …which is shares × cpmm priceOf, to the last place PostgreSQL keeps and the 40 digits of
          // decimal.js (the price's last digit times the shares, the product's last digit).
          const pureValue = dec(shares).times(priceOf(pool, side));
          const tolerance = dec(10).pow(-scaleOf(row.value)).plus(dec(shares).times('1e-40')).plus(pureValue.times('1e-39'));
          expect(dec(row.value).minus(pureValue).abs().lte(tolerance), `value ${row.value} vs ${pureValue.toFixed()}`).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("property: the tick's price point stores the pool's YES price truncated to 18 places", async () => {
    const db = await getDb();
    let at = Date.UTC(2030, 0, 1);
    await fc.assert(
      fc.asyncProperty(arbQuantity, arbQuantity, async (yesShares, noShares) => {
        await db.update(markets).set({ yesShares, noShares, status: 'active', resolvedOutcome: null }).where(eq(markets.id, marketId));
        const when = new Date((at += 60_000));
        expect(await recordMarketTickPoints(db, when)).toBeGreaterThanOrEqual(1);
        const [point] = await db.select().from(marketPricePoints).where(eq(marketPricePoints.createdAt, when));
        const { yes } = await read('1', 'YES');
        expect(point!.marketId).toBe(marketId);
        expect(point!.source).toBe('tick');
        expect(point!.yesShares).toBe(dec(yesShares).toFixed(18));
        expect(point!.yesPrice).toBe(asShown(prices(toPool({ yesShares, noShares })).yes, yes).toDecimalPlaces(18, D.ROUND_DOWN).toFixed(18));
        // Within one unit of the 18th place of the pure price (truncation, and the division's rounding far below it).
        expect(dec(point!.yesPrice).minus(prices(toPool({ yesShares, noShares })).yes).abs().lte('1e-18')).toBe(true);
      }),
      { numRuns: 25 },
    );
  });
});
