/**
 * The developer page's example market in its examples (pure, no React): the `<marketId>`
 * placeholder of an example params object or text replaced by a picked question's id, and the
 * buy the console offers to preview.
 */
import { MARKET_PLACEHOLDER } from './agent-snippets';

/** The method the console's "Preview a buy" sets: a trading method of the A2A table. */
export const BUY_METHOD = 'a2a.buyShares';

/** Params with a `marketId` set to the picked market ('' keeps them as they are). */
export function withExampleMarket(params: Record<string, unknown>, marketId: string): Record<string, unknown> {
  if (!marketId || !('marketId' in params)) return params;
  return { ...params, marketId };
}

/**
 * Console params as typed, with one market id swapped for another: only the exact JSON string
 * `"from"` (by default the placeholder) is replaced, so what the player typed stays theirs.
 */
export function swapMarketInText(text: string, from: string, to: string): string {
  const source = from || MARKET_PLACEHOLDER;
  const target = to || MARKET_PLACEHOLDER;
  if (source === target) return text;
  return text.split(JSON.stringify(source)).join(JSON.stringify(target));
}

/** The params of a small dry-run buy of YES on the market (the placeholder until one is picked). */
export function buyExampleParams(marketId: string): Record<string, unknown> {
  return { marketId: marketId || MARKET_PLACEHOLDER, outcome: 'YES', amount: 10, dryRun: true };
}
