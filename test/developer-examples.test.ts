/**
 * The developer page's example market (components/a2a/example-market.ts and the snippets): once a
 * market is picked, no example names the `<marketId>` placeholder, and the buy the console
 * previews is a trading method of the A2A table.
 */
import { describe, expect, it } from 'vitest';
import { AGENT_SNIPPETS, MARKET_PLACEHOLDER } from '@/components/a2a/agent-snippets';
import { BUY_METHOD, buyExampleParams, swapMarketInText, withExampleMarket } from '@/components/a2a/example-market';
import { findMethod } from '@/lib/a2a/methods';

const ID = 'mkt_0123456789abcdef';
const ORIGIN = 'https://play.example.test';

describe('developer examples with a picked market', () => {
  it('every snippet carries the picked id and no placeholder; without a pick the placeholder stays', () => {
    for (const s of AGENT_SNIPPETS) expect(s.code(ORIGIN, ID), s.id).not.toContain(MARKET_PLACEHOLDER);
    const curl = AGENT_SNIPPETS.find((s) => s.id === 'curl')!;
    expect(curl.code(ORIGIN, ID)).toContain(`${ORIGIN}/api/markets/predictions/${ID}/buy`);
    expect(curl.code(ORIGIN)).toContain(`${ORIGIN}/api/markets/predictions/${MARKET_PLACEHOLDER}/buy`);
  });

  it('the MCP example previews a buy through a trading tool of the table', () => {
    const mcp = AGENT_SNIPPETS.find((s) => s.id === 'mcp-sdk')!.code(ORIGIN, ID);
    expect(mcp).toContain(`name: '${BUY_METHOD}', arguments: { marketId: '${ID}', outcome: 'YES', amount: 10, dryRun: true }`);
    expect(findMethod(BUY_METHOD)?.group).toBe('trading');
  });

  it('fills marketId into example params only where the method takes one', () => {
    expect(withExampleMarket({ marketId: MARKET_PLACEHOLDER }, ID)).toEqual({ marketId: ID });
    expect(withExampleMarket({ userId: '<userId>' }, ID)).toEqual({ userId: '<userId>' });
    expect(withExampleMarket({ marketId: MARKET_PLACEHOLDER }, '')).toEqual({ marketId: MARKET_PLACEHOLDER });
  });

  it('swaps the previous id (or the placeholder) in typed params, and nothing else', () => {
    const typed = `{"marketId": "${MARKET_PLACEHOLDER}", "note": "<marketId> in text"}`;
    const once = swapMarketInText(typed, '', ID);
    expect(once).toBe(`{"marketId": "${ID}", "note": "<marketId> in text"}`);
    expect(swapMarketInText(once, ID, 'other')).toBe(`{"marketId": "other", "note": "<marketId> in text"}`);
    expect(swapMarketInText(once, ID, '')).toBe(typed);
  });

  it('the console buy is a small dry run that the method accepts', () => {
    const params = buyExampleParams(ID);
    expect(params).toEqual({ marketId: ID, outcome: 'YES', amount: 10, dryRun: true });
    expect(findMethod(BUY_METHOD)!.params.safeParse(params).success).toBe(true);
  });
});
