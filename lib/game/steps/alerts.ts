/**
 * Tick step: trading alerts. After the tick's prices, NPC trades and pool trades have moved the
 * markets, tells holders what concerns them (lib/notifications/trading.ts, set-based, each in
 * its own transaction):
 *   - price moves: a market one holds moved 10 points or more in 24 h (once per market and
 *     holder within 24 h), reading only what changed since the last run (migration 0029);
 *   - liquidation warnings: an open perp has a quarter or less of its margin buffer left (once
 *     per approach: perp_positions.liquidation_warned_at, cleared when it recovers above half),
 *     found through the thresholds' index ranges, not a scan of every open position.
 * As of game time; no randomness.
 */
import { withTransaction } from '@/db/client';
import { notifyPriceMovesCounted, warnNearLiquidation } from '@/lib/notifications/trading';
import { MAINTENANCE_RATE } from '@/lib/perps/math';
import type { TTickContext } from '../types';

/**
 * `examined`: the rows the step read to decide (what changed since the last price-move run: positions
 * of markets that newly moved, trades, notices turning a day old, preference changes; and the open
 * perps whose warning or reset threshold the mark crossed: index ranges, migration 0028), so its
 * cost follows what moved, not the number of open positions.
 */
export type TAlertsStepResult = { priceMoves: number; liquidationWarnings: number; warningsReset: number; examined?: number };

export async function runAlertsStep(ctx: TTickContext): Promise<TAlertsStepResult> {
  const moves = await withTransaction((tx) => notifyPriceMovesCounted(tx, ctx.at));
  const { warned, reset, examined } = await withTransaction((tx) => warnNearLiquidation(tx, ctx.at, MAINTENANCE_RATE.toFixed()));
  return { priceMoves: moves.notified, liquidationWarnings: warned, warningsReset: reset, examined: moves.examined + examined };
}
