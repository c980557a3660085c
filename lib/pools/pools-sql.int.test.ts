/**
 * The one-statement deposit (service/deposit.ts) values the pool and prices the shares in SQL
 * (service/shared.ts poolNavSql, depositSharesSql, sharePriceSql, storedSharePriceSql). These tests
 * hold the SQL twins to lib/pools/math.ts and holdings.ts digit for digit: the share count and
 * share prices on random pools and amounts, and the NAV of a pool holding perps (funding accrued,
 * in profit and in loss) and predictions of both sides; and a deposit through the service stores
 * what quoteDeposit computes from the holdings read just before.
 */
import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, rowsOf } from '@/db/client';
import { perpMarkets, poolDeposits, poolNavPoints, pools, users } from '@/db/schema';
import { callerOfUser } from '@/lib/auth/caller';
import { D, dec } from '@/lib/money/decimal';
import { seedWorld } from '@/lib/world/seed/world';
import { seedPool, seedUser } from '@/test/factories';
import { loadHoldingsOf } from './holdings';
import { quoteDeposit, sharePriceOf, SHARE_SCALE } from './math';
import { depositToPool } from './service/deposit';
import { depositSharesSql, poolNavSql, sharePriceSql, storedSharePriceSql } from './service/shared';
import { buyPoolPrediction, openPoolPerp } from './service/trade';

/**
 * A money amount (8 places) from 1 to 10^10, and a pool's share count (18 places): 0 (empty, before
 * its seed) or from 1 to 10^8 (a seed lot is never withdrawn). Within these a share price keeps to
 * 29 digits and decimal.js's 40 significant digits are exact before the truncation to 18 places;
 * past them (a share worth 10^20) the pure functions round where PostgreSQL does not.
 */
const arbMoney = fc.bigInt({ min: 10n ** 8n, max: 10n ** 18n }).map((c) => dec(c.toString()).div(1e8));
const arbShares = fc.oneof(fc.constant(dec(0)), fc.bigInt({ min: 10n ** 18n, max: 10n ** 26n }).map((c) => dec(c.toString()).div('1e18')));

beforeAll(async () => {
  await seedWorld(await getDb());
});

describe('SQL pools agree with lib/pools/math', () => {
  it('property: the shares a deposit buys, its share price and the price after it', async () => {
    const db = await getDb();
    await fc.assert(
      fc.asyncProperty(arbMoney, arbShares, arbMoney, async (nav, totalShares, amount) => {
        const q = quoteDeposit({ nav, totalShares }, amount);
        const n = sql`${nav.toFixed()}::numeric`;
        const t = sql`${totalShares.toFixed()}::numeric`;
        const [row] = rowsOf<{ shares: string; price: string; after: string }>(
          await db.execute(sql`select ${depositSharesSql(n, t, sql`${amount.toFixed()}::numeric`)}::text as shares,
            ${storedSharePriceSql(n, t)}::text as price,
            trunc(${sharePriceSql(sql`${q.navAfter.toFixed()}::numeric`, sql`${q.totalSharesAfter.toFixed()}::numeric`)}, 18)::text as after`),
        );
        expect(dec(row!.shares).toFixed()).toBe(q.shares.toFixed());
        expect(dec(row!.price).toFixed()).toBe(q.sharePrice.toDecimalPlaces(SHARE_SCALE, D.ROUND_DOWN).toFixed());
        const after = sharePriceOf({ nav: q.navAfter, totalShares: q.totalSharesAfter }).toDecimalPlaces(SHARE_SCALE, D.ROUND_DOWN);
        expect(dec(row!.after).toFixed()).toBe(after.toFixed());
      }),
      { numRuns: 200 },
    );
  });

  it('the NAV of a pool with perps (funding accrued, marks moved) and predictions of both sides is navOf over its holdings', async () => {
    const db = await getDb();
    const { pool } = await seedPool({ seed: '50000' });
    await openPoolPerp({ poolId: pool.id, ticker: 'ORBT', side: 'long', size: '4000', leverage: '4' });
    await openPoolPerp({ poolId: pool.id, ticker: 'VRSE', side: 'short', size: '2500', leverage: '3' });
    await buyPoolPrediction({ poolId: pool.id, marketId: 'seed-q-5', outcome: 'NO', amount: '150.12345678' });
    await buyPoolPrediction({ poolId: pool.id, marketId: 'seed-q-6', outcome: 'YES', amount: '77.7' });
    const navSql = async () =>
      rowsOf<{ nav: string }>(
        await db.execute(
          sql`select ${poolNavSql(sql`${pool.accountUserId}::text`, sql`u.virtual_balance`)}::text as nav from ${users} u where u.id = ${pool.accountUserId}`,
        ),
      )[0]!.nav;
    expect(dec(await navSql()).toFixed()).toBe((await loadHoldingsOf(db, pool.accountUserId)).nav.toFixed());
    // Marks move (one long in profit, the short in loss) and the funding index moves (both accrue).
    await db.update(perpMarkets).set({ markPrice: sql`mark_price * 1.0371`, fundingIndex: sql`funding_index + 0.123456789012345678` }).where(eq(perpMarkets.ticker, 'ORBT'));
    await db.update(perpMarkets).set({ markPrice: sql`mark_price * 1.0213`, fundingIndex: sql`funding_index - 0.0314159265358979` }).where(eq(perpMarkets.ticker, 'VRSE'));
    const holdings = await loadHoldingsOf(db, pool.accountUserId);
    expect(holdings.perps.length).toBe(2);
    expect(holdings.predictions.length).toBe(2);
    expect(dec(await navSql()).toFixed()).toBe(holdings.nav.toFixed());
    // A position worth less than nothing counts as zero in both.
    await db.update(perpMarkets).set({ markPrice: sql`mark_price * 3` }).where(eq(perpMarkets.ticker, 'VRSE'));
    const crushed = await loadHoldingsOf(db, pool.accountUserId);
    expect(crushed.perps.some((p) => p.value.isZero())).toBe(true);
    expect(dec(await navSql()).toFixed()).toBe(crushed.nav.toFixed());
  });

  it('a deposit through the service stores what quoteDeposit computes from the holdings just before', async () => {
    const db = await getDb();
    const { pool } = await seedPool({ seed: '12345.6789' });
    await openPoolPerp({ poolId: pool.id, ticker: 'ORBT', side: 'short', size: '1000', leverage: '2' });
    await buyPoolPrediction({ poolId: pool.id, marketId: 'seed-q-5', outcome: 'YES', amount: '99.99' });
    await db.update(perpMarkets).set({ markPrice: sql`mark_price * 0.987`, fundingIndex: sql`funding_index + 0.0000123` }).where(eq(perpMarkets.ticker, 'ORBT'));
    const player = await seedUser({ balance: '5000' });
    for (const amount of ['1', '333.33333333', '1234.5']) {
      const [before] = await db.select().from(pools).where(eq(pools.id, pool.id));
      const holdings = await loadHoldingsOf(db, pool.accountUserId);
      const q = quoteDeposit({ nav: holdings.nav, totalShares: before!.totalShares }, amount);
      const r = await depositToPool({ caller: callerOfUser(player), poolId: pool.id, amount });
      const [lot] = await db.select().from(poolDeposits).where(eq(poolDeposits.id, r.deposit.id));
      expect(dec(lot!.shares).toFixed()).toBe(q.shares.toFixed());
      expect(dec(lot!.sharePrice).toFixed()).toBe(q.sharePrice.toDecimalPlaces(SHARE_SCALE, D.ROUND_DOWN).toFixed());
      const [after] = await db.select().from(pools).where(eq(pools.id, pool.id));
      expect(dec(after!.totalShares).toFixed()).toBe(q.totalSharesAfter.toFixed());
      expect(dec(after!.totalValue).toFixed()).toBe(q.navAfter.toFixed());
      expect(dec(after!.netDeposits).minus(before!.netDeposits).toFixed()).toBe(dec(amount).toFixed());
      const [point] = await db.select().from(poolNavPoints).where(eq(poolNavPoints.poolId, pool.id)).orderBy(sql`${poolNavPoints.createdAt} desc, ${poolNavPoints.id}`).limit(1);
      expect(point!.source).toBe('deposit');
      expect(dec(point!.sharePrice).toFixed()).toBe(sharePriceOf({ nav: q.navAfter, totalShares: q.totalSharesAfter }).toDecimalPlaces(SHARE_SCALE, D.ROUND_DOWN).toFixed());
    }
  });
});
