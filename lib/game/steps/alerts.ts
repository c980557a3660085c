/**
 * Tick step: trading alerts. After the tick's prices, NPC trades and pool trades have moved the
 * markets, tells holders what concerns them (lib/notifications/trading.ts, set-based, each in
 * its own transaction):
 *   - price moves: a market one holds moved 10 points or more in 24 h (once per market and
 *     holder within 24 h);
 *   - liquidation warnings: an open perp has a quarter or less of its margin buffer left (once
 *     per approach: perp_positions.liquidation_warned_at, cleared when it recovers above half).
 * As of game time; no randomness.
 */
import { withTransaction } from '@/db/client';
import { notifyPriceMoves, warnNearLiquidation } from '@/lib/notifications/trading';
import { MAINTENANCE_RATE } from '@/lib/perps/math';
import type { TTickContext } from '../types';

export type TAlertsStepResult = { priceMoves: number; liquidationWarnings: number; warningsReset: number };

export async function runAlertsStep(ctx: TTickContext): Promise<TAlertsStepResult> {
  const priceMoves = await withTransaction((tx) => notifyPriceMoves(tx, ctx.at));
  const { warned, reset } = await withTransaction((tx) => warnNearLiquidation(tx, ctx.at, MAINTENANCE_RATE.toFixed()));
  return { priceMoves, liquidationWarnings: warned, warningsReset: reset };
}
