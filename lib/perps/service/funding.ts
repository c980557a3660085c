/**
 * Funding, once per 8-hour period (00:00, 08:00, 16:00 UTC) and per position, however many ticks
 * or restarts run: the period's rate per ticker is written once (primary key ticker + period),
 * each open position's payment once (primary key position + period), and only the payments
 * actually inserted change collateral. Positions opened after a boundary do not pay for it.
 * Each period is two set-based statements in one transaction, not a loop over positions; the
 * payments statement also writes each holder one `funding` notification for the period (all their
 * positions added up).
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { organizations, perpFundingPayments, perpFundingRates, perpMarkets, perpPositions } from '@/db/schema';
import { fundingNoticeCte } from '@/lib/notifications/trading';
import { duePeriods } from '../math';
import { fundingRateSql, liquidationPriceSql } from './sql';

const rateSql = fundingRateSql(sql`m.mark_price`, sql`o.current_price`);

/** Pays every period boundary in (the oldest ticker's last funding, at]. Returns the periods paid. */
export const payDueFunding = async (at: Date) => {
  const db = await getDb();
  const [oldest] = rowsOf<{ t: string | Date | null }>(await db.execute(sql`select min(last_funding_at) as t from ${perpMarkets}`));
  if (!oldest?.t) return { periods: 0, payments: 0 };
  let payments = 0;
  const periods = duePeriods(new Date(oldest.t), at);
  for (const period of periods) {
    const p = sql`${period.toISOString()}::timestamptz`;
    const ts = sql`${at.toISOString()}::timestamptz`;
    payments += await withTransaction(async (tx) => {
      await tx.execute(sql`
        insert into ${perpFundingRates} (ticker, period_start, rate, mark_price, index_price, created_at)
        select m.ticker, ${p}, ${rateSql}, m.mark_price, o.current_price, ${ts}
        from ${perpMarkets} m join ${organizations} o on o.ticker = m.ticker
        where m.last_funding_at < ${p}
        on conflict do nothing`);
      const paid = rowsOf<{ n: number | string }>(
        await tx.execute(sql`
          with pay as (
            insert into ${perpFundingPayments} (position_id, period_start, amount, created_at)
            select pp.id, r.period_start,
              (case when pp.side = 'long' then 1 else -1 end) * trunc(pp.units * r.mark_price * r.rate, 8), ${ts}
            from ${perpPositions} pp join ${perpFundingRates} r on r.ticker = pp.ticker and r.period_start = ${p}
            where pp.status = 'open' and pp.opened_at < ${p}
            on conflict do nothing
            returning position_id, amount
          ),
          charged as (
            update ${perpPositions} pp set
              collateral = pp.collateral - pay.amount,
              funding_paid = pp.funding_paid + pay.amount,
              liquidation_price = ${liquidationPriceSql(sql`pp.side`, sql`pp.entry_price`, sql`pp.units`, sql`pp.collateral - pay.amount`)},
              updated_at = ${ts}
            from pay where pp.id = pay.position_id
            returning pp.id
          ),
          ${fundingNoticeCte('pay', ts)}
          select count(*) as n from charged`),
      );
      await tx.execute(sql`update ${perpMarkets} set last_funding_at = ${p} where last_funding_at < ${p}`);
      return Number(paid[0]?.n ?? 0);
    });
  }
  return { periods: periods.length, payments };
};
