/**
 * Funding, once per 8-hour period (00:00, 08:00, 16:00 UTC) and per ticker, however many ticks or
 * restarts run, as a cumulative funding index (lib/perps/README.md): a period writes its rate row
 * per ticker (primary key ticker + period, with the index it made) and moves
 * perp_markets.funding_index by mark × rate. No position is touched: each accrues
 * units × (index − its entry index), which readers add and close and liquidation settle. So a
 * period costs the same with ten positions or a million (issue 20: the old per-position payments
 * took 2.28 s at 100,000 positions).
 *
 * The one exception keeps "positions opened after a boundary do not pay for it": a position opened
 * after a boundary whose funding had not run yet (the tick comes up to a minute later, or later
 * still when the game was paused) took the index before it, so the period moves its entry index
 * past the period's step. Only those positions are read, through perp_positions_open_opened_idx.
 *
 * The rate follows crowding (lib/perps/math fundingRate): the premium of the mark over the index
 * and each ticker's open interest, long against short, read in the same statement (one aggregate
 * over the ticker's open positions: a read, as the ticker listing makes). The open interest is
 * that of the positions the period charges: one opened after its boundary neither pays for it nor
 * weighs on its rate.
 *
 * Funding over a threshold is notified in the period's statement (issue 35, fundingNoticeCte below):
 * only the open positions whose notice threshold the new index crossed are read (an index range
 * per ticker, migration 0028), and a holder is written a notice only when what they paid or
 * received there since their last funding notice is large enough.
 *
 * Each period is one transaction: lock the due tickers (so an open racing the step is either seen
 * by it, in the step and in the open interest, or takes the new index), then one statement.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { deliveryFor, wantsNotice } from '@/db/notification-delivery';
import { notifications, organizations, perpFundingRates, perpMarkets, perpPositions, users } from '@/db/schema';
import { duePeriods } from '../math';
import { accruedFundingSql, fundingIndexStepSql, fundingRateSql } from './sql';

/**
 * A holder is told about funding (kind `funding`, issue 35) when what their positions on a ticker
 * paid or received since the last such notice (or since they opened) reaches the larger of
 * FUNDING_NOTICE_MIN and FUNDING_NOTICE_SHARE of their collateral there: a notice when it matters,
 * not one per period.
 */
export const FUNDING_NOTICE_MIN = 10;
export const FUNDING_NOTICE_SHARE = 0.05;

/** A money amount as "1,234.50" (its absolute value). */
const moneyText = (x: SQL) => sql`trim(to_char(round(abs(${x}), 2), 'FM999,999,999,990.00'))`;

/**
 * The funding notices of period `p`, as CTEs over `rates` (the tickers it paid, with their new
 * index). Per player and ticker: the funding accrued since the base, which is the index of the
 * period of their last funding notice there (perp_positions.funding_noticed_index, set on the
 * positions open when it was written), else each position's entry index. Proportional to what
 * crossed, not to the positions open (migration 0028): the candidates are the open positions whose
 * own 5% threshold the new index reached (perp_positions_funding_hi_idx / _lo_idx, one range each
 * per ticker paid); a holder's threshold, max(10, 5% of their collateral on the ticker), is at
 * least 5% of the sum, so whenever the holder's total crosses it one of their positions crossed
 * its own. Each candidate holder's open positions on the ticker are then summed as before, and a
 * notice written only over the threshold; the recipients' preferences apply
 * (db/notification-delivery). A notice moves the base of the holder's positions open across the
 * period to the new index; so does a crossing of an NPC actor's (never notified), so that its
 * positions are not candidates every period.
 */
const fundingNoticeCte = (p: SQL) => sql`funding_cand as (
    select distinct c.user_id, c.ticker from rates
    cross join lateral (
      select pp.user_id, pp.ticker from ${perpPositions} pp
      where pp.ticker = rates.ticker and pp.status = 'open' and pp.funding_notice_hi <= rates.cumulative_index + ${EPS}
      union
      select pp.user_id, pp.ticker from ${perpPositions} pp
      where pp.ticker = rates.ticker and pp.status = 'open' and pp.funding_notice_lo >= rates.cumulative_index - ${EPS}
    ) c
  ),
  funding_due as (
    select a.*, u.is_actor from (
      select pp.user_id, pp.ticker, count(*) as n, bool_or(pp.funding_noticed_index is not null) as noticed, sum(pp.collateral) as collateral,
        sum(${accruedFundingSql(sql`pp.side`, sql`pp.units`, sql`rates.cumulative_index`, sql`coalesce(pp.funding_noticed_index, pp.funding_index_entry)`)}) as accrued,
        max(rates.cumulative_index) as idx
      from funding_cand fc
      join rates on rates.ticker = fc.ticker
      join ${perpPositions} pp on pp.user_id = fc.user_id and pp.ticker = fc.ticker and pp.status = 'open' and pp.opened_at < ${p}
      group by pp.user_id, pp.ticker
    ) a
    join ${users} u on u.id = a.user_id
    where abs(a.accrued) >= greatest(${sql.raw(`${FUNDING_NOTICE_MIN}::numeric`)}, ${sql.raw(`${FUNDING_NOTICE_SHARE}::numeric`)} * a.collateral)
  ),
  funding_note as (
    insert into ${notifications} (id, user_id, type, kind, link, title, message, read, delivery, created_at)
    select gen_random_uuid()::text, a.user_id, 'system', 'funding', '/perps/' || a.ticker,
      case when a.accrued > 0 then 'Funding paid: ' else 'Funding received: ' end || a.ticker,
      'Your ' || a.ticker || case when a.n > 1 then ' positions have ' else ' position has ' end
        || case when a.accrued > 0 then 'paid ' else 'received ' end || ${moneyText(sql`a.accrued`)} || ' in funding since '
        || case when a.noticed then 'your last funding notice' else 'it opened' end
        || ' (' || round(abs(a.accrued) / nullif(a.collateral, 0) * 100, 1)::text || '% of its collateral).',
      false, ${deliveryFor(sql`a.user_id`, sql`'funding'`)}, ${p}
    from funding_due a
    where not a.is_actor and ${wantsNotice(sql`a.user_id`, sql`'funding'`)}
    returning user_id, link
  ),
  funding_based as (
    update ${perpPositions} pp set funding_noticed_index = d.idx
    from funding_due d
    where pp.user_id = d.user_id and pp.ticker = d.ticker and pp.status = 'open' and pp.opened_at < ${p}
      and (d.is_actor or exists (select 1 from funding_note fn where fn.user_id = d.user_id and fn.link = '/perps/' || d.ticker))
    returning pp.id
  )`;

/** Slack on the candidates' index ranges (the keys are truncated to 18 places; the sums decide). */
const EPS = sql.raw('0.000000001::numeric');

const rateSql = fundingRateSql(sql`m.mark_price`, sql`o.current_price`, sql`oi.oi_long`, sql`oi.oi_short`);

/** A ticker's open interest at the mark per side, as the ticker listing computes it (service/read.ts). */
const openInterestOf = (side: 'long' | 'short') =>
  sql`coalesce(trunc(sum(p.units) filter (where p.side = ${side}) * m.mark_price, 8), 0)`;

/** Pays every period boundary in (the oldest ticker's last funding, at]. Returns the periods paid (and the funding notices written). */
export async function payDueFunding(
  at: Date,
): Promise<{ periods: number; tickers: number; entriesMoved: number; fundingNotices?: number; noticeCandidates?: number }> {
  const db = await getDb();
  const [oldest] = rowsOf<{ t: string | Date | null }>(await db.execute(sql`select min(last_funding_at) as t from ${perpMarkets}`));
  if (!oldest?.t) return { periods: 0, tickers: 0, entriesMoved: 0, fundingNotices: 0, noticeCandidates: 0 };
  let tickers = 0;
  let entriesMoved = 0;
  let fundingNotices = 0;
  let noticeCandidates = 0;
  const periods = duePeriods(new Date(oldest.t), at);
  for (const period of periods) {
    const p = sql`${period.toISOString()}::timestamptz`;
    const ts = sql`${at.toISOString()}::timestamptz`;
    const r = await withTransaction(async (tx) => {
      await tx.execute(sql`select ticker from ${perpMarkets} where last_funding_at < ${p} order by ticker for update`);
      return rowsOf<{ tickers: number | string; moved: number | string; noticed: number | string; candidates: number | string; based: number | string }>(
        await tx.execute(sql`
          with due as (
            select m.ticker, m.funding_index, m.mark_price, o.current_price, x.rate, ${fundingIndexStepSql(sql`m.mark_price`, sql`x.rate`)} as step
            from ${perpMarkets} m join ${organizations} o on o.ticker = m.ticker,
              lateral (select ${openInterestOf('long')} as oi_long, ${openInterestOf('short')} as oi_short
                from ${perpPositions} p where p.ticker = m.ticker and p.status = 'open' and p.opened_at < ${p}) oi,
              lateral (select ${rateSql} as rate) x
            where m.last_funding_at < ${p}
          ),
          rates as (
            insert into ${perpFundingRates} (ticker, period_start, rate, mark_price, index_price, cumulative_index, created_at)
            select due.ticker, ${p}, due.rate, due.mark_price, due.current_price, due.funding_index + due.step, ${ts} from due
            on conflict do nothing
            returning ticker, cumulative_index
          ),
          indexed as (
            update ${perpMarkets} m set funding_index = coalesce(rates.cumulative_index, m.funding_index), last_funding_at = ${p}
            from due left join rates on rates.ticker = due.ticker
            where m.ticker = due.ticker
            returning m.ticker
          ),
          entered as (
            update ${perpPositions} pp set funding_index_entry = pp.funding_index_entry + due.step
            from rates join due on due.ticker = rates.ticker
            where pp.ticker = rates.ticker and pp.status = 'open' and pp.opened_at >= ${p}
            returning pp.id
          ),
          ${fundingNoticeCte(p)}
          select (select count(*) from rates) as tickers, (select count(*) from entered) as moved, (select count(*) from funding_note) as noticed,
            (select count(*) from funding_cand) as candidates, (select count(*) from funding_based) as based`),
      )[0];
    });
    tickers += Number(r?.tickers ?? 0);
    entriesMoved += Number(r?.moved ?? 0);
    fundingNotices += Number(r?.noticed ?? 0);
    noticeCandidates += Number(r?.candidates ?? 0);
  }
  return { periods: periods.length, tickers, entriesMoved, fundingNotices, noticeCandidates };
}
