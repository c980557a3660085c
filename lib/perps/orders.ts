/**
 * Perp orders' arithmetic (issue 32): which way an order fires, which orders a mark fires, what a
 * stop-loss or take-profit closes and what a limit order reserves and opens. Pure: no I/O, exact
 * decimals, the rounding of ./math.ts (units and prices truncated to 18 places, money computed from
 * them truncated to 8, margin and the opening fee rounded half-even). The trigger statements
 * (service/order-triggers.ts) write the same formulas in SQL; test/api/perp-orders.int.test.ts
 * holds the stored results to these functions digit for digit.
 *
 * - `stop_loss` and `take_profit` close (all of, or `size` of) a position when the mark crosses
 *   their price: a long's stop fires at or below it, its take-profit at or above; a short's the
 *   reverse. They execute at the mark that fired them, without impact (the mark does not move),
 *   and close at most the position's size at that moment, never opening or flipping one.
 * - `limit` opens a position when the mark reaches its price (a long at or below, a short at or
 *   above), at that mark, without impact. Its margin and opening fee (what the open will charge,
 *   independent of the price) are reserved when it is placed.
 * - `size` on a stop is notional as the position records it (its opening notional): closing
 *   `size` of a position of `positionSize` closes the fraction size / positionSize of its units,
 *   margin, collateral, opening fee and funding.
 */
import { D, dec, toMoney, type TDecimal, type TDecimalInput } from '@/lib/money/decimal';
import { liquidationPrice, PERP_FEE_RATE, pricePnL, PRICE_SCALE, MONEY_SCALE, type TPerpSide } from './math';

export type TPerpOrderType = 'stop_loss' | 'take_profit' | 'limit';
/** `below`: fires when mark ≤ trigger price; `above`: when mark ≥ trigger price. */
export type TFiresWhen = 'below' | 'above';

const floorPrice = (d: TDecimal) => d.toDecimalPlaces(PRICE_SCALE, D.ROUND_DOWN);
const floorMoney = (d: TDecimal) => d.toDecimalPlaces(MONEY_SCALE, D.ROUND_DOWN);
const max0 = (d: TDecimal) => (d.isNegative() ? dec(0) : d);

/**
 * Which way the mark must cross for an order to fire. `side` is the position's side for a stop or
 * take-profit, the side to open for a limit order: a long is protected below and takes profit
 * above, a long limit buys the dip (below); a short the mirror.
 */
export function firesWhenOf(type: TPerpOrderType, side: TPerpSide): TFiresWhen {
  const long = side === 'long';
  if (type === 'take_profit') return long ? 'above' : 'below';
  return long ? 'below' : 'above';
}

/** Whether `mark` fires an order: at or below its price (`below`), at or above it (`above`). */
export function isTriggered(o: { firesWhen: TFiresWhen; triggerPrice: TDecimalInput }, mark: TDecimalInput) {
  return o.firesWhen === 'below' ? dec(mark).lte(o.triggerPrice) : dec(mark).gte(o.triggerPrice);
}

/**
 * Why a stop-loss or take-profit cannot be placed at `mark`, or null: it must be on the side of the
 * mark where it has not fired yet (a long's stop below the mark, its take-profit above; a short's
 * the reverse). A limit order may be placed anywhere: one the mark already satisfies fills at once.
 */
export function placementProblem(o: { type: TPerpOrderType; side: TPerpSide; triggerPrice: TDecimalInput }, mark: TDecimalInput): string | null {
  if (o.type === 'limit') return null;
  const firesWhen = firesWhenOf(o.type, o.side);
  if (!isTriggered({ firesWhen, triggerPrice: o.triggerPrice }, mark)) return null;
  const name = o.type === 'stop_loss' ? 'A stop-loss' : 'A take-profit';
  return `${name} on a ${o.side} must be placed ${firesWhen} the current mark (${dec(mark).toFixed()})`;
}

export type TTriggerable = { type: TPerpOrderType; firesWhen: TFiresWhen; triggerPrice: TDecimalInput; seq: number; markPrice: TDecimalInput };

/**
 * The orders their ticker's mark fires, in the order they fire: stop-losses and take-profits
 * first (they only close, and a crossed stop must close before the liquidation sweep reaches its
 * position, or a limit's new position changes nothing about it), then limit orders; oldest first
 * within each.
 */
export function ordersToFire<T extends TTriggerable>(orders: readonly T[]): T[] {
  const rank = (o: T) => (o.type === 'limit' ? 1 : 0);
  return orders.filter((o) => isTriggered(o, o.markPrice)).sort((a, b) => rank(a) - rank(b) || a.seq - b.seq);
}

/**
 * How much of a position of `positionSize` an order closes: its `size`, or all of it when the
 * order has none or asks for more than the position holds (never more, so a stop never opens or
 * flips a position).
 */
export function closeSizeOf(positionSize: TDecimalInput, orderSize: TDecimalInput | null | undefined) {
  const whole = orderSize === null || orderSize === undefined || dec(orderSize).gte(positionSize);
  return { whole, size: whole ? dec(positionSize) : dec(orderSize) };
}

/** An open position with its funding settled (collateral and funding paid as of the ticker's index). */
export type TFundedOpenPosition = {
  side: TPerpSide;
  size: TDecimalInput;
  units: TDecimalInput;
  entryPrice: TDecimalInput;
  margin: TDecimalInput;
  collateral: TDecimalInput;
  openFee: TDecimalInput;
  fundingPaid: TDecimalInput;
};

/**
 * A stop-loss or take-profit closing `orderSize` of a position (all of it when null or larger) at
 * `exitPrice`, the mark, without impact. The part closed takes units (truncated to 18 places) and
 * margin, collateral, opening fee and funding paid (truncated to 8) in proportion; it is settled
 * as a close is (./math.ts quoteClose): `closeCredit` = max(0, margin + PnL − fee) as perp_close,
 * `fundingCredit` so that together they pay max(0, collateral + PnL − fee), `netPnL` that less the
 * margin and opening fee of the part. `remaining` is what stays open (null when all of it closed),
 * with its liquidation price from its own collateral and units.
 */
export function quoteTriggerClose(p: TFundedOpenPosition, orderSize: TDecimalInput | null | undefined, exitPrice: TDecimalInput) {
  const { whole, size } = closeSizeOf(p.size, orderSize);
  const part = (v: TDecimalInput, floor: (d: TDecimal) => TDecimal) => (whole ? dec(v) : floor(dec(v).times(size).div(p.size)));
  const units = part(p.units, floorPrice);
  const margin = part(p.margin, floorMoney);
  const collateral = part(p.collateral, floorMoney);
  const openFee = part(p.openFee, floorMoney);
  const fundingPaid = part(p.fundingPaid, floorMoney);
  const realizedPnL = pricePnL(p.side, units, p.entryPrice, exitPrice);
  const fee = floorMoney(units.times(exitPrice).times(PERP_FEE_RATE));
  const closeCredit = max0(margin.plus(realizedPnL).minus(fee));
  const total = max0(collateral.plus(realizedPnL).minus(fee));
  const left = {
    size: dec(p.size).minus(size),
    units: dec(p.units).minus(units),
    margin: dec(p.margin).minus(margin),
    collateral: dec(p.collateral).minus(collateral),
    openFee: dec(p.openFee).minus(openFee),
    fundingPaid: dec(p.fundingPaid).minus(fundingPaid),
  };
  return {
    whole,
    closeSize: size,
    units,
    margin,
    collateral,
    openFee,
    fundingPaid,
    exitPrice: dec(exitPrice),
    /** Notional closed at the exit, as a close's trade records it. */
    notional: floorMoney(units.times(exitPrice)),
    realizedPnL,
    fee,
    closeCredit,
    fundingCredit: total.minus(closeCredit),
    /** What the balance receives. */
    total,
    netPnL: total.minus(margin).minus(openFee),
    remaining: whole
      ? null
      : { ...left, liquidationPrice: liquidationPrice({ side: p.side, entryPrice: p.entryPrice, units: left.units, collateral: left.collateral }) },
  };
}

/**
 * A limit order opening `size` at `leverage`: what it reserves (margin + opening fee: what the
 * open charges, whatever the price) and the position it opens at `entryPrice`, the mark that fires
 * it, without impact. Assumes orderProblem({size, leverage}) is null (./math.ts).
 */
export function quoteLimit(o: { side: TPerpSide; size: TDecimalInput; leverage: TDecimalInput }, entryPrice: TDecimalInput) {
  const size = toMoney(o.size);
  const margin = toMoney(size.div(o.leverage));
  const fee = toMoney(size.times(PERP_FEE_RATE));
  const entry = floorPrice(dec(entryPrice));
  const units = floorPrice(size.div(entry));
  return {
    size,
    margin,
    fee,
    /** Taken from the balance while the order rests, and exactly what the open then costs. */
    reserve: margin.plus(fee),
    entryPrice: entry,
    units,
    liquidationPrice: liquidationPrice({ side: o.side, entryPrice: entry, units, collateral: margin }),
  };
}
