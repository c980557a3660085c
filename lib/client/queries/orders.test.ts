import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/client/api';
import { bindQueryCache, DERIVED_REFRESH_MS } from '@/lib/client/realtime/cache';
import { createRealtimeHub } from '@/lib/client/realtime/hub';
import { parseRealtimeEvent } from '@/lib/client/realtime/events';
import { dec } from '@/lib/money/decimal';
import { quoteOpen } from '@/lib/perps/math';
import { describeError } from './errors';
import {
  getMyOrdersQueryOptions,
  getOrderBookQueryOptions,
  isLimitReached,
  ORDER_ERROR_MESSAGES,
  orderErrorField,
  parseExpiry,
  parseLimitPrice,
  parseOrderAmount,
  parsePrice,
  previewBrackets,
  previewPerpLimit,
  previewTrigger,
  summarizeFills,
  toCentsText,
  toDepthRows,
  unfilledAmount,
  type TPredictionOrder,
} from './orders';

const order = (o: Partial<TPredictionOrder> = {}): TPredictionOrder => ({
  id: 'o1',
  kind: 'prediction',
  marketId: 'm1',
  outcome: 'YES',
  limitPrice: 0.45,
  amount: 100,
  filledAmount: 0,
  shares: 0,
  status: 'open',
  timeInForce: 'GTC',
  expiresAt: null,
  clientOrderId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...o,
});

describe('parseLimitPrice', () => {
  it('reads 1 to 99 as cents and below 1 as dollars, answering dollars', () => {
    expect(parseLimitPrice('45')).toEqual({ state: 'ok', value: '0.45' });
    expect(parseLimitPrice(' 45¢ ')).toEqual({ state: 'ok', value: '0.45' });
    expect(parseLimitPrice('45.25')).toEqual({ state: 'ok', value: '0.4525' });
    expect(parseLimitPrice('0.45')).toEqual({ state: 'ok', value: '0.45' });
    expect(parseLimitPrice('.07')).toEqual({ state: 'ok', value: '0.07' });
    expect(parseLimitPrice('1')).toEqual({ state: 'ok', value: '0.01' });
    expect(parseLimitPrice('99')).toEqual({ state: 'ok', value: '0.99' });
  });

  it('refuses what the contract refuses: out of range, finer than 4 decimal places, not a number', () => {
    expect(parseLimitPrice('')).toEqual({ state: 'empty' });
    for (const bad of ['0', '0.005', '0.995', '99.5', '100', 'abc', '-5', '.']) expect(parseLimitPrice(bad).state, bad).toBe('invalid');
    expect(parseLimitPrice('45.125')).toMatchObject({ state: 'invalid', reason: expect.stringMatching(/two decimals of a cent/) });
    expect(parseLimitPrice('0.45001').state).toBe('invalid');
  });
});

describe('the other fields', () => {
  it('an amount is at least 1 and within the balance', () => {
    expect(parseOrderAmount('25', '100')).toEqual({ state: 'ok', value: '25' });
    expect(parseOrderAmount('0.5', '100').state).toBe('invalid');
    expect(parseOrderAmount('100.01', '100')).toMatchObject({ state: 'invalid', reason: expect.stringMatching(/balance/) });
    expect(parseOrderAmount('12,5').state).toBe('invalid');
  });

  it('a price is above zero, with or without a dollar sign', () => {
    expect(parsePrice('$142.5')).toEqual({ state: 'ok', value: '142.5' });
    expect(parsePrice('0').state).toBe('invalid');
  });

  it('an expiry is a future local time, sent as ISO', () => {
    const now = Date.parse('2026-03-01T12:00:00');
    expect(parseExpiry('2026-03-02T12:00', now)).toEqual({ state: 'ok', value: new Date('2026-03-02T12:00').toISOString() });
    expect(parseExpiry('2026-03-01T11:00', now).state).toBe('invalid');
    expect(parseExpiry('', now).state).toBe('invalid');
  });

  it('the "current price" pick is cents within 1 to 99', () => {
    expect(toCentsText(0.52341)).toBe('52.34');
    expect(toCentsText(0.004)).toBe('1');
    expect(toCentsText(0.999)).toBe('99');
  });
});

describe('summarizeFills', () => {
  it('sums the fills exactly and rests the unfilled amount', () => {
    const s = summarizeFills({
      order: order({ amount: 100, filledAmount: 30 }),
      fills: [
        { price: 0.4, shares: 25, amount: 10, counterparty: 'order' },
        { price: 0.44, shares: 45.4545, amount: 20, counterparty: 'maker' },
      ],
    });
    expect(s.sharesNow).toBe('70.4545');
    expect(s.spentNow).toBe('30');
    expect(dec(s.avgPrice!).toDecimalPlaces(6).toFixed()).toBe('0.425807');
    expect(s.resting).toBe('70');
    expect(s.cancelledRest).toBe('0');
    expect(dec(s.restingShares).toDecimalPlaces(4).toFixed()).toBe('155.5556');
  });

  it('nothing filled: no average price, the whole amount rests', () => {
    expect(summarizeFills({ order: order(), fills: [] })).toMatchObject({ sharesNow: '0', avgPrice: null, resting: '100' });
  });

  it("an IOC order's unfilled rest is cancelled, not resting", () => {
    const s = summarizeFills({ order: order({ timeInForce: 'IOC', status: 'cancelled', filledAmount: 10 }), fills: [{ price: 0.4, shares: 25, amount: 10, counterparty: 'maker' }] });
    expect(s).toMatchObject({ resting: '0', cancelledRest: '90' });
  });

  it('what a cancel refunds, exactly', () => {
    expect(unfilledAmount({ amount: 0.3, filledAmount: 0.1 })).toBe('0.2');
    expect(unfilledAmount({ amount: 10, filledAmount: 10 })).toBe('0');
  });
});

describe('toDepthRows', () => {
  it('runs totals from the best price and scales both sides to the larger total', () => {
    const rows = toDepthRows({ YES: [{ price: 0.45, amount: 30 }, { price: 0.4, amount: 10 }], NO: [{ price: 0.5, amount: 20 }] });
    expect(rows.YES.map((r) => [r.cents, r.cumulative, r.share])).toEqual([
      [45, '30', 0.75],
      [40, '40', 1],
    ]);
    expect(rows.NO.map((r) => [r.cumulative, r.share])).toEqual([['20', 0.5]]);
    expect(toDepthRows({ YES: [], NO: [] })).toEqual({ YES: [], NO: [] });
  });
});

describe('previewTrigger', () => {
  const depth = 5_000_000;
  const open = quoteOpen({ side: 'long', size: 1000, leverage: 5, markPrice: 100, depth });
  const long = {
    side: 'long' as const,
    size: open.size,
    units: open.units,
    entryPrice: open.entryPrice,
    margin: open.margin,
    collateral: open.margin,
    openFee: open.fee,
    fundingPaid: 0,
    liquidationPrice: open.liquidationPrice,
  };

  it("a long's stop-loss below the mark: the loss there, closing at the trigger without impact, less the closing fee", () => {
    const p = previewTrigger({ position: long, type: 'stop_loss', text: '95', markPrice: 100 });
    // units × (95 − entry) − units × 95 × 0.1%, each truncated to 8 places as the server's math does.
    const pnl = dec(open.units).times(dec(95).minus(open.entryPrice)).toDecimalPlaces(8, 1);
    const fee = dec(open.units).times(95).times('0.001').toDecimalPlaces(8, 1);
    expect(p).toMatchObject({ state: 'ready', triggerPrice: '95', exitPrice: '95', fee: fee.toFixed(), pnl: pnl.minus(fee).toFixed(), isPastLiquidation: false });
    expect(p.state === 'ready' && dec(p.receive).toFixed()).toBe(dec(open.margin).plus(pnl).minus(fee).toFixed());
    expect(p.state === 'ready' && dec(p.pnl).isNegative()).toBe(true);
  });

  it("a long's take-profit above the mark gains", () => {
    const p = previewTrigger({ position: long, type: 'take_profit', text: '110', markPrice: 100 });
    expect(p.state === 'ready' && dec(p.pnl).gt(0)).toBe(true);
  });

  it('refuses a trigger on the wrong side of the mark (it would fire at once), for longs and shorts', () => {
    expect(previewTrigger({ position: long, type: 'stop_loss', text: '101', markPrice: 100 })).toMatchObject({ state: 'invalid', reason: expect.stringMatching(/below the mark price/) });
    expect(previewTrigger({ position: long, type: 'take_profit', text: '99', markPrice: 100 }).state).toBe('invalid');
    const short = { ...long, side: 'short' as const };
    expect(previewTrigger({ position: short, type: 'stop_loss', text: '99', markPrice: 100 })).toMatchObject({ state: 'invalid', reason: expect.stringMatching(/above the mark price/) });
    expect(previewTrigger({ position: short, type: 'stop_loss', text: '101', markPrice: 100 }).state).toBe('ready');
  });

  it('flags a stop beyond the liquidation price', () => {
    const below = dec(open.liquidationPrice).minus(1).toFixed();
    expect(previewTrigger({ position: long, type: 'stop_loss', text: below, markPrice: 100 })).toMatchObject({ state: 'ready', isPastLiquidation: true });
  });

  it('the open form compares its brackets with the entry price, and needs a size', () => {
    const brackets = previewBrackets({ side: 'long', sizeText: '1000', leverage: 5, markPrice: 100, depth, brackets: { stopLoss: '95', takeProfit: '' } });
    expect(brackets.isValid).toBe(true);
    expect(brackets.takeProfit.state).toBe('empty');
    expect(brackets.stopLoss).toEqual(previewTrigger({ position: long, type: 'stop_loss', text: '95', markPrice: open.entryPrice }));
    const wrong = previewBrackets({ side: 'long', sizeText: '1000', leverage: 5, markPrice: 100, depth, brackets: { stopLoss: '', takeProfit: '99' } });
    expect(wrong).toMatchObject({ isValid: false, takeProfit: { state: 'invalid', reason: expect.stringMatching(/entry price/) } });
    expect(previewBrackets({ side: 'long', sizeText: '', leverage: 5, markPrice: 100, depth, brackets: { stopLoss: '95', takeProfit: '' } }).isValid).toBe(false);
  });

  it("a perp limit order reserves its margin and opening fee, and opens at its price", () => {
    expect(previewPerpLimit({ side: 'long', sizeText: '100', leverage: 2, price: '80' })).toEqual({
      state: 'ready',
      size: '100',
      margin: '50',
      fee: '0.1',
      reserve: '50.1',
      entryPrice: '80',
      liquidationPrice: expect.any(String),
    });
    expect(previewPerpLimit({ side: 'long', sizeText: '100', leverage: 2, price: '80', balance: '50' })).toMatchObject({ state: 'invalid', reason: expect.stringMatching(/\$50\.10/) });
    expect(previewPerpLimit({ side: 'long', sizeText: '0.5', leverage: 2, price: '80' }).state).toBe('invalid');
  });

  it('a perp limit order is "reached" when the mark is already past it', () => {
    expect(isLimitReached('long', '101', 100)).toBe(true);
    expect(isLimitReached('long', '99', 100)).toBe(false);
    expect(isLimitReached('short', '99', 100)).toBe(true);
  });
});

describe('live events reach the orders queries', () => {
  afterEach(() => vi.useRealTimers());

  const setup = () => {
    vi.useFakeTimers();
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    const hub = createRealtimeHub();
    const unbind = bindQueryCache(hub, qc, { getUserId: () => 'me' });
    const book = getOrderBookQueryOptions('m1').queryKey;
    const mine = getMyOrdersQueryOptions('me', { marketId: 'm1' }).queryKey;
    qc.setQueryData(book, { YES: [], NO: [] });
    qc.setQueryData(mine, { success: true, orders: [], pagination: { limit: 100, offset: 0, total: 0 } } as never);
    const isStale = (key: readonly unknown[]) => qc.getQueryState(key)?.isInvalidated ?? false;
    return { hub, unbind, book, mine, isStale };
  };

  it("a market's price move refetches its book and the reader's orders, once per burst", () => {
    const { hub, unbind, book, mine, isStale } = setup();
    hub.emit({ type: 'market_update', data: { marketId: 'm1', yesPrice: 0.6, noPrice: 0.4, yesShares: 1, noShares: 1, timestamp: '2026-01-01T00:00:00.000Z' } });
    expect(isStale(book)).toBe(false);
    vi.advanceTimersByTime(DERIVED_REFRESH_MS);
    expect(isStale(book)).toBe(true);
    expect(isStale(mine)).toBe(true);
    unbind();
  });

  it('order_book refetches that book only; order_update refetches the reader\'s orders', () => {
    const { hub, unbind, book, mine, isStale } = setup();
    hub.emit({ type: 'order_book', data: { marketId: 'other', timestamp: '2026-01-01T00:00:00.000Z' } });
    vi.advanceTimersByTime(DERIVED_REFRESH_MS);
    expect(isStale(book)).toBe(false);
    hub.emit({ type: 'order_book', data: { marketId: 'm1', timestamp: '2026-01-01T00:00:00.000Z' } });
    vi.advanceTimersByTime(DERIVED_REFRESH_MS);
    expect(isStale(book)).toBe(true);
    expect(isStale(mine)).toBe(false);
    hub.emit({ type: 'order_update', data: { event: 'filled', order: { id: 'o1', kind: 'prediction', marketId: 'm1' }, timestamp: '2026-01-01T00:00:00.000Z' } });
    vi.advanceTimersByTime(DERIVED_REFRESH_MS);
    expect(isStale(mine)).toBe(true);
    unbind();
  });

  it('the frames parse: an order_update needs its order id, an order_book its market', () => {
    expect(parseRealtimeEvent(JSON.stringify({ type: 'order_book', data: { marketId: 'm1', timestamp: 't' } }))?.type).toBe('order_book');
    expect(parseRealtimeEvent(JSON.stringify({ type: 'order_book', data: { timestamp: 't' } }))).toBeNull();
    expect(parseRealtimeEvent(JSON.stringify({ type: 'order_update', data: { event: 'placed', order: { id: 'o1', extra: 1 }, timestamp: 't' } }))?.type).toBe('order_update');
    expect(parseRealtimeEvent(JSON.stringify({ type: 'order_update', data: { event: 'placed', order: {}, timestamp: 't' } }))).toBeNull();
  });
});

describe('order errors', () => {
  it('go under the field they are about, with the sentence to show', () => {
    const balance = new ApiError(400, 'INSUFFICIENT_BALANCE', 'no', { required: '120.5', available: 80 });
    expect(orderErrorField(balance)).toBe('amount');
    expect(describeError(balance, ORDER_ERROR_MESSAGES)).toBe("You don't have enough balance: this order needs $120.50 and you have $80.00.");
    expect(orderErrorField(new ApiError(400, 'INVALID_LIMIT_PRICE', 'x'))).toBe('limitPrice');
    const issue = new ApiError(400, 'VALIDATION_ERROR', 'Validation failed', { issues: [{ path: 'expiresAt', message: 'expiresAt is required for GTD orders' }] });
    expect(orderErrorField(issue)).toBe('expiresAt');
    expect(describeError(issue, ORDER_ERROR_MESSAGES)).toBe('Check the expiry: expiresAt is required for GTD orders.');
    const refusal = new ApiError(400, 'VALIDATION_ERROR', 'A stop-loss on a long must be placed below the current mark (61)', { triggerPrice: '70', markPrice: '61' });
    expect(orderErrorField(refusal)).toBe('triggerPrice');
    expect(describeError(refusal, ORDER_ERROR_MESSAGES)).toBe('A stop-loss on a long must be placed below the current mark (61).');
    expect(orderErrorField(new ApiError(409, 'ORDER_NOT_OPEN', 'x'))).toBeNull();
  });
});
