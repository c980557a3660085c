import { describe, expect, it } from 'vitest';
import { groupReceipts, isTradeReceipt, receiptSummary, type TReceiptCandidate } from './receipts';

const npcPerp = (id: string, ticker: string): TReceiptCandidate => ({ id, author: { isActor: true }, trade: { kind: 'perp', ticker, marketId: null }, repost: null });
const npcBet = (id: string, question: string): TReceiptCandidate => ({
  id,
  author: { isActor: true },
  trade: { kind: 'prediction', ticker: null, marketId: `m-${id}` },
  market: { id: `m-${id}`, question },
  repost: null,
});
const npcPlain = (id: string): TReceiptCandidate => ({ id, author: { isActor: true }, trade: null, repost: null });
const player = (id: string, trade = false): TReceiptCandidate => ({ id, author: { isActor: false }, trade: trade ? { kind: 'perp', ticker: 'ORBT', marketId: null } : null, repost: null });

const shape = (items: ReturnType<typeof groupReceipts>) => items.map((i) => (i.kind === 'post' ? i.post.id : `[${i.posts.map((p) => p.id).join(',')}]`));

describe('groupReceipts', () => {
  it('folds runs of two or more consecutive NPC trade receipts, keeps everything else in order', () => {
    const items = groupReceipts([player('a'), npcPerp('b', 'ORBT'), npcPerp('c', 'KLDR'), npcPerp('d', 'ORBT'), player('e'), npcPerp('f', 'ORBT'), npcPlain('g'), npcPerp('h', 'X'), npcPerp('i', 'Y')]);
    expect(shape(items)).toEqual(['a', '[b,c,d]', 'e', 'f', 'g', '[h,i]']);
    expect(items.map((i) => i.index)).toEqual([0, 1, 2, 3, 4, 5]);
    const first = items[1]!;
    expect(first.kind === 'receipts' && first.key).toBe('receipts:b');
    expect(first.kind === 'receipts' && first.summary).toBe('3 NPC trades · $ORBT, $KLDR');
  });

  it('never folds a player’s trade, a repost, a removed post or a lone receipt', () => {
    expect(isTradeReceipt(player('p', true))).toBe(false);
    expect(isTradeReceipt({ ...npcPerp('r', 'ORBT'), repost: { id: 's' } })).toBe(false);
    expect(isTradeReceipt({ ...npcPerp('r', 'ORBT'), removed: { reason: null, at: 'x' } })).toBe(false);
    expect(shape(groupReceipts([player('p', true), player('q', true), npcPerp('r', 'A'), player('s')]))).toEqual(['p', 'q', 'r', 's']);
    expect(groupReceipts([])).toEqual([]);
  });

  it('keeps every post: the folded ones are inside their digest', () => {
    const posts = Array.from({ length: 30 }, (_, i) => (i % 4 === 0 ? player(`p${i}`) : npcPerp(`n${i}`, `T${i % 5}`)));
    const items = groupReceipts(posts);
    const flat = items.flatMap((i) => (i.kind === 'post' ? [i.post] : i.posts));
    expect(flat.map((p) => p.id)).toEqual(posts.map((p) => p.id));
    expect(items.some((i) => i.kind === 'receipts')).toBe(true);
  });
});

describe('receiptSummary', () => {
  it('names perps by $TICKER and markets by their question, distinct, three at most then …', () => {
    expect(receiptSummary([npcPerp('a', 'ORBT'), npcPerp('b', 'ORBT')])).toBe('2 NPC trades · $ORBT');
    expect(receiptSummary([npcPerp('a', 'ORBT'), npcBet('b', 'Will Nexa ship the airline deal before the end of the year?'), npcPerp('c', 'KLDR'), npcPerp('d', 'ZED')])).toBe(
      '4 NPC trades · $ORBT, Will Nexa ship the airline…, $KLDR …',
    );
    expect(receiptSummary([{ ...npcPlain('a'), trade: { kind: 'prediction', ticker: null, marketId: null } }])).toBe('1 NPC trade');
  });
});
