/**
 * When a trading alert is due: pure arithmetic, no I/O. The SQL of lib/notifications/trading.ts
 * writes the same comparisons for whole sets of positions, and trading.int.test.ts checks that
 * both agree.
 *
 * - A **price move** is due when a market one holds moved PRICE_MOVE_POINTS (10 points of
 *   probability) or more from its price 24 hours earlier.
 * - A **liquidation warning** is due when an open perp's margin buffer (its equity at the mark
 *   above the maintenance margin at which it is liquidated) is down to LIQUIDATION_WARN_RATIO of
 *   what it was at open: "a quarter of your margin left". Measuring the buffer rather than the
 *   raw margin keeps the warning ahead of the liquidation at every leverage (at 100x the
 *   maintenance margin alone is half the margin), and funding that ate the collateral counts:
 *   the liquidation price given is the effective one, with the funding accrued since the position
 *   opened (lib/perps/math effectiveLiquidationPrice).
 *   It is due again only after the buffer recovered above LIQUIDATION_RESET_RATIO: the gap keeps
 *   a mark wobbling around one threshold from warning every tick.
 *
 * The buffer is linear in the mark and zero at the liquidation price (lib/perps/math: there the
 * equity equals the maintenance margin m × units × mark), so for a long it is
 * units × (1 − m) × (mark − liquidation price), for a short units × (1 + m) × (liquidation
 * price − mark); at open it is margin − m × size. The maintenance rate m is lib/perps' (math.ts
 * MAINTENANCE_RATE), given by the caller: perps writes notifications, so this folder never
 * imports perps.
 */
export const PRICE_MOVE_POINTS = 0.1;
export const LIQUIDATION_WARN_RATIO = 0.25;
export const LIQUIDATION_RESET_RATIO = 0.5;

/** Whether a move from `from` to `to` (YES prices in [0, 1]) is big enough to tell holders. */
export function isBigMove(from: number, to: number) {
  return Math.abs(to - from) >= PRICE_MOVE_POINTS - 1e-12;
}

/**
 * A move of the YES price from `from` to `to` as the holder of `side` sees it: positive is in
 * their favour (a YES holder when it rose, a NO holder when it fell). The price-move notice says
 * "Up N points for your NO shares" when this is positive, else "Down".
 */
export function priceMoveForSide(from: number, to: number, side: 'YES' | 'NO') {
  return side === 'YES' ? to - from : from - to;
}

export type TMarginPosition = {
  /** lib/perps MAINTENANCE_RATE. */
  maintenanceRate: number;
  side: 'long' | 'short';
  units: number;
  size: number;
  margin: number;
  liquidationPrice: number;
  markPrice: number;
};

/** The buffer at the mark over the buffer at open: 1 at open, 0 at the liquidation price. */
export function marginBufferRatio(p: TMarginPosition) {
  const M = p.maintenanceRate;
  const initial = p.margin - M * p.size;
  if (!(initial > 0)) return 0;
  const buffer = p.side === 'long' ? p.units * (1 - M) * (p.markPrice - p.liquidationPrice) : p.units * (1 + M) * (p.liquidationPrice - p.markPrice);
  return buffer / initial;
}

/** Whether an unwarned position is to be warned now. */
export function isWarningDue(p: TMarginPosition) {
  return marginBufferRatio(p) <= LIQUIDATION_WARN_RATIO;
}

/** Whether a warned position has recovered enough to be warned again on its next approach. */
export function hasRecovered(p: TMarginPosition) {
  return marginBufferRatio(p) > LIQUIDATION_RESET_RATIO;
}

/** The mark at which a position's buffer ratio is `ratio` (the inverse of marginBufferRatio). */
export function markAtRatio(p: Omit<TMarginPosition, 'markPrice'>, ratio: number) {
  const M = p.maintenanceRate;
  const initial = p.margin - M * p.size;
  return p.side === 'long'
    ? p.liquidationPrice + (ratio * initial) / (p.units * (1 - M))
    : p.liquidationPrice - (ratio * initial) / (p.units * (1 + M));
}
