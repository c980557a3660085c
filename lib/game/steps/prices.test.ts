import { describe, expect, it } from 'vitest';
import { prices, quoteBuy, toPool } from '@/lib/markets/cpmm';
import { biasTradeAmount } from '../prices';
import { FULFILLED_PRICE, newsTradeAmount } from './prices';

const pool = { yesShares: '5000', noShares: '5000' };

describe('newsTradeAmount', () => {
  it('takes an event question its news fulfilled to FULFILLED_PRICE in one trade', () => {
    const amount = newsTradeAmount({ kind: 'event', direction: 'YES', strength: 0.6, ...pool }, true);
    const after = prices(quoteBuy(toPool(pool), 'YES', amount).pool).yes.toNumber();
    expect(after).toBeGreaterThanOrEqual(0.97);
    expect(after).toBeLessThanOrEqual(FULFILLED_PRICE + 1e-9);
  });

  it('buys nothing when the question already trades there', () => {
    const high = { yesShares: '40000', noShares: '500' };
    expect(prices(toPool(high)).yes.toNumber()).toBeGreaterThan(FULFILLED_PRICE);
    expect(Number(newsTradeAmount({ kind: 'event', direction: 'YES', strength: 0.6, ...high }, true))).toBe(0);
  });

  it('leaves other news trades at the bias amount', () => {
    expect(newsTradeAmount({ kind: 'price', direction: 'NO', strength: 0.5, ...pool }, false)).toBe(String(biasTradeAmount(0.5)));
    expect(newsTradeAmount({ kind: 'event', direction: 'YES', strength: 0.5, ...pool }, false)).toBe(String(biasTradeAmount(0.5)));
  });
});
