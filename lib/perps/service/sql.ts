/**
 * The perps formulas of lib/perps/math.ts written in SQL, so that a trade is ONE statement
 * holding the ticker lock only while PostgreSQL runs it (the reasoning of lib/markets' buy).
 * Same formulas, same truncation; perps-sql.int.test.ts checks digit for digit that both agree.
 * Divisions cast the dividend to numeric(80,40) so PostgreSQL keeps as many digits as decimal.js.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { perpMarkets, perpOrders, perpPositions } from '@/db/schema';
import { FUNDING_IMBALANCE_RATE, FUNDING_INTEREST_RATE, FUNDING_PREMIUM_CLAMP, FUNDING_RATE_CAP, MAINTENANCE_RATE, MAX_IMPACT, PERP_FEE_RATE, PRICE_SCALE } from '../math';

const P = sql.raw(String(PRICE_SCALE));
const num = (v: { toFixed(): string }) => sql.raw(`${v.toFixed()}::numeric`);

export function div(a: SQL, b: SQL) {
  return sql`((${a})::numeric(80, 40) / (${b}))`;
}

/** impactOf: least(trunc(notional / depth, 18), MAX_IMPACT). */
export function impactSql(notional: SQL, depth: SQL) {
  return sql`least(trunc(${div(notional, depth)}, ${P}), ${num(MAX_IMPACT)})`;
}

/** fillPrice: trunc(mark × (1 ± impact), 18); `buy` is a boolean SQL expression. */
export function fillPriceSql(mark: SQL, buy: SQL, impact: SQL) {
  return sql`trunc((${mark}) * (case when ${buy} then 1 + ${impact} else 1 - ${impact} end), ${P})`;
}

/** liquidationPrice: greatest(0, trunc((entry ∓ collateral/units) / (1 ∓ m), 18)). */
export function liquidationPriceSql(side: SQL, entry: SQL, units: SQL, collateral: SQL) {
  const perUnit = div(collateral, units);
  return sql`greatest(0, trunc(case when ${side} = 'long'
      then ${div(sql`(${entry}) - ${perUnit}`, sql`1 - ${num(MAINTENANCE_RATE)}`)}
      else ${div(sql`(${entry}) + ${perUnit}`, sql`1 + ${num(MAINTENANCE_RATE)}`)} end, ${P}))`;
}

/** pricePnL: trunc(±units × (price − entry), 8). */
export function pricePnLSql(side: SQL, units: SQL, entry: SQL, price: SQL) {
  return sql`trunc((case when ${side} = 'long' then 1 else -1 end) * (${units}) * ((${price}) - (${entry})), 8)`;
}

/** The closing fee: trunc(units × exit × 0.1%, 8). */
export function closeFeeSql(units: SQL, exit: SQL) {
  return sql`trunc((${units}) * (${exit}) * ${num(PERP_FEE_RATE)}, 8)`;
}

/**
 * fundingRate: clamp(trunc(clamp(I, P − c, P + c) + k × (L − S)/(L + S), 18), ±cap), with
 * P = (mark − index)/index and the imbalance 0 for an empty book. `oiLong` and `oiShort` are the
 * ticker's open interest (notional at the mark, as the ticker listing computes it).
 */
export function fundingRateSql(mark: SQL, index: SQL, oiLong: SQL, oiShort: SQL) {
  const premium = div(sql`(${mark}) - (${index})`, index);
  const premiumPart = sql`greatest(${premium} - ${num(FUNDING_PREMIUM_CLAMP)}, least(${premium} + ${num(FUNDING_PREMIUM_CLAMP)}, ${num(FUNDING_INTEREST_RATE)}))`;
  const imbalance = sql`coalesce(${div(sql`(${oiLong}) - (${oiShort})`, sql`nullif((${oiLong}) + (${oiShort}), 0)`)}, 0)`;
  return sql`greatest(-${num(FUNDING_RATE_CAP)}, least(${num(FUNDING_RATE_CAP)}, trunc(${premiumPart} + ${num(FUNDING_IMBALANCE_RATE)} * ${imbalance}, ${P})))`;
}

/** fundingIndexStep: trunc(mark × rate, 18). */
export function fundingIndexStepSql(mark: SQL, rate: SQL) {
  return sql`trunc((${mark}) * (${rate}), ${P})`;
}

/** accruedFunding: ±trunc(units × (index − entry), 8), + for a long (it pays), − for a short. */
export function accruedFundingSql(side: SQL, units: SQL, index: SQL, entry: SQL) {
  return sql`((case when ${side} = 'long' then 1 else -1 end) * trunc((${units}) * ((${index}) - (${entry})), 8))`;
}

/** liquidationShift: trunc(index / (1 ∓ m), 18). The generated column liquidation_key (db/schema/perps.ts) writes the same. */
export function liquidationShiftSql(side: SQL, index: SQL) {
  return sql`trunc(case when ${side} = 'long' then ${div(index, sql`1 - ${num(MAINTENANCE_RATE)}`)} else ${div(index, sql`1 + ${num(MAINTENANCE_RATE)}`)} end, ${P})`;
}

/** effectiveLiquidationPrice: greatest(0, liquidation_key + shift(index)). */
export function effectiveLiquidationPriceSql(side: SQL, key: SQL, index: SQL) {
  return sql`greatest(0, (${key}) + ${liquidationShiftSql(side, index)})`;
}

/**
 * An open position's collateral with its accrued funding, for readers that value positions in
 * SQL: `p` aliases perp_positions, `index` is its ticker's perp_markets.funding_index.
 */
export function fundedCollateralSql(p: string, index: SQL) {
  const a = sql.raw(p);
  return sql`(${a}.collateral - ${accruedFundingSql(sql`${a}.side`, sql`${a}.units`, index, sql`${a}.funding_index_entry`)})`;
}

/**
 * `sweep_due`: whether the liquidation sweep that follows a trade (liquidate.ts liquidateAfterTrade)
 * has anything to do, so a trade that reached nothing skips its two statements. `locked` is the
 * trade's CTE that locked the ticker row (columns funding_index, and version = its xmin::text),
 * `moved` the CTE that set its new mark (columns ticker, mark_price). Due when the new mark reaches
 * an open position (liquidate.ts buildSweepStatement's ranges: liquidation_key against mark −
 * liquidationShift(index)) or fires an open perp order (order-triggers.ts candidatesStatement's
 * ranges), or when the statement cannot tell: the locked row is newer than the statement's
 * snapshot (another trade or the funding tick committed while this one waited for the lock), so
 * positions and orders that commit came with it may be unseen. False only when nothing is due;
 * null when the trade wrote nothing.
 */
export function sweepDueCte(o: { locked: string; moved: string }) {
  const l = sql.raw(o.locked);
  const m = sql.raw(o.moved);
  // Each range as the first key of its partial index in the range's direction (a one-row index
  // probe, whatever the statistics say) compared once with the reach: the same answer as an EXISTS
  // over the range (keys and trigger prices are never null), without a scan that evaluates the
  // reach per row. ORDER BY … LIMIT 1 rather than max/min: the same plan for less planning.
  return sql`sweep_due as (
      select ${l}.version is distinct from (select s.xmin::text from ${perpMarkets} s where s.ticker = ${m}.ticker)
        or coalesce((select p.liquidation_key from ${perpPositions} p where p.ticker = ${m}.ticker and p.side = 'long' and p.status = 'open' order by p.liquidation_key desc limit 1)
          >= ${m}.mark_price - ${liquidationShiftSql(sql`'long'`, sql`${l}.funding_index`)}, false)
        or coalesce((select p.liquidation_key from ${perpPositions} p where p.ticker = ${m}.ticker and p.side = 'short' and p.status = 'open' order by p.liquidation_key limit 1)
          <= ${m}.mark_price - ${liquidationShiftSql(sql`'short'`, sql`${l}.funding_index`)}, false)
        or coalesce((select po.trigger_price from ${perpOrders} po where po.ticker = ${m}.ticker and po.fires_when = 'below' and po.status = 'open' order by po.trigger_price desc limit 1)
          >= ${m}.mark_price, false)
        or coalesce((select po.trigger_price from ${perpOrders} po where po.ticker = ${m}.ticker and po.fires_when = 'above' and po.status = 'open' order by po.trigger_price limit 1)
          <= ${m}.mark_price, false) as due
      from ${l}, ${m}
    )`;
}
