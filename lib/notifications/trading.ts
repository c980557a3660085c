/**
 * Trading notifications (`type: 'system'` with a `kind` and a `link`), each written set-based in
 * the transaction of what causes it, never one statement per position:
 *
 * - `notifyPriceMoves` (the tick's alerts step): holders of a market whose YES price moved 10
 *   points or more from 24 hours earlier; once per market and holder within 24 hours, framed by
 *   the side held (a NO holder of a market that fell is told it is "up for you"; alerts-math
 *   priceMoveForSide is the pure twin). Incremental: each run reads only what changed since the
 *   last one (markets that newly moved, trades, notices turning a day old, preference changes),
 *   with the markets moved at the last run in price_move_markets and its time in detector_state.
 * Every writer applies the recipients' per-kind preferences (db/notification-delivery.ts).
 * - `warnNearLiquidation` (the tick's alerts step): open perps with a quarter or less of their
 *   margin buffer left (equity above the maintenance margin, against what it was at open) are
 *   warned once (perp_positions.liquidation_warned_at); a warned position that recovers above
 *   half is reset, so its next approach warns again. Its liquidation price counts the funding
 *   accrued since it opened (lib/perps/math effectiveLiquidationPrice).
 *
 * A resolution's `payout` and `resolution` notices are written by lib/markets (service/notices.ts)
 * in the resolution's transaction, so lib/markets does not import this folder, which prices
 * holdings with lib/markets/sql.ts. The liquidation itself is notified by the sweep's statement
 * (lib/perps/service/liquidate.ts), with the funding the position paid or received. Funding is
 * notified by the funding step's own statement, only over a threshold (lib/perps/service/funding.ts).
 * NPC actors never sign in, so none of these are written for them. Thresholds and their pure
 * twins: ./alerts-math.ts. I/O: the database, in the caller's transaction.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import {
  marketPositions,
  marketPricePoints,
  markets,
  notificationPreferences,
  notifications,
  perpMarkets,
  perpPositions,
  priceMoveMarkets,
  trades,
  users,
} from '@/db/schema';
import { yesPriceSql } from '@/lib/markets/sql';
import { LIQUIDATION_RESET_RATIO, LIQUIDATION_WARN_RATIO, PRICE_MOVE_POINTS } from './alerts-math';
import { deliveryFor, wantsNotice } from '@/db/notification-delivery';
import { readWatermark, watermarkUpsert } from '@/db/watermarks';

const DAY = sql`interval '24 hours'`;
const num = (x: number) => sql.raw(`${x}::numeric`);
/** A probability as "41%". */
const pct = (x: SQL) => sql`(round((${x}) * 100)::int)::text || '%'`;
/** A price as "92.4172" (up to 4 places). */
const price = (x: SQL) => sql`rtrim(rtrim(to_char(round(${x}, 4), 'FM999999999990.0000'), '0'), '.')`;
const quote = (text: SQL) => sql`'“' || (case when length(${text}) > 80 then left(${text}, 79) || '…' else ${text} end) || '”'`;

/** The active markets whose YES price moved 10 points or more from 24 hours before `ts`: M(ts). */
const movedSql = (ts: SQL) => sql`
      moved as (
        select m.id, m.text, c.now_p, r.then_p
        from ${markets} m
        cross join lateral (select ${yesPriceSql('m')}::numeric as now_p) c
        cross join lateral (
          select coalesce(
            (select pp.yes_price from ${marketPricePoints} pp where pp.market_id = m.id and pp.created_at <= ${ts} - ${DAY} order by pp.created_at desc limit 1),
            (select pp.yes_price from ${marketPricePoints} pp where pp.market_id = m.id and pp.created_at > ${ts} - ${DAY} order by pp.created_at asc limit 1)
          ) as then_p
        ) r
        where m.status = 'active' and r.then_p is not null and abs(c.now_p - r.then_p) >= ${num(PRICE_MOVE_POINTS)}
      )`;

/**
 * From `held` (positions of moved markets, with the market's text and prices): one notice per
 * holder and market not told within 24 h, framed by the side held; then M(ts) kept in
 * price_move_markets and the watermark `ts` in detector_state (row 'price_moves'), in the same
 * statement.
 */
const noticesSql = (ts: SQL) => sql`
      holders as (
        -- One notice per holder and market, framed by the side they hold (the larger, if both).
        select distinct on (mp.user_id, mp.id) mp.user_id, mp.side, mp.id, mp.text, mp.now_p, mp.then_p,
          case when mp.side = 'YES' then mp.now_p - mp.then_p else mp.then_p - mp.now_p end as for_side
        from held mp
        join ${users} u on u.id = mp.user_id and not u.is_actor
        where not exists (
          select 1 from ${notifications} n
          where n.user_id = mp.user_id and n.created_at > ${ts} - ${DAY} and n.kind = 'price_move' and n.link = '/markets/' || mp.id
        )
          and ${wantsNotice(sql`mp.user_id`, sql`'price_move'`)}
        order by mp.user_id, mp.id, mp.shares desc, mp.side
      ),
      ins as (
        insert into ${notifications} (id, user_id, type, kind, link, title, message, read, delivery, created_at)
        select gen_random_uuid()::text, h.user_id, 'system', 'price_move', '/markets/' || h.id,
          case when h.for_side > 0 then 'Up ' else 'Down ' end
            || round(abs(h.now_p - h.then_p) * 100)::int || ' points for your ' || h.side || ' shares',
          ${quote(sql`h.text`)} || ' moved from ' || ${pct(sql`h.then_p`)} || ' to ' || ${pct(sql`h.now_p`)} || ' YES in 24 h: '
            || case when h.for_side > 0 then 'up for you, as you hold ' else 'down for you, as you hold ' end || h.side || '.',
          false, ${deliveryFor(sql`h.user_id`, sql`'price_move'`)}, ${ts}
        from holders h
        returning id
      ),
      left_m as (delete from ${priceMoveMarkets} k where k.market_id not in (select id from moved)),
      entered_m as (
        insert into ${priceMoveMarkets} (market_id, since) select id, ${ts} from moved
        on conflict (market_id) do nothing
      ),
      mark as (${watermarkUpsert(PRICE_MOVES_STATE, ts)})`;

/** detector_state's row for this step: `trades_through` is the `at` of the last run. */
const PRICE_MOVES_STATE = 'price_moves';
/**
 * Trades and preference changes dated up to this long before the watermark are read again: a
 * trade takes its time (now()) before it commits, possibly after the run that set the watermark.
 */
const IN_FLIGHT = sql`interval '2 minutes'`;
const DAY_MS = 24 * 3_600_000;

/** The `at` of the last run (undefined: never). */
const loadPriceMoveWatermark = (db: DbOrTx) => readWatermark(db, PRICE_MOVES_STATE);

/**
 * The full run: every holder of every market in M(at) is read (`examined`). What every run did
 * before the watermark; now the run without one (or after the clock went back, or a day's gap).
 */
export async function notifyPriceMovesFull(db: DbOrTx, at: Date) {
  const ts = sql`${at.toISOString()}::timestamptz`;
  const rows = rowsOf<{ n: number | string; examined: number | string }>(
    await db.execute(sql`
      with ${movedSql(ts)},
      held as (
        select mp.user_id, mp.side, mp.shares, moved.id, moved.text, moved.now_p, moved.then_p
        from moved
        join ${marketPositions} mp on mp.market_id = moved.id and mp.shares > 0 and mp.settled_at is null
      ),
      ${noticesSql(ts)}
      select (select count(*) from ins) as n, (select count(*) from held) as examined`),
  );
  return { notified: Number(rows[0]?.n ?? 0), examined: Number(rows[0]?.examined ?? 0), incremental: false };
}

/**
 * The incremental run since the last one at `prev` (less than a day before `at`): that run told
 * every holder then due, so a holder due now became due since, in one of four ways, and only
 * those candidates are read (`examined`):
 *   (a) the market entered M since prev (not in price_move_markets): all its holders;
 *   (b) the holder's position changed: every change writes a trades row dated at the change
 *       (buy-shares, sell-shares, orders/engine and take), read by trades_market_created_idx (the
 *       backfill, lib/markets/history.ts, dates its rows in the past, but trades for NPCs only);
 *   (c) their last notice for the market turned 24 h old: notices dated in (prev - 24 h, at - 24 h]
 *       (notifications_price_move_created_idx);
 *   (d) they turned the kind back on: price_move preference rows changed since prev
 *       (notification_preferences_price_move_updated_idx).
 * (b) and (d) look IN_FLIGHT further back, for writes that committed after the last run. The
 * candidates then pass the full run's rule: the same notices as notifyPriceMovesFull.
 */
async function notifyPriceMovesIncremental(db: DbOrTx, at: Date, prev: Date) {
  const ts = sql`${at.toISOString()}::timestamptz`;
  const since = sql`${prev.toISOString()}::timestamptz`;
  const rows = rowsOf<{ n: number | string; examined: number | string }>(
    await db.execute(sql`
      with ${movedSql(ts)},
      fresh as (select id from moved where id not in (select market_id from ${priceMoveMarkets})),
      kept as (select id from moved where id in (select market_id from ${priceMoveMarkets})),
      by_fresh as (
        select mp.user_id, mp.market_id from fresh join ${marketPositions} mp on mp.market_id = fresh.id and mp.shares > 0 and mp.settled_at is null
      ),
      by_trade as (
        select t.user_id, t.market_id from kept join ${trades} t on t.market_id = kept.id and t.created_at > ${since} - ${IN_FLIGHT}
      ),
      by_expiry as (
        select n.user_id, n.link from ${notifications} n
        where n.kind = 'price_move' and n.created_at > ${since} - ${DAY} and n.created_at <= ${ts} - ${DAY}
      ),
      by_pref as (
        select np.user_id from ${notificationPreferences} np where np.kind = 'price_move' and np.updated_at > ${since} - ${IN_FLIGHT}
      ),
      cand as (
        select user_id, market_id from by_fresh
        union select user_id, market_id from by_trade
        union select e.user_id, kept.id from by_expiry e join kept on e.link = '/markets/' || kept.id
        union select mp.user_id, mp.market_id from by_pref p
          join ${marketPositions} mp on mp.user_id = p.user_id and mp.market_id in (select id from kept)
      ),
      held as (
        select mp.user_id, mp.side, mp.shares, moved.id, moved.text, moved.now_p, moved.then_p
        from cand c
        join ${marketPositions} mp on mp.user_id = c.user_id and mp.market_id = c.market_id and mp.shares > 0 and mp.settled_at is null
        join moved on moved.id = c.market_id
      ),
      ${noticesSql(ts)}
      select (select count(*) from ins) as n,
        (select count(*) from by_fresh) + (select count(*) from by_trade) + (select count(*) from by_expiry) + (select count(*) from by_pref) as examined`),
  );
  return { notified: Number(rows[0]?.n ?? 0), examined: Number(rows[0]?.examined ?? 0), incremental: true };
}

/**
 * notifyPriceMoves with its cost: the notices written, and the rows examined. Incremental from the
 * last run's watermark (what changed since: notifyPriceMovesIncremental), so a quiet minute reads
 * nothing whatever the number of holders; the full run (every holder of every moved market) when
 * there is no watermark, the clock went back, or the last run is a day old or more.
 */
export async function notifyPriceMovesCounted(db: DbOrTx, at: Date) {
  const prev = await loadPriceMoveWatermark(db);
  if (!prev || at.getTime() <= prev.getTime() || at.getTime() - prev.getTime() >= DAY_MS) return notifyPriceMovesFull(db, at);
  return notifyPriceMovesIncremental(db, at, prev);
}

/** Holders of active markets that moved 10 points or more in 24 h, told once per market within 24 h: the notices written. */
export async function notifyPriceMoves(db: DbOrTx, at: Date) {
  return (await notifyPriceMovesCounted(db, at)).notified;
}

/**
 * An open position's liquidation price with the funding accrued since it opened (lib/perps/math
 * effectiveLiquidationPrice, written here with the caller's maintenance rate M):
 * greatest(0, liquidation_key + trunc(funding index / (1 ∓ M), 18)).
 */
const liquidationPriceSql = (M: SQL) => sql`greatest(0, pp.liquidation_key + trunc(case when pp.side = 'long'
    then m.funding_index::numeric(80, 40) / (1 - ${M}) else m.funding_index::numeric(80, 40) / (1 + ${M}) end, 18))`;

/**
 * Each open position's margin buffer at the mark over its buffer at open (alerts-math
 * marginBufferRatio): 1 at open, 0 at the liquidation price `liq`; 0 when it had no buffer at all.
 */
const bufferRatioSql = (M: SQL, liq: SQL) => sql`case
    when pp.margin - ${M} * pp.size <= 0 then 0
    else (case when pp.side = 'long' then pp.units * (1 - ${M}) * (m.mark_price - ${liq})
      else pp.units * (1 + ${M}) * (${liq} - m.mark_price) end)::numeric(80, 40) / (pp.margin - ${M} * pp.size)
  end`;

/** The maintenance rate the generated keys liquidation_warn_key / liquidation_reset_key are written with (migration 0028). */
const KEYED_MAINTENANCE_RATE = '0.005';
/** Slack on the candidates' key ranges (the keys are truncated to 18 places; the exact ratio decides). */
const EPS = sql.raw('0.000000001::numeric');

/**
 * The open positions whose warning or reset threshold the mark (less the funding index's shift)
 * has crossed, from index ranges per ticker and side (migration 0028): unwarned ones whose
 * liquidation_warn_key the mark reached (perp_positions_warn_idx), and the unwarned ones whose
 * effective liquidation price is clamped at 0 (perp_positions_liquidation_idx; there the key
 * understates the warning mark); warned ones whose liquidation_reset_key the mark passed
 * (perp_positions_reset_idx). A superset of the due ones: the exact ratio below decides. With
 * another maintenance rate than the keys', every open position (the former scan).
 */
const candidatesSql = (maintenanceRate: string) => {
  if (Number(maintenanceRate) !== Number(KEYED_MAINTENANCE_RATE)) return sql`select pp.id from ${perpPositions} pp where pp.status = 'open'`;
  // The funding index's shift of the liquidation price (lib/perps/math liquidationShift), as liquidationPriceSql writes it.
  const shift = (side: 'long' | 'short') =>
    sql.raw(`trunc(m.funding_index::numeric(80, 40) / (1 ${side === 'long' ? '-' : '+'} ${KEYED_MAINTENANCE_RATE}), 18)`);
  const x = (side: 'long' | 'short') => sql`(m.mark_price - ${shift(side)})`;
  return sql`select c.id from ${perpMarkets} m cross join lateral (
      select pp.id from ${perpPositions} pp where pp.ticker = m.ticker and pp.status = 'open' and pp.liquidation_warned_at is null
        and pp.side = 'long' and pp.liquidation_warn_key >= ${x('long')} - ${EPS}
      union all
      select pp.id from ${perpPositions} pp where pp.ticker = m.ticker and pp.status = 'open' and pp.liquidation_warned_at is null
        and pp.side = 'short' and pp.liquidation_warn_key <= ${x('short')} + ${EPS}
      union all
      select pp.id from ${perpPositions} pp where pp.ticker = m.ticker and pp.status = 'open'
        and pp.side = 'long' and pp.liquidation_key < ${EPS} - ${shift('long')}
      union all
      select pp.id from ${perpPositions} pp where pp.ticker = m.ticker and pp.status = 'open'
        and pp.side = 'short' and pp.liquidation_key < ${EPS} - ${shift('short')}
      union all
      select pp.id from ${perpPositions} pp where pp.ticker = m.ticker and pp.status = 'open' and pp.liquidation_warned_at is not null
        and pp.side = 'long' and pp.liquidation_reset_key <= ${x('long')} + ${EPS}
      union all
      select pp.id from ${perpPositions} pp where pp.ticker = m.ticker and pp.status = 'open' and pp.liquidation_warned_at is not null
        and pp.side = 'short' and pp.liquidation_reset_key >= ${x('short')} - ${EPS}
    ) c`;
};

/**
 * Warns open perps near liquidation once per approach; resets the ones that recovered.
 * `maintenanceRate` is lib/perps' MAINTENANCE_RATE (a decimal string).
 */
export async function warnNearLiquidation(db: DbOrTx, at: Date, maintenanceRate: string) {
  const ts = sql`${at.toISOString()}::timestamptz`;
  const M = sql`${maintenanceRate}::numeric`;
  const [r] = rowsOf<{ warned: number | string; reset: number | string; examined: number | string }>(
    await db.execute(sql`
      with cand as (${candidatesSql(maintenanceRate)}),
      pos as (
        select pp.id, pp.liquidation_warned_at as warned_at, l.liq, ${bufferRatioSql(M, sql`l.liq`)} as ratio
        from ${perpPositions} pp join ${perpMarkets} m on m.ticker = pp.ticker, lateral (select ${liquidationPriceSql(M)} as liq) l
        where pp.status = 'open' and pp.id in (select id from cand)
      ),
      warn as (
        update ${perpPositions} p set liquidation_warned_at = ${ts}
        from pos
        where p.id = pos.id and p.status = 'open' and p.liquidation_warned_at is null
          and pos.warned_at is null and pos.ratio <= ${num(LIQUIDATION_WARN_RATIO)}
        returning p.id, p.user_id, p.ticker, p.side, p.leverage, pos.liq
      ),
      reset as (
        update ${perpPositions} p set liquidation_warned_at = null
        from pos
        where p.id = pos.id and p.status = 'open' and pos.warned_at is not null and pos.ratio > ${num(LIQUIDATION_RESET_RATIO)}
        returning p.id
      ),
      note as (
        insert into ${notifications} (id, user_id, type, kind, link, title, message, read, delivery, created_at)
        select gen_random_uuid()::text, w.user_id, 'system', 'liquidation_warning', '/perps/' || w.ticker,
          'Liquidation warning: ' || w.ticker,
          'Your ' || rtrim(rtrim(to_char(w.leverage, 'FM999990.0000'), '0'), '.') || 'x ' || w.side || ' on ' || w.ticker
            || ' is close to its liquidation price of ' || ${price(sql`w.liq`)} || ' (mark ' || ${price(sql`m.mark_price`)}
            || '). It is liquidated if the mark reaches it.',
          false, ${deliveryFor(sql`w.user_id`, sql`'liquidation_warning'`)}, ${ts}
        from warn w
        join ${perpMarkets} m on m.ticker = w.ticker
        join ${users} u on u.id = w.user_id and not u.is_actor
        where ${wantsNotice(sql`w.user_id`, sql`'liquidation_warning'`)}
      )
      select (select count(*) from warn) as warned, (select count(*) from reset) as reset, (select count(*) from pos) as examined`),
  );
  return { warned: Number(r?.warned ?? 0), reset: Number(r?.reset ?? 0), examined: Number(r?.examined ?? 0) };
}
