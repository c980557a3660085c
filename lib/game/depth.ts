/**
 * How deep the game's prediction markets start. Their audience: players start with $1,000 and
 * NPCs bet $50 to $500 (lib/game/npc/plan.ts TRADE_AMOUNT), so one bet must move a question a few
 * points, not thirty: at 5,000 a side a $200 buy at 50% moves it under 2 points, $500 under 5,
 * a new player's whole $1,000 under 10 (depth.test.ts). Liquidity is the platform's subsidy (the
 * pool can lose at most that to traders), which play money affords. Pure: constants and a measure.
 */
import { createPool, quoteBuy } from '@/lib/markets/cpmm';

/** Liquidity of a question the game asks (each reserve of its pool at 0.5). */
export const GAME_QUESTION_LIQUIDITY = 5000;

/** How far (in probability) a buy of `amount` on YES moves a new market of `liquidity` from 0.5. */
export function freshMarketMove(liquidity: number, amount: number) {
  return quoteBuy(createPool(liquidity), 'YES', amount).priceAfter.toNumber() - 0.5;
}
