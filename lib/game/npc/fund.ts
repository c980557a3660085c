/**
 * A pool manager never trades personally against their own fund: a manager's own prediction buy
 * must not take the other side of a market their pool holds, and their own perp must not take the
 * other direction on a ticker their pool holds. Pure: the plan (plan.ts) asks it before every buy
 * and open of an actor that manages a pool (the fund's book is in the snapshot, state.ts).
 */

/** What a manager's pool holds: the sides of its open prediction positions and perps. */
export type TFundBook = {
  predictions: readonly { marketId: string; side: 'YES' | 'NO' }[];
  perps: readonly { ticker: string; side: 'long' | 'short' }[];
};

/** A personal trade a manager would make: a prediction buy of `outcome`, or a perp opened on `side`. */
export type TPersonalTrade = { kind: 'prediction'; marketId: string; outcome: 'YES' | 'NO' } | { kind: 'perp'; ticker: string; side: 'long' | 'short' };

/** Whether `trade` takes the opposite side of a position the manager's fund holds (same market other outcome, same ticker other direction). */
export function againstOwnFund(fund: TFundBook | null | undefined, trade: TPersonalTrade): boolean {
  if (!fund) return false;
  if (trade.kind === 'prediction') return fund.predictions.some((p) => p.marketId === trade.marketId && p.side !== trade.outcome);
  return fund.perps.some((p) => p.ticker === trade.ticker && p.side !== trade.side);
}
